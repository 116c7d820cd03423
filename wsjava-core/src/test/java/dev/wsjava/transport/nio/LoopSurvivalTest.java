package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No thread of ours dies of one channel's, task's or timer's failure, whatever it throws; an Error
 * in the loop's own work (here: closing a failed channel) stops the loop and fails its server
 * loudly.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoopSurvivalTest {

  @Test
  void aChannelWhoseHandlerThrowsAnErrorIsClosedAndTheLoopGoesOn() throws Exception {
    try (EventLoop loop = new EventLoop("survivor", Duration.ZERO)) {
      CompletableFuture<Boolean> closed = new CompletableFuture<>();
      Pipe pipe = Pipe.open();
      register(loop, pipe, new Selectable() {
        @Override
        public void ready(int readyOps) {
          // what a logger that cannot open its resource bundle threw into the loop of issue 35
          throw new NoClassDefFoundError("Could not initialize class sun.util.calendar.ZoneInfoFile");
        }

        @Override
        public void forceClose() {
          try {
            pipe.source().close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          closed.complete(true);
        }
      });
      pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
      assertThat(closed.get(5, TimeUnit.SECONDS)).isTrue();
      loop.execute(() -> {
        throw new OutOfMemoryError("a task's");
      });
      loop.schedule(Duration.ofMillis(1), () -> {
        throw new StackOverflowError("a timer's");
      });
      CompletableFuture<Boolean> later = new CompletableFuture<>();
      loop.schedule(Duration.ofMillis(20), () -> later.complete(loop.inEventLoop()));
      assertThat(later.get(5, TimeUnit.SECONDS)).as("a timer after the failures ran").isTrue();
      assertThat(loop.call(() -> "alive").get(5, TimeUnit.SECONDS)).isEqualTo("alive");
      assertThat(loop.terminated()).isNotDone();
      pipe.sink().close();
    }
  }

  @Test
  void anErrorInTheLoopsOwnWorkFailsTheServerLoudly() throws Exception {
    EventLoopGroup group = new EventLoopGroup(1, Duration.ZERO);
    NioServer server = NioServer.builder().bind("127.0.0.1", 0).group(group).handlers(info -> null).start();
    try {
      CompletableFuture<Void> serverClosed = server.closeFuture();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000); // it listens
      }
      Pipe pipe = Pipe.open();
      register(group.loop(0), pipe, new Selectable() {
        @Override
        public void ready(int readyOps) {
          throw new IllegalStateException("a channel failed");
        }

        @Override
        public void forceClose() {
          throw new OutOfMemoryError("Java heap space"); // the loop cannot even release it
        }
      });
      pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
      assertThatThrownBy(() -> serverClosed.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(OutOfMemoryError.class)
          .hasMessage("Java heap space");
      assertThat(group.loop(0).terminated()).isCompletedExceptionally();
      assertThatThrownBy(() -> {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        }
      }).as("the port no longer listens").isInstanceOf(ConnectException.class);
      pipe.sink().close();
    } finally {
      server.close();
      group.close();
    }
  }

  private static void register(EventLoop loop, Pipe pipe, Selectable handler) throws Exception {
    pipe.source().configureBlocking(false);
    loop.call(() -> {
      try {
        return loop.register(pipe.source(), SelectionKey.OP_READ, handler);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(5, TimeUnit.SECONDS);
  }
}
