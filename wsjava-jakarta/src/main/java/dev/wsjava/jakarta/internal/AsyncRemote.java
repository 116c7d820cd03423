package dev.wsjava.jakarta.internal;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    check(text);
    complete(send(() -> s.ws.sendText(text)), handler);
  }

  @Override
  public Future<Void> sendText(String text) {
    check(text);
    return new Sent(s, send(() -> s.ws.sendText(text)));
  }

  @Override
  public Future<Void> sendBinary(ByteBuffer data) {
    check(data);
    return new Sent(s, send(() -> s.ws.sendBinary(data)));
  }

  @Override
  public void sendBinary(ByteBuffer data, SendHandler handler) {
    check(data);
    complete(send(() -> s.ws.sendBinary(data)), handler);
  }

  @Override
  public Future<Void> sendObject(Object data) {
    return new Sent(s, object(data));
  }

  @Override
  public void sendObject(Object data, SendHandler handler) {
    complete(object(data), handler);
  }

  private CompletableFuture<Void> object(Object data) {
    check(data);
    try {
      return Sends.object(s, data);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The Future of an async send. Waiting on it inside an endpoint callback (on the connection's
   * I/O thread, which writes the bytes only after the callback returns) ends once the message is
   * queued, as a blocking send there does (see {@link Sends}), instead of waiting for ever;
   * anywhere else it waits until the bytes are written.
   */
  private record Sent(JSession s, CompletableFuture<Void> f) implements Future<Void> {
    @Override
    public Void get() throws InterruptedException, ExecutionException {
      if (!f.isDone() && JSession.inCallback()) {
        return queued();
      }
      return f.get();
    }

    @Override
    public Void get(long timeout, TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
      if (!f.isDone() && JSession.inCallback()) {
        return queued();
      }
      return f.get(timeout, unit);
    }

    private Void queued() throws ExecutionException {
      try {
        Sends.queued(s, s.ws, f, Sends.LOOK_EVERY);
        return null;
      } catch (IOException e) {
        throw new ExecutionException(e.getCause() == null ? e : e.getCause());
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return false; // a queued message is not taken back
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean isDone() {
      return f.isDone();
    }
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

  private void complete(CompletableFuture<Void> f, SendHandler handler) {
    if (handler == null) {
      throw new IllegalArgumentException("the SendHandler is null");
    }
    f.whenComplete(
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
