package dev.wsjava;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The streams of {@link WebSocket#sendBinaryStream()} and {@link WebSocket#sendTextWriter()}: one
 * message sent in fragments of {@link #CHUNK} bytes (or chars), each handed to the connection only
 * once the one before it was written to the socket. So a stream holds its own buffer and at most
 * one fragment in the outbound queue, whatever the message's size and however slow the peer: the
 * writing thread waits (TCP's flow control reaches it through the unwritten fragment).
 *
 * <p>Not thread-safe: one thread writes a stream.
 */
final class SendStreams {
  /** The bytes (or chars) a stream buffers before it sends them as one fragment. */
  static final int CHUNK = 256 * 1024;

  /** How long a fragment refused by a full queue waits before it asks again. */
  private static final long QUEUE_FULL_PAUSE_NANOS = 1_000_000;

  private SendStreams() {}

  /** Sends one fragment at a time, after the previous one was written. */
  private static final class Pacer {
    private final WebSocket ws;
    private final Buffer buffer;
    private final Function<Boolean, CompletableFuture<Void>> part;
    private CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    private boolean closed;

    /**
     * @param ws the connection
     * @param buffer the stream's buffer
     * @param part sends the buffer (flipped) as a fragment, final or not; copies it first
     */
    Pacer(WebSocket ws, Buffer buffer, Function<Boolean, CompletableFuture<Void>> part) {
      this.ws = ws;
      this.buffer = buffer;
      this.part = part;
    }

    /** Sends what is buffered as a fragment (not the end of the message). */
    void flush() throws IOException {
      checkOpen();
      if (buffer.position() > 0) {
        sendBuffered();
      }
    }

    void sendBuffered() throws IOException {
      buffer.flip();
      try {
        send(() -> part.apply(false));
      } finally {
        buffer.clear();
      }
    }

    /** Sends the rest as the final fragment and waits until it is written. */
    void close() throws IOException {
      if (closed) {
        return;
      }
      buffer.flip();
      finish(() -> part.apply(true));
    }

    void checkOpen() throws IOException {
      if (closed) {
        throw new IOException("the message stream is closed");
      }
    }

    /**
     * Waits for the fragment before to be written, then hands this one over; a queue filled by
     * other sends (the rule: past maxQueuedBytes a send fails) is waited out, not failed.
     */
    void send(Supplier<CompletableFuture<Void>> fragment) throws IOException {
      await(inFlight);
      while (true) {
        CompletableFuture<Void> f = fragment.get();
        if (f.isCompletedExceptionally() && causeOf(f) instanceof SendQueueFullException) {
          if (!ws.isOpen()) {
            throw new WebSocketClosedException(CloseCode.ABNORMAL, "closed while sending a stream");
          }
          LockSupport.parkNanos(QUEUE_FULL_PAUSE_NANOS);
          if (Thread.interrupted()) {
            throw new InterruptedIOException("interrupted while the send queue was full");
          }
          continue;
        }
        inFlight = f;
        return;
      }
    }

    void finish(Supplier<CompletableFuture<Void>> last) throws IOException {
      closed = true;
      send(last);
      await(inFlight);
    }

    private static Throwable causeOf(CompletableFuture<Void> f) {
      try {
        f.join();
        return null;
      } catch (RuntimeException e) {
        return e.getCause() != null ? e.getCause() : e;
      }
    }

    private static void await(CompletableFuture<Void> f) throws IOException {
      try {
        f.get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
          throw io;
        }
        throw new IOException("the send failed: " + cause, cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while a fragment was being written");
      }
    }
  }

  /** A binary message as an {@link OutputStream}. */
  static final class Binary extends OutputStream {
    private final Pacer pacer;
    private final ByteBuffer buffer = ByteBuffer.allocate(CHUNK);

    Binary(WebSocket ws) {
      this.pacer = new Pacer(ws, buffer, last -> ws.sendBinary(buffer, last));
    }

    @Override
    public void write(int b) throws IOException {
      pacer.checkOpen();
      if (!buffer.hasRemaining()) {
        pacer.sendBuffered();
      }
      buffer.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      pacer.checkOpen();
      while (len > 0) {
        if (!buffer.hasRemaining()) {
          pacer.sendBuffered();
        }
        int n = Math.min(len, buffer.remaining());
        buffer.put(b, off, n);
        off += n;
        len -= n;
      }
    }

    @Override
    public void flush() throws IOException {
      pacer.flush();
    }

    @Override
    public void close() throws IOException {
      pacer.close();
    }
  }

  /** A text message as a {@link Writer}; a surrogate pair may straddle two writes. */
  static final class Text extends Writer {
    private final Pacer pacer;
    private final CharBuffer buffer = CharBuffer.allocate(CHUNK / 4);

    Text(WebSocket ws) {
      this.pacer = new Pacer(ws, buffer, last -> ws.sendText(buffer, last));
    }

    @Override
    public void write(char[] c, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, c.length);
      write(CharBuffer.wrap(c, off, len));
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, s.length());
      write(CharBuffer.wrap(s, off, off + len));
    }

    private void write(CharBuffer chars) throws IOException {
      pacer.checkOpen();
      while (chars.hasRemaining()) {
        if (!buffer.hasRemaining()) {
          pacer.sendBuffered();
        }
        int n = Math.min(chars.remaining(), buffer.remaining());
        buffer.put(chars.slice(chars.position(), n));
        chars.position(chars.position() + n);
      }
    }

    @Override
    public void flush() throws IOException {
      pacer.flush();
    }

    @Override
    public void close() throws IOException {
      pacer.close();
    }
  }
}
