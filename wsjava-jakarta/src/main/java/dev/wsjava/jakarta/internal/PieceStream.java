package dev.wsjava.jakarta.internal;

import dev.wsjava.WebSocket;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One streamed message as an {@link InputStream} for an {@code InputStream} or {@code Reader}
 * handler: the connection's I/O thread offers each piece it read and pauses the connection
 * ({@link WebSocket#pauseReading()}); the handler's thread reads it and resumes the connection
 * once the piece is taken. So the message is never assembled: one piece at a time is held, and a
 * slow handler slows its peer through TCP.
 *
 * <p>Thread safety: one reader thread; the I/O thread fills it.
 */
final class PieceStream extends InputStream {
  private final WebSocket ws;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private byte[] buffer = new byte[0];
  private int position;
  private int limit;
  private boolean ended;
  private boolean holding; // the connection is paused for the piece in hand
  private boolean discarding; // the handler is done: the rest of the message is dropped
  private IOException failure;

  PieceStream(WebSocket ws) {
    this.ws = ws;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    boolean resume = false;
    int n;
    lock.lock();
    try {
      while (position == limit && !ended && failure == null) {
        try {
          changed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for message bytes");
        }
      }
      if (position == limit) {
        if (failure != null) {
          throw failure;
        }
        return -1;
      }
      n = Math.min(len, limit - position);
      System.arraycopy(buffer, position, b, off, n);
      position += n;
      if (position == limit && holding) {
        holding = false;
        // Once the message has ended, the connection stays paused until the handler returns
        // (one message at a time): the session resumes it then.
        resume = !ended;
      }
    } finally {
      lock.unlock();
    }
    if (resume) {
      ws.resumeReading();
    }
    return n;
  }

  @Override
  public int available() {
    lock.lock();
    try {
      return limit - position;
    } finally {
      lock.unlock();
    }
  }

  /** The handler is done with the message: the rest is dropped, the connection reads on. */
  @Override
  public void close() {
    boolean resume;
    lock.lock();
    try {
      discarding = true;
      position = limit = 0;
      resume = holding && !ended;
      holding = false;
    } finally {
      lock.unlock();
    }
    if (resume) {
      ws.resumeReading();
    }
  }

  /** On the I/O thread: takes a copy of a piece and pauses the connection until it is read. */
  void offer(ByteBuffer piece) {
    int n = piece.remaining();
    if (n == 0) {
      return;
    }
    lock.lock();
    try {
      if (discarding) {
        return;
      }
      if (!holding) {
        ws.pauseReading(); // before the reader sees the piece, so its resume cannot come first
      }
      if (position == limit) {
        position = limit = 0;
      }
      if (limit + n > buffer.length) {
        byte[] grown = new byte[Math.max(limit - position + n, 2 * buffer.length)];
        System.arraycopy(buffer, position, grown, 0, limit - position);
        limit -= position;
        position = 0;
        buffer = grown;
      }
      piece.get(buffer, limit, n);
      limit += n;
      holding = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** On the I/O thread: the message ended. */
  void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The connection closed inside the message: reads throw once the bytes in hand are taken. */
  void fail(IOException cause) {
    lock.lock();
    try {
      if (!ended) {
        failure = cause;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }
}
