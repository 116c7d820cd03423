package dev.wsjava.conformance;

import dev.wsjava.protocol.MaskKeySource;
import dev.wsjava.protocol.Role;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocket;

/**
 * One case's connection after the opening handshake: the {@link Peer} a script talks to, a reader
 * thread that records everything the peer sends (and answers its pings and its close as RFC 6455
 * §5.5 asks), and the closing phase that ends in an {@link Observation}.
 *
 * <p>Threads: the script thread sends and waits; the reader thread reads and records. Frames go
 * out whole under a write lock; the reader's answers queue up and go out between the script's
 * frames, so no answer lands inside a chopped frame and the reader never blocks on the lock.
 * A watchdog closes the socket when the case overruns, which also ends a write that blocks because
 * the peer stopped reading.
 */
final class Conversation implements Peer {
  private static final int LOG_LIMIT = 400;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Role role;
  private final Compression compression;
  private final Settings settings;
  private final long start = System.nanoTime();
  private final long deadline;
  private final Duration closeTimeout;
  private final MaskKeySource keys = new MaskKeySource();

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ConcurrentLinkedQueue<Frame> replies = new ConcurrentLinkedQueue<>();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private final Inbound inbound;
  private final List<FrameRecord> log = new ArrayList<>();
  private int logOmitted;
  private boolean peerClosedFirst;
  private boolean eof;
  private boolean readerStopped;
  private boolean suiteSentClose;
  private boolean answerPending;
  private Integer suiteCloseCode;
  private boolean late;
  private boolean tcpLeftOpen;
  private String timeout;
  private boolean writeFailed;
  private volatile boolean closing;

  private final Thread reader;
  private final Thread watchdog;

  Conversation(
      Socket socket, InputStream in, OutputStream out, Role role, Compression compression,
      Settings settings, Duration scriptTimeout) {
    this.socket = socket;
    this.in = in;
    this.out = out;
    this.role = role;
    this.compression = compression;
    this.settings = settings;
    this.deadline = start + settings.scaled(scriptTimeout).toNanos();
    this.closeTimeout = settings.scaled(settings.closeTimeout());
    this.inbound = new Inbound(role, compression, settings.maxMessage());
    Duration fuse = Duration.ofNanos(deadline - start)
        .plus(closeTimeout.multipliedBy(3)).plusSeconds(1);
    reader = Thread.ofVirtual().name("conformance-reader").start(this::readLoop);
    watchdog = Thread.ofVirtual().name("conformance-watchdog").start(() -> watch(fuse));
  }

  @Override
  public Role role() {
    return role;
  }

  @Override
  public Compression deflate() {
    return compression;
  }

  @Override
  public void send(Frame frame) {
    send(frame, 0, Duration.ZERO);
  }

  @Override
  public void send(Frame frame, int chop, Duration pause) {
    boolean masked = masked(frame);
    byte[] bytes = Frames.encode(frame, masked, nextKey());
    String note = chop > 0 && chop < bytes.length ? "in " + chop + "-byte writes" : "";
    write(bytes, chop, pause, FrameRecord.of(true, 0, frame, masked, note),
        frame.opcode() == Frame.CLOSE ? frame.payload() : null);
  }

  @Override
  public byte[] encode(Frame frame) {
    return Frames.encode(frame, masked(frame), nextKey());
  }

  @Override
  public void sendRaw(byte[] bytes, String what) {
    sendRaw(bytes, 0, Duration.ZERO, what);
  }

  @Override
  public void sendRaw(byte[] bytes, int chop, Duration pause, String what) {
    String note = chop > 0 && chop < bytes.length ? what + ", in " + chop + "-byte writes" : what;
    write(bytes, chop, pause, FrameRecord.raw(0, bytes, note), null);
  }

  private boolean masked(Frame f) {
    return switch (f.mask()) {
      case ROLE -> role.masksOutbound();
      case ON -> true;
      case OFF -> false;
    };
  }

  private int nextKey() {
    synchronized (keys) {
      return keys.nextKey();
    }
  }

  private void write(byte[] bytes, int chop, Duration pause, FrameRecord rec, byte[] close) {
    writeLock.lock();
    try {
      if (admit(rec, close)) {
        writeOut(bytes, chop, pause);
      }
    } catch (IOException e) {
      writeFailed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      writeLock.unlock();
    }
    drainReplies();
  }

