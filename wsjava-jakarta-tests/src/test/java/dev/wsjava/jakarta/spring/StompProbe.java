package dev.wsjava.jakarta.spring;

import dev.wsjava.WebSocketConfig;
import dev.wsjava.jakarta.internal.ClientContainer;
import java.lang.reflect.Type;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * Spring's STOMP client over Spring's {@link StandardWebSocketClient} over wsjava's Jakarta client
 * container: connects, subscribes, sends, and takes what arrives, every wait bounded.
 */
final class StompProbe implements AutoCloseable {
  static final long WAIT_SECONDS = 15;

  final ClientContainer container = new ClientContainer(WebSocketConfig.defaults());
  final WebSocketStompClient stomp;
  final BlockingQueue<String> received = new LinkedBlockingQueue<>();
  final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
  /** Spring tracks receipts with it (each subscription waits for its RECEIPT). */
  private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
  StompSession session;

  StompProbe() {
    StandardWebSocketClient ws = new StandardWebSocketClient(container);
    stomp = new WebSocketStompClient(ws);
    stomp.setMessageConverter(new StringMessageConverter());
    scheduler.setThreadNamePrefix("stomp-receipts-");
    scheduler.setDaemon(true);
    scheduler.initialize();
    stomp.setTaskScheduler(scheduler);
    stomp.setReceiptTimeLimit(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
  }

  /** Connects (with a login when {@code login} is not null) and returns the session. */
  StompSession connect(String url, String login, String passcode) throws Exception {
    StompHeaders connect = new StompHeaders();
    if (login != null) {
      connect.setLogin(login);
      connect.setPasscode(passcode);
    }
    session = stomp.connectAsync(url, new WebSocketHttpHeaders(), connect,
        new StompSessionHandlerAdapter() {
          @Override
          public void handleException(StompSession s, org.springframework.messaging.simp.stomp
              .StompCommand command, StompHeaders headers, byte[] payload, Throwable exception) {
            errors.add(exception);
          }

          @Override
          public void handleTransportError(StompSession s, Throwable exception) {
            errors.add(exception);
          }
        }).get(WAIT_SECONDS, TimeUnit.SECONDS);
    return session;
  }

  /**
   * Subscribes with no receipt (Spring's simple broker sends none) and waits until the
   * subscription is live: sends "ready-N" to the destination every 200 ms until one comes back,
   * then drops what came back.
   */
  void subscribeAndProbe(String destination) throws Exception {
    session.subscribe(destination, handler());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    for (int n = 0; System.nanoTime() < deadline; n++) {
      session.send(destination, "ready-" + n);
      String got = received.poll(200, TimeUnit.MILLISECONDS);
      if (got != null && got.startsWith("ready-")) {
        Thread.sleep(300);
        received.removeIf(m -> m.startsWith("ready-"));
        return;
      }
    }
    throw new IllegalStateException("the subscription to " + destination + " never delivered");
  }

  private StompFrameHandler handler() {
    return new StompFrameHandler() {
      @Override
      public Type getPayloadType(StompHeaders h) {
        return String.class;
      }

      @Override
      public void handleFrame(StompHeaders h, Object payload) {
        received.add((String) payload);
      }
    };
  }

  /** Subscribes; each message's payload goes to {@link #received}. Waits for the receipt. */
  void subscribe(String destination) throws Exception {
    StompHeaders headers = new StompHeaders();
    headers.setDestination(destination);
    headers.setReceipt("sub-" + destination);
    java.util.concurrent.CompletableFuture<Void> receipted = new java.util.concurrent
        .CompletableFuture<>();
    session.setAutoReceipt(false);
    StompSession.Subscription sub = session.subscribe(headers, handler());
    sub.addReceiptTask(() -> receipted.complete(null));
    sub.addReceiptLostTask(() -> receipted.completeExceptionally(
        new IllegalStateException("no RECEIPT for the subscription")));
    receipted.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** The next message that is not a subscription probe, or null after the bound. */
  String next() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (true) {
      String m = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (m == null || !m.startsWith("ready-")) {
        return m;
      }
    }
  }

  @Override
  public void close() {
    try {
      if (session != null && session.isConnected()) {
        session.disconnect();
      }
    } finally {
      scheduler.shutdown();
    }
  }
}
