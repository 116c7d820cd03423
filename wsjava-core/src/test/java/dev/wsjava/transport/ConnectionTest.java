package dev.wsjava.transport;

import dev.wsjava.WebSocketClosedException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.Session;
import dev.wsjava.session.SessionConfig;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The transport-independent part of a connection, driven by a test transport that writes as many
 * bytes as each test says: send futures and the close future, which are made only when needed.
 */
class ConnectionTest {

  /** A transport whose socket takes exactly the bytes a test lets through. */
  static final class TestConnection extends Connection {
    private boolean socketOpen = true;

    TestConnection() {
      super(
          new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of()),
          new Handler(),
          ConnectionConfig.DEFAULTS,
          null);
    }

    /** Writes at most {@code max} queued bytes and completes the sends they finish. */
    long writeUpTo(long max) {
      long wrote = 0;
      lock().lock();
      try {
        ByteBuffer[] gather = new ByteBuffer[16];
        int n = gatherOutbound(gather);
        for (int i = 0; i < n && wrote < max; i++) {
          int take = (int) Math.min(gather[i].remaining(), max - wrote);
          gather[i].position(gather[i].position() + take);
          wrote += take;
        }
        written(wrote);
      } finally {
        lock().unlock();
      }
      completeWritten();
      return wrote;
    }

    @Override
    protected void setPaused(int reason, boolean paused) {}

    @Override
    public SocketAddress remoteAddress() {
      return null;
    }

    @Override
    public SocketAddress localAddress() {
      return null;
    }

    @Override
    protected void requestFlush() {}

    @Override
    protected void closeSocket() {
      if (socketOpen) {
        socketOpen = false;
        socketClosed();
      }
    }

    @Override
    protected void scheduleCloseTimeout(Duration timeout) {}
  }

  /** Events do not matter here (tests elsewhere override the ones that do). */
  static class Handler implements ConnectionHandler {
    @Override
    public void onOpen(Connection c) {}

    @Override
    public void onMessage(Connection c, Opcode type, ByteBuffer payload) {}

    @Override
    public void onPing(Connection c, ByteBuffer payload) {}

    @Override
    public void onPong(Connection c, ByteBuffer payload) {}

    @Override
    public void onError(Connection c, Throwable error) {}

    @Override
    public void onClose(Connection c, int code, String reason) {}

    @Override
    public void onWritable(Connection c) {}
  }

  @Test
  void sendFuturesCompleteInOrderAsTheirBytesAreWritten() {
    TestConnection c = new TestConnection();
    // Each is a 3-byte frame: a 2-byte header and one byte of payload.
    CompletableFuture<Void> a = c.sendText("a");
    CompletableFuture<Void> b = c.sendText("b");
    CompletableFuture<Void> d = c.sendText("d");
    assertThat(c.queuedBytes()).isEqualTo(9);
    assertThat(c.writeUpTo(4)).isEqualTo(4);
    assertThat(a).isCompleted();
    assertThat(b).isNotDone();
    assertThat(c.writeUpTo(2)).isEqualTo(2);
    assertThat(b).isCompleted();
    assertThat(d).isNotDone();
    assertThat(c.writeUpTo(100)).isEqualTo(3);
    assertThat(d).isCompleted();
    CompletableFuture<Void> e = c.sendText("e"); // the deque made by the first send is reused
    c.writeUpTo(100);
    assertThat(e).isCompleted();
  }

  @Test
  void sendsStillQueuedWhenTheSocketClosesFailInsteadOfHanging() {
    TestConnection c = new TestConnection();
    CompletableFuture<Void> a = c.sendText("a");
    CompletableFuture<Void> b = c.sendText("b");
    c.writeUpTo(3);
    c.abort();
    assertThat(a).isCompleted();
    assertThat(b).isCompletedExceptionally();
    assertThat(b.exceptionNow()).isInstanceOf(WebSocketClosedException.class);
  }

  @Test
  void theCloseFutureIsOneFutureMadeOnFirstAskAndCompletedByTheSocketClose() {
    TestConnection c = new TestConnection();
    CompletableFuture<Void> closed = c.closed();
    assertThat(c.closed()).isSameAs(closed);
    assertThat(closed).isNotDone();
    c.abort();
    assertThat(closed).isCompleted();
    assertThat(c.closed()).isSameAs(closed);
  }

  @Test
  void theCloseFutureAskedForOnlyAfterTheSocketClosedIsAlreadyComplete() {
    TestConnection c = new TestConnection();
    c.abort();
    assertThat(c.closed()).isCompleted();
    assertThat(c.close(1000, "late")).isCompleted();
  }

  @Test
  void aConnectionThatNeverSentFailsNothingWhenItCloses() {
    TestConnection c = new TestConnection();
    c.abort();
    assertThat(c.queuedBytes()).isZero();
    assertThat(c.isOpen()).isFalse();
  }
}
