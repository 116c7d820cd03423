package dev.wsjava.jakarta.internal;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** The asynchronous remote of a session: wsjava's sends return futures already. Thread-safe. */
final class AsyncRemote implements RemoteEndpoint.Async {
  private final JSession s;
  private volatile long sendTimeout;
  private volatile boolean batching;

  AsyncRemote(JSession s) {
    this.s = s;
  }

  @Override
  public long getSendTimeout() {
    return sendTimeout;
  }

  @Override
  public void setSendTimeout(long milliseconds) {
    sendTimeout = milliseconds;
  }

  @Override
  public void sendText(String text, SendHandler handler) {
    complete(sendText(text), handler);
  }

  @Override
  public Future<Void> sendText(String text) {
    check(text);
    return send(() -> s.ws.sendText(text));
  }

  @Override
  public Future<Void> sendBinary(ByteBuffer data) {
    check(data);
    return send(() -> s.ws.sendBinary(data));
  }

  @Override
  public void sendBinary(ByteBuffer data, SendHandler handler) {
    complete(sendBinary(data), handler);
  }

  @Override
  public Future<Void> sendObject(Object data) {
    check(data);
    try {
      return Sends.object(s, data);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void sendObject(Object data, SendHandler handler) {
    complete(sendObject(data), handler);
  }

  private CompletableFuture<Void> send(java.util.function.Supplier<CompletableFuture<Void>> send) {
    if (s.ws == null) {
      throw new IllegalStateException("the session is not open yet");
    }
    try {
      return send.get();
    } catch (IllegalStateException e) {
      return CompletableFuture.failedFuture(new IOException(e.getMessage(), e));
    }
  }

  private void complete(Future<Void> f, SendHandler handler) {
    if (handler == null) {
      throw new IllegalArgumentException("the SendHandler is null");
    }
    ((CompletableFuture<Void>) f)
        .whenComplete(
            (v, e) ->
                handler.onResult(
                    e == null
                        ? new SendResult(s)
                        : new SendResult(
                            s, e instanceof java.util.concurrent.CompletionException c && c.getCause() != null ? c.getCause() : e)));
  }

  @Override
  public void setBatchingAllowed(boolean allowed) {
    batching = allowed;
  }

  @Override
  public boolean getBatchingAllowed() {
    return batching;
  }

  @Override
  public void flushBatch() {}

  @Override
  public void sendPing(ByteBuffer data) throws IOException {
    BasicRemote.ping(s, data, true);
  }

  @Override
  public void sendPong(ByteBuffer data) throws IOException {
    BasicRemote.ping(s, data, false);
  }

  private static void check(Object o) {
    if (o == null) {
      throw new IllegalArgumentException("cannot send null");
    }
  }
}