  /** Logs a write and says whether it may go out: not once the peer closed or a write failed. */
  private boolean admit(FrameRecord rec, byte[] close) {
    lock.lock();
    try {
      if (writeFailed || peerGone()) {
        record(rec, "not sent: " + (writeFailed ? "an earlier write failed"
            : "the peer had already closed"));
        return false;
      }
      if (close != null) {
        noteSuiteClose(close);
      }
      record(rec, rec.note());
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void writeOut(byte[] bytes, int chop, Duration pause)
      throws IOException, InterruptedException {
    if (chop <= 0 || chop >= bytes.length) {
      out.write(bytes);
      out.flush();
      return;
    }
    for (int off = 0; off < bytes.length; off += chop) {
      out.write(bytes, off, Math.min(chop, bytes.length - off));
      out.flush();
      if (pause.isPositive() && off + chop < bytes.length) {
        Thread.sleep(pause);
      }
    }
  }

  private void writeFailed(IOException e) {
    lock.lock();
    try {
      writeFailed = true;
      if (!closing) {
        record(FrameRecord.raw(0, new byte[0], "write failed: " + e.getMessage()), null);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queues an answer (pong, close) from the reader thread; it goes out between frames. */
  private void reply(Frame f) {
    replies.add(f);
    drainReplies();
  }

  private void drainReplies() {
    while (!replies.isEmpty() && writeLock.tryLock()) {
      try {
        Frame f;
        while ((f = replies.poll()) != null) {
          writeReply(f);
        }
      } finally {
        writeLock.unlock();
      }
    }
  }

  private void writeReply(Frame f) {
    boolean masked = masked(f);
    boolean isClose = f.opcode() == Frame.CLOSE;
    lock.lock();
    try {
      // Nothing goes out after the suite's close, except the close answer itself (counted as
      // sent when it was decided on).
      if (writeFailed || closing || (!isClose && suiteSentClose)) {
        answerPending &= !isClose;
        changed.signalAll();
        return;
      }
      record(FrameRecord.of(true, 0, f, masked, "answer"), "answer");
    } finally {
      lock.unlock();
    }
    try {
      out.write(Frames.encode(f, masked, nextKey()));
      out.flush();
    } catch (IOException e) {
      writeFailed(e);
    }
    if (isClose) {
      lock.lock();
      try {
        answerPending = false;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void noteSuiteClose(byte[] payload) {
    if (!suiteSentClose) {
      suiteSentClose = true;
      suiteCloseCode = payload.length >= 2 ? ((payload[0] & 0xFF) << 8 | (payload[1] & 0xFF)) : 1005;
    }
  }

  private void record(FrameRecord r, String note) {
    if (log.size() >= LOG_LIMIT) {
      logOmitted++;
      return;
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    log.add(new FrameRecord(r.out(), ms, r.opcode(), r.fin(), r.rsv(), r.masked(), r.length(),
        r.head(), note == null ? r.note() : note));
  }

  // ---- waiting ----

  private boolean peerGone() {
    return inbound.closeCode() != null || eof || readerStopped;
  }

  @Override
  public boolean closed() {
    lock.lock();
    try {
      return peerGone();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean awaitMessages(int count) throws InterruptedException {
    return await(() -> inbound.messages().size() >= count,
        () -> count + " message(s) back, got " + inbound.messages().size());
  }

  @Override
  public boolean awaitPongs(int count) throws InterruptedException {
    return await(() -> inbound.pongs().size() >= count,
        () -> count + " pong(s), got " + inbound.pongs().size());
  }

  @Override
  public boolean awaitPong(byte[] payload) throws InterruptedException {
    return await(() -> inbound.pongs().stream().anyMatch(p -> Arrays.equals(p, payload)),
        () -> "a pong of " + DataMessage.hexHead(payload, 8) + ", got "
            + inbound.pongs().size() + " pong(s)");
  }

  private boolean await(BooleanSupplier done, Supplier<String> what)
      throws InterruptedException {
    lock.lock();
    try {
      while (!done.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (peerGone()) {
          return false;
        }
        if (left <= 0) {
          if (timeout == null) {
            timeout = what.get() + " within "
                + TimeUnit.NANOSECONDS.toMillis(deadline - start) + " ms";
          }
          return false;
        }
        changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the peer is gone or {@code until} (System.nanoTime) passed. */
  private boolean awaitGone(long until) throws InterruptedException {
    lock.lock();
    try {
      long left;
      while (!peerGone() && (left = until - System.nanoTime()) > 0) {
        changed.awaitNanos(left);
      }
      return peerGone();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean checkpoint() throws InterruptedException {
    if (awaitGone(System.nanoTime() + settings.failFastWait().toNanos())) {
      return true;
    }
    lock.lock();
    try {
      late = true;
      return peerGone();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void pause(Duration d) throws InterruptedException {
    awaitGone(System.nanoTime() + d.toNanos());
  }

  // ---- closing ----

  /**
   * Ends the case: closes as the rule says (or waits for the peer to fail), waits for TCP to
   * close, and returns what was seen.
   */
  Observation finish(Expect.CloseRule rule) throws InterruptedException {
    boolean sendClose;
    lock.lock();
    try {
      sendClose = !peerGone() && !suiteSentClose && !Boolean.TRUE.equals(rule.peerFirst());
    } finally {
      lock.unlock();
    }
    if (sendClose) {
      send(Frame.close(1000, ""));
    }
    long closeBy = System.nanoTime() + closeTimeout.toNanos();
    if (!awaitGone(closeBy)) {
      lock.lock();
      try {
        if (timeout == null) {
          timeout = (Boolean.TRUE.equals(rule.peerFirst()) && !suiteSentClose
              ? "the peer to fail the connection" : "the peer's close frame") + " within "
              + closeTimeout.toMillis() + " ms";
        }
      } finally {
        lock.unlock();
      }
    }
    closeTcp();
    lock.lock();
    try {
      Integer code = inbound.closeCode();
      return new Observation(inbound.messages(), inbound.pongs(), inbound.violations(), code,
          inbound.closeReason(), peerClosedFirst, eof && code == null,
          late && (code != null || eof), timeout, tcpLeftOpen, suiteCloseCode);
    } finally {
      lock.unlock();
    }
  }

  private void closeTcp() throws InterruptedException {
    boolean handshakeDone;
    lock.lock();
    try {
      long until = System.nanoTime() + closeTimeout.toNanos();
      long left;
      while (answerPending && (left = until - System.nanoTime()) > 0) {
        changed.awaitNanos(left);
      }
      handshakeDone = inbound.closeCode() != null && suiteSentClose && !writeFailed;
    } finally {
      lock.unlock();
    }
    if (handshakeDone) {
      if (role == Role.CLIENT) {
        // §7.1.1: the server closes TCP first; a client waits for it.
        if (!awaitEof(System.nanoTime() + closeTimeout.toNanos())) {
          lock.lock();
          try {
            tcpLeftOpen = true;
          } finally {
            lock.unlock();
          }
        }
      } else if (!(socket instanceof SSLSocket)) {
        // As server: close our half first, then give the client a moment to close its own, so
        // that our close frame is not lost to a reset.
        try {
          socket.shutdownOutput();
        } catch (IOException ignored) {
          // already closed
        }
        awaitEof(System.nanoTime() + Math.min(closeTimeout.toNanos(), 1_000_000_000L));
      }
    }
    closing = true;
    closeQuietly();
    reader.join(Duration.ofSeconds(2));
    watchdog.interrupt();
  }

  private boolean awaitEof(long until) throws InterruptedException {
    lock.lock();
    try {
      long left;
      while (!eof && !readerStopped && (left = until - System.nanoTime()) > 0) {
        changed.awaitNanos(left);
      }
      return eof || readerStopped;
    } finally {
      lock.unlock();
    }
  }

  private void closeQuietly() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // nothing left to do
    }
  }

  private void watch(Duration fuse) {
    try {
      Thread.sleep(fuse);
    } catch (InterruptedException e) {
      return;
    }
    lock.lock();
    try {
      if (timeout == null) {
        timeout = "the case to end within " + fuse.toMillis() + " ms (the connection was cut)";
      }
    } finally {
      lock.unlock();
    }
    closing = true;
    closeQuietly();
  }

  /** The frame log, and how many entries did not fit. */
  List<FrameRecord> log() {
    lock.lock();
    try {
      return List.copyOf(log);
    } finally {
      lock.unlock();
    }
  }

  int logOmitted() {
    lock.lock();
    try {
      return logOmitted;
    } finally {
      lock.unlock();
    }
  }

  // ---- reading ----

  private void readLoop() {
    FrameReader frames = new FrameReader(in, settings.maxMessage());
    boolean peerEnded = false;
    try {
      WireFrame f;
      while ((f = frames.next()) != null) {
        onFrame(f);
      }
      peerEnded = true;
    } catch (FrameReader.OversizeException e) {
      lock.lock();
      try {
        inbound.violation(e.getMessage());
      } finally {
        lock.unlock();
      }
      closing = true;
      closeQuietly();
    } catch (EOFException e) {
      peerEnded = true;
      note(e.getMessage());
    } catch (IOException e) {
      peerEnded = !closing; // a reset by the peer, unless the suite closed the socket itself
    }
    lock.lock();
    try {
      eof = peerEnded && !closing;
      readerStopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void note(String what) {
    lock.lock();
    try {
      record(new FrameRecord(false, 0, -1, false, 0, false, 0, "", what), what);
    } finally {
      lock.unlock();
    }
  }

  private void onFrame(WireFrame f) {
    Frame answer;
    lock.lock();
    try {
      record(FrameRecord.of(false, 0, f, ""), "");
      boolean closedBefore = inbound.closeCode() != null;
      answer = inbound.accept(f);
      if (!closedBefore && inbound.closeCode() != null) {
        peerClosedFirst = !suiteSentClose;
        if (suiteSentClose) {
          answer = null;
        } else {
          // §5.5.1: answer with a close; it counts as sent from now on.
          noteSuiteClose(answer.payload());
          answerPending = true;
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (answer != null) {
      reply(answer);
    }
  }
}
