package dev.wsjava.jakarta.internal;

import dev.wsjava.SendQueueFullException;
import dev.wsjava.WebSocket;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The sending half shared by the basic and async remotes: the wsjava send, and how a blocking
 * send waits. A blocking send made inside an endpoint callback (on the connection's I/O thread)
 * returns once its bytes are queued, since its own bytes go out only after the callback returns;
 * elsewhere it waits until they are written, retrying while the outbound queue is full.
 */
final class Sends {
  /** A callback that has queued this much slows its peer down (flow control, not failure). */
  private static final long PAUSE_ABOVE = 1 << 20;
  /**
   * A callback's sends look at the outbound queue (which takes the connection's lock) once per
   * this many bytes queued, not at every send: a pause comes at most this much later.
   */
  static final int LOOK_EVERY = 64 * 1024;

  private Sends() {}

  static WebSocket socket(JSession s) throws IOException {
    WebSocket ws = s.ws;
    if (ws == null) {
      throw new IllegalStateException("the session is not open yet");
    }
    return ws;
  }

  /** Sends and, outside a callback, waits. */
  static void blocking(JSession s, Supplier<CompletableFuture<Void>> send) throws IOException {
    WebSocket ws = socket(s);
    if (JSession.inCallback()) {
      queued(s, ws, call(ws, send), LOOK_EVERY);
      return;
    }
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      CompletableFuture<Void> f = call(ws, send);
      try {
        await(f);
        return;
      } catch (IOException e) {
        if (!(e.getCause() instanceof SendQueueFullException) || System.nanoTime() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while the send queue was full");
      }
    }
  }

  /**
   * Sends one part of a message ({@code text} or {@code binary}) and, outside a callback, waits. A
   * part that is both the first and the last goes out as a whole message: the same frame on the
   * wire, without the fragment bookkeeping (a partial echo sends every one-piece message this
   * way); inside a callback with no capturing lambda, as the whole-message sends of the basic
   * remote.
   */
  static void part(JSession s, String text, ByteBuffer binary, boolean last) throws IOException {
    WebSocket ws = socket(s);
    boolean whole = last && !s.sendingParts;
    if (!whole) {
      s.sendingParts = !last; // unchanged (false) for a whole message: no volatile write
    }
    if (JSession.inCallback()) {
      int size = text != null ? text.length() : binary.remaining();
      CompletableFuture<Void> f;
      try {
        f = text != null ? (whole ? ws.sendText(text) : ws.sendText(text, last))
            : (whole ? ws.sendBinary(binary) : ws.sendBinary(binary, last));
      } catch (IllegalStateException e) {
        throw new IOException(e.getMessage(), e);
      }
      queued(s, ws, f, size);
      return;
    }
    if (text != null) {
      blocking(s, whole ? () -> ws.sendText(text) : () -> ws.sendText(text, last));
    } else {
      blocking(s, whole ? () -> ws.sendBinary(binary) : () -> ws.sendBinary(binary, last));
    }
  }

  /**
   * A blocking send made inside a callback: it returns once queued (its failure, if already
   * known, is thrown), and a callback that has queued much slows its peer's reading.
   *
   * @param size the send's size (chars or bytes), or {@link #LOOK_EVERY} to look at the queue now
   */
  static void queued(JSession s, WebSocket ws, CompletableFuture<Void> f, int size)
      throws IOException {
    if (f.isCompletedExceptionally()) {
      await(f);
    }
    if ((s.queuedSinceLook += size) >= LOOK_EVERY) {
      s.queuedSinceLook = 0;
      if (ws.queuedBytes() > PAUSE_ABOVE) {
        ws.pauseReadingUntilSent();
      }
    }
  }

  private static CompletableFuture<Void> call(WebSocket ws, Supplier<CompletableFuture<Void>> send)
      throws IOException {
    try {
      return send.get();
    } catch (IllegalStateException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  static void await(CompletableFuture<Void> f) throws IOException {
    try {
      f.get();
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while sending");
    }
  }

  /** Sends an object: through the session's encoder for its class, or as text or binary. */
  static CompletableFuture<Void> object(JSession s, Object value) throws IOException, EncodeException {
    WebSocket ws = socket(s);
    if (value == null) {
      throw new IllegalArgumentException("cannot send null");
    }
    Encoder e = s.codecs() == null ? null : s.codecs().encoderFor(value.getClass());
    if (e instanceof Encoder.Text<?>) {
      return ws.sendText(Codecs.encodeText(e, value));
    }
    if (e instanceof Encoder.Binary<?>) {
      return ws.sendBinary(Codecs.encodeBinary(e, value));
    }
    if (e instanceof Encoder.TextStream<?>) {
      java.io.Writer w = new PartWriter(s);
      Codecs.encodeTextStream(e, value, w);
      w.close();
      return CompletableFuture.completedFuture(null);
    }
    if (e instanceof Encoder.BinaryStream<?>) {
      java.io.OutputStream o = new PartStream(s);
      Codecs.encodeBinaryStream(e, value, o);
      o.close();
      return CompletableFuture.completedFuture(null);
    }
    if (value instanceof String str) {
      return ws.sendText(str);
    }
    if (value instanceof ByteBuffer b) {
      return ws.sendBinary(b);
    }
    if (value instanceof byte[] b) {
      return ws.sendBinary(b);
    }
    if (Sink.isPrimitiveOrBox(value.getClass())) {
      return ws.sendText(String.valueOf(value));
    }
    throw new EncodeException(value, "no encoder for " + value.getClass().getName());
  }

  /** A Writer that sends a text message in parts: each flush of its buffer a fragment. */
  static final class PartWriter extends java.io.Writer {
    private final JSession s;
    private final StringBuilder buffer = new StringBuilder();
    private boolean closed;

    PartWriter(JSession s) {
      this.s = s;
    }

    @Override
    public void write(char[] c, int off, int len) throws IOException {
      if (closed) {
        throw new IOException("the writer is closed");
      }
      buffer.append(c, off, len);
      if (buffer.length() >= 8192) {
        String part = buffer.toString();
        buffer.setLength(0);
        part(s, part, null, false);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        part(s, buffer.toString(), null, true);
      }
    }
  }

  /** An OutputStream that sends a binary message in parts. */
  static final class PartStream extends java.io.OutputStream {
    private final JSession s;
    private final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
    private boolean closed;

    PartStream(JSession s) {
      this.s = s;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (closed) {
        throw new IOException("the stream is closed");
      }
      buffer.write(b, off, len);
      if (buffer.size() >= 8192) {
        ByteBuffer part = ByteBuffer.wrap(buffer.toByteArray());
        buffer.reset();
        part(s, null, part, false);
      }
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        part(s, null, ByteBuffer.wrap(buffer.toByteArray()), true);
      }
    }
  }
}
