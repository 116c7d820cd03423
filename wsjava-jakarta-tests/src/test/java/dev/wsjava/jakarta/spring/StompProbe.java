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
  StompSession session;

  StompProbe() {
    StandardWebSocketClient ws = new StandardWebSocketClient(container);
    stomp = new WebSocketStompClient(ws);
    stomp.setMessageConverter(new StringMessageConverter());
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

  /** Subscribes; each message's payload goes to {@link #received}. Waits for the receipt. */
  void subscribe(String destination) throws Exception {
    StompHeaders headers = new StompHeaders();
    headers.setDestination(destination);
    headers.setReceipt("sub-" + destination);
    java.util.concurrent.CompletableFuture<Void> receipted = new java.util.concurrent
        .CompletableFuture<>();
    session.setAutoReceipt(false);
    StompSession.Subscription sub = session.subscribe(headers, new StompFrameHandler() {
      @Override
      public Type getPayloadType(StompHeaders h) {
        return String.class;
      }

      @Override
      public void handleFrame(StompHeaders h, Object payload) {
        received.add((String) payload);
      }
    });
    sub.addReceiptTask(() -> receipted.complete(null));
    sub.addReceiptLostTask(() -> receipted.completeExceptionally(
        new IllegalStateException("no RECEIPT for the subscription")));
    receipted.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** The next message, or null after the bound. */
  String next() throws InterruptedException {
    return received.poll(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    if (session != null && session.isConnected()) {
      session.disconnect();
    }
  }
}
