package dev.wsjava;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One received message as a stream of its bytes ({@link WebSocket#receiveStream()}): it yields
 * the bytes as they arrive and ends with the message. The connection hands it one piece at a time
 * (at most a read, or an inflated chunk) and reads no more from its socket until that piece has
 * been read from here, so a message of any size costs constant memory and a slow reader slows
 * its peer through TCP.
 *
 * <p>Text messages are UTF-8, checked as they arrive: an invalid byte closes the connection with
 * 1007 and the next read throws. When the connection closes before the message ends, reads throw
 * {@link WebSocketClosedException} with the close code.
 *
 * <p>Thread safety: one thread reads it; the connection's I/O thread fills it.
 */
public final class MessageStream extends InputStream {
  private final boolean text;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Stops the connection reading while a piece waits here (on the I/O thread). */
  private final Runnable pause;
  /** Lets the connection read again once the piece in hand has been taken. */
  private final Runnable resume;

  // Guarded by lock.
  private byte[] buffer = new byte[0];
  private int position;
  private int limit;
  private boolean ended;
  private boolean holding; // the connection waits for this piece to be read: resume when it is
  private boolean discarding; // closed by the reader: the rest of the message is skipped
  private WebSocketClosedException failure;

  MessageStream(boolean text, Runnable pause, Runnable resume) {
    this.text = text;
    this.pause = pause;
    this.resume = resume;
  }

  /**
   * Returns whether the message is text (UTF-8) rather than binary.
   *
   * @return true for a text message
   */
  public boolean isText() {
    return text;
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
    boolean resumeNow = false;
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
        resumeNow = true;
      }
    } finally {
      lock.unlock();
    }
    if (resumeNow) {
      resume.run();
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

  /** Skips the rest of the message: the connection reads on and drops its bytes. */
  @Override
  public void close() {
    boolean resumeNow;
    lock.lock();
    try {
      discarding = true;
      position = limit = 0;
      buffer = new byte[0];
      resumeNow = holding;
      holding = false;
    } finally {
      lock.unlock();
    }
    if (resumeNow) {
      resume.run();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The connection's side, on its I/O thread

  /**
   * Takes a piece of the message and pauses the connection until the reader has taken it (then
   * {@link #resume} runs once); drops it when the reader skips the rest.
   *
   * @param piece the bytes, not empty, valid only during the call; copied
   */
  void offer(ByteBuffer piece) {
    int n = piece.remaining();
    lock.lock();
    try {
      if (discarding) {
        return;
      }
      if (!holding) {
        pause.run(); // before the reader can see the piece, so its resume cannot come first
      }
      if (position == limit) {
        position = limit = 0;
      }
      if (limit + n > buffer.length) {
        // Pieces come one at a time (the connection waits for each), so this grows to the largest
        // piece, not the message: a read buffer, or an inflated chunk.
        byte[] grown = new byte[Math.max(limit + n, buffer.length)];
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

  /** The message ended: reads return -1 once its bytes are taken. */
  void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The connection closed before the message ended: reads throw once the bytes in hand are
   * taken.
   */
  void fail(WebSocketClosedException cause) {
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
