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
 * <p>The pause is one flag on the connection, not a count, and a resume from the handler's thread
 * may be applied after a pause the I/O thread made later (on NIO it runs as a task on the loop).
 * So this class owns the flag for the whole message, and every pause and resume is decided under
 * its lock: the I/O thread pauses only when the flag is not already held, and the handler's thread
 * resumes only what it found held. The last piece and the message's end are one step ({@link
 * #offer} with {@code last}): a reader that takes the last piece already knows the message ended
 * and leaves the pause in place, so the connection stays paused until the handler returns ({@link
 * #finish}) and the next message cannot start under it. The connection reads nothing while the
 * flag is held, so a resume always lands before the next pause is asked for.
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
  private boolean ended; // the last piece has been offered
  private boolean paused; // this message holds the connection's pause
  private boolean discarding; // the handler closed the stream: the rest of the message is dropped
  private boolean finished; // the handler returned
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
      if (position == limit && paused && !ended) {
        // Once the message has ended, the connection stays paused until the handler returns
        // (one message at a time): finish() resumes it then.
        paused = false;
        resume = true;
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

  /**
   * The handler closed the stream: the rest of the message is dropped and the connection reads on
   * to its end, which it then keeps paused until the handler returns.
   */
  @Override
  public void close() {
    boolean resume;
    lock.lock();
    try {
      discarding = true;
      position = limit = 0;
      resume = paused && !ended;
      if (resume) {
        paused = false;
      }
    } finally {
      lock.unlock();
    }
    if (resume) {
      ws.resumeReading();
    }
  }

  /**
   * On the handler's thread, once the handler returned: lifts the message's pause, if it holds
   * it; whatever of the message is still to come is dropped without pausing.
   */
  void finish() {
    boolean resume;
    lock.lock();
    try {
      finished = true;
      discarding = true;
      position = limit = 0;
      resume = paused;
      paused = false;
    } finally {
      lock.unlock();
    }
    if (resume) {
      ws.resumeReading();
    }
  }

  /**
   * On the I/O thread, inside {@code onMessagePart}: takes a copy of a piece and pauses the
   * connection until it is read; with {@code last} the message ends too, and the pause then holds
   * until the handler returns.
   *
   * @param piece the piece's bytes
   * @param last whether it is the message's last piece
   */
  void offer(ByteBuffer piece, boolean last) {
    lock.lock();
    try {
      if (finished) {
        return; // the handler returned: the rest of the message goes, the connection reads on
      }
      int n = discarding ? 0 : piece.remaining();
      if (n > 0) {
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
      }
      ended = last;
      // Before the reader can see the piece or the end, so its resume cannot come first. On the
      // I/O thread the pause takes effect before the next event.
      if ((n > 0 || last) && !paused) {
        paused = true;
        ws.pauseReading();
      }
      if (n > 0 || last) {
        changed.signalAll();
      }
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
