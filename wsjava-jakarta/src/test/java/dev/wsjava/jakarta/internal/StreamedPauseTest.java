package dev.wsjava.jakarta.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wsjava.WebSocket;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.Reader;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The streamed handler's pause against a model of the NIO transport: a pause made on the
 * connection's thread (the test's, standing for the event loop) applies at once, a resume from the
 * handler's thread is queued and applied when the "loop" runs its tasks, after whatever the loop
 * did meanwhile. Each pause on the loop thread takes 50 ms, which opens the window in which the
 * handler takes the last piece before the loop has marked the message's end: a resume it decided
 * then must not lift the pause that holds the next message back while the handler runs.
 */
@Timeout(30)
class StreamedPauseTest {

  /** The connection's pause flag, as NIO applies it. */
  static final class Socket {
    final Thread loop = Thread.currentThread();
    final BlockingQueue<Boolean> tasks = new LinkedBlockingQueue<>(); // queued setPaused(STREAM, x)
    volatile boolean paused;

    WebSocket proxy() {
      return (WebSocket) Proxy.newProxyInstance(
          WebSocket.class.getClassLoader(),
          new Class<?>[] {WebSocket.class},
          (p, m, args) -> {
            switch (m.getName()) {
              case "pauseReading" -> set(true);
              case "resumeReading" -> set(false);
              case "hashCode" -> {
                return System.identityHashCode(p);
              }
              case "equals" -> {
                return p == args[0];
              }
              default -> {}
            }
            Class<?> r = m.getReturnType();
            if (r == boolean.class) {
              return Boolean.FALSE;
            }
            if (r == int.class) {
              return 0;
            }
            return r == long.class ? (Object) 0L : null;
          });
    }

    private void set(boolean pause) throws InterruptedException {
      if (Thread.currentThread() == loop) {
        if (pause) {
          Thread.sleep(50);
        }
        paused = pause;
      } else {
        tasks.add(pause);
      }
    }

    /** Runs the tasks queued so far, in order. */
    void runTasks() {
      for (Boolean b; (b = tasks.poll()) != null; ) {
        paused = b;
      }
    }

    /** Waits (bounded) for a task, then runs it and the rest. */
    void awaitTask() throws InterruptedException {
      Boolean b = tasks.poll(10, TimeUnit.SECONDS);
      assertNotNull(b, "no pause or resume came from the handler's thread");
      paused = b;
      runTasks();
    }

    /**
     * Runs tasks as they come until the flag is down, for at most ten seconds: the handler's
     * return (which may lift the pause) runs after the handler's own code, on its thread.
     */
    boolean awaitReading() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      runTasks();
      while (paused && System.nanoTime() < deadline) {
        Boolean b = tasks.poll(10, TimeUnit.MILLISECONDS);
        if (b != null) {
          paused = b;
          runTasks();
        }
      }
      return !paused;
    }
  }

  @Test
  void theLastPieceTakenBeforeTheEndDoesNotLiftThePauseWhileTheHandlerRuns() throws Exception {
    Socket socket = new Socket();
    WebSocket ws = socket.proxy();
    CountDownLatch readAll = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    StringBuilder got = new StringBuilder();
    Endpoint endpoint = new Endpoint() {
      @Override
      public void onOpen(Session session, EndpointConfig config) {
        session.addMessageHandler(Reader.class, in -> {
          try {
            char[] buf = new char[64];
            for (int n; (n = in.read(buf)) > 0; ) {
              got.append(buf, 0, n);
            }
            readAll.countDown();
            release.await(); // a slow handler: it runs on after reading the whole message
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        });
      }
    };
    JSession session = open(endpoint, ws);

    session.onMessagePart(ws, true, utf8("first-"), false);
    assertTrue(socket.paused, "paused on the loop thread, before the next event");
    socket.awaitTask(); // the handler took the piece and resumed
    assertFalse(socket.paused);

    session.onMessagePart(ws, true, utf8("part"), true); // the last piece and the end, one read
    assertTrue(readAll.await(10, TimeUnit.SECONDS));
    socket.runTasks();
    assertTrue(socket.paused, "the next message would start while the handler still runs");

    release.countDown();
    socket.awaitTask(); // the handler returned
    assertFalse(socket.paused, "reading goes on once the handler returned");
    assertEquals("first-part", got.toString());
  }

  @Test
  void aHandlerThatReturnsBeforeTheEndLeavesTheConnectionReading() throws Exception {
    Socket socket = new Socket();
    WebSocket ws = socket.proxy();
    CountDownLatch returned = new CountDownLatch(1);
    Endpoint endpoint = new Endpoint() {
      @Override
      public void onOpen(Session session, EndpointConfig config) {
        session.addMessageHandler(Reader.class, in -> {
          try {
            in.read(new char[3]); // takes a little of the first piece, then returns
          } catch (Exception e) {
            throw new RuntimeException(e);
          } finally {
            returned.countDown();
          }
        });
      }
    };
    JSession session = open(endpoint, ws);

    session.onMessagePart(ws, true, utf8("abcdef"), false);
    assertTrue(returned.await(10, TimeUnit.SECONDS));
    socket.awaitTask(); // the handler's return resumed reading
    assertFalse(socket.paused);
    session.onMessagePart(ws, true, utf8("ghi"), false);
    session.onMessagePart(ws, true, utf8("jkl"), true); // dropped: nobody reads them
    // The handler's thread may still be between the handler's return and lifting the pause that
    // "ghi" took: wait (bounded) for that, not for a count of tasks.
    assertTrue(socket.awaitReading(),
        "the end of a message whose handler returned must not pause forever");
  }

  private static JSession open(Endpoint endpoint, WebSocket ws) {
    ClientEndpointConfig config = ClientEndpointConfig.Builder.create().build();
    JSession session = new JSession(endpoint, config, null, ConcurrentHashMap.newKeySet(),
        URI.create("ws://127.0.0.1/x"), Map.of(), Map.of(), null, new HashMap<>(), List.of(),
        List.of(), false, 1 << 20, 1 << 20, 0);
    session.onOpen(ws);
    return session;
  }

  private static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }
}
