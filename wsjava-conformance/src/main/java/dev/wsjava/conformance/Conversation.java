package dev.wsjava.conformance;

import dev.wsjava.protocol.MaskKeySource;
import dev.wsjava.protocol.Role;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
import java.util.zip.DataFormatException;
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
  private static final int VIOLATION_LIMIT = 8;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Role role;
  private final Compression compression;
  private final Settings settings;
  private final long start = System.nanoTime();
  private final long deadline;
  private final MaskKeySource keys = new MaskKeySource();

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ConcurrentLinkedQueue<Frame> replies = new ConcurrentLinkedQueue<>();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private final List<DataMessage> messages = new ArrayList<>();
  private final List<byte[]> pongs = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private final List<FrameRecord> log = new ArrayList<>();
  private int logOmitted;
  private Integer peerCloseCode;
  private String peerCloseReason;
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

  // Reader thread only: the message being reassembled.
  private ByteArrayOutputStream partial;
  private boolean partialText;
  private boolean partialCompressed;

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
    Duration fuse = Duration.ofNanos(deadline - start)
        .plus(settings.closeTimeout().multipliedBy(3)).plusSeconds(1);
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
    return peerCloseCode != null || eof || readerStopped;
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
    return await(() -> messages.size() >= count,
        () -> count + " message(s) back, got " + messages.size());
  }

  @Override
  public boolean awaitPongs(int count) throws InterruptedException {
    return await(() -> pongs.size() >= count, () -> count + " pong(s), got " + pongs.size());
  }

  @Override
  public boolean awaitPong(byte[] payload) throws InterruptedException {
    return await(() -> pongs.stream().anyMatch(p -> Arrays.equals(p, payload)),
        () -> "a pong of " + DataMessage.hexHead(payload, 8) + ", got " + pongs.size() + " pong(s)");
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
    long closeBy = System.nanoTime() + settings.closeTimeout().toNanos();
    if (!awaitGone(closeBy)) {
      lock.lock();
      try {
        if (timeout == null) {
          timeout = (Boolean.TRUE.equals(rule.peerFirst()) && !suiteSentClose
              ? "the peer to fail the connection" : "the peer's close frame") + " within "
              + settings.closeTimeout().toMillis() + " ms";
        }
      } finally {
        lock.unlock();
      }
    }
    closeTcp();
    lock.lock();
    try {
      return new Observation(messages, pongs, violations, peerCloseCode, peerCloseReason,
          peerClosedFirst, eof && peerCloseCode == null, late && (peerCloseCode != null || eof),
          timeout, tcpLeftOpen, suiteCloseCode);
    } finally {
      lock.unlock();
    }
  }

  private void closeTcp() throws InterruptedException {
    boolean handshakeDone;
    lock.lock();
    try {
      long until = System.nanoTime() + settings.closeTimeout().toNanos();
      long left;
      while (answerPending && (left = until - System.nanoTime()) > 0) {
        changed.awaitNanos(left);
      }
      handshakeDone = peerCloseCode != null && suiteSentClose && !writeFailed;
    } finally {
      lock.unlock();
    }
    if (handshakeDone) {
      if (role == Role.CLIENT) {
        // §7.1.1: the server closes TCP first; a client waits for it.
        if (!awaitEof(System.nanoTime() + settings.closeTimeout().toNanos())) {
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
        awaitEof(System.nanoTime() + Math.min(settings.closeTimeout().toNanos(), 1_000_000_000L));
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
      violation(e.getMessage());
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

  private void violation(String what) {
    lock.lock();
    try {
      if (violations.size() < VIOLATION_LIMIT && !violations.contains(what)) {
        violations.add(what);
      }
    } finally {
      lock.unlock();
    }
  }

  private void onFrame(WireFrame f) {
    Frame answer = null;
    lock.lock();
    try {
      record(FrameRecord.of(false, 0, f, ""), "");
      check(f);
      switch (f.opcode()) {
        case Frame.CONTINUATION, Frame.TEXT, Frame.BINARY -> data(f);
        case Frame.CLOSE -> answer = close(f);
        case Frame.PING -> {
          control(f);
          answer = Frame.pong(f.payload());
        }
        case Frame.PONG -> {
          control(f);
          pongs.add(f.payload());
        }
        default -> violation("a frame with reserved opcode " + f.opcode() + " (RFC 6455 §5.2)");
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (answer != null) {
      reply(answer);
    }
  }

  private void check(WireFrame f) {
    if (peerCloseCode != null) {
      violation("a frame after its close frame (RFC 6455 §5.5.1)");
    }
    if (role == Role.CLIENT && f.masked()) {
      violation("a masked frame from the server (RFC 6455 §5.1)");
    } else if (role == Role.SERVER && !f.masked()) {
      violation("an unmasked frame from the client (RFC 6455 §5.1)");
    }
    if (!f.minimalLength()) {
      violation("a payload length not in the minimal number of bytes (RFC 6455 §5.2)");
    }
    boolean startsMessage = f.opcode() == Frame.TEXT || f.opcode() == Frame.BINARY;
    int allowed = compression != null && startsMessage ? 4 : 0;
    if ((f.rsv() & ~allowed) != 0) {
      violation(compression != null && (f.rsv() & 4) != 0 && !startsMessage
          ? "RSV1 on a frame that does not start a data message (RFC 7692 §6.1)"
          : "RSV bits " + f.rsv() + " set without an extension that defines them"
              + " (RFC 6455 §5.2)");
    }
  }

  private void control(WireFrame f) {
    if (!f.fin()) {
      violation("a fragmented control frame (RFC 6455 §5.5)");
    }
    if (f.payload().length > 125) {
      violation("a control frame with " + f.payload().length + " bytes of payload (RFC 6455"
          + " §5.5 allows 125)");
    }
  }

  private void data(WireFrame f) {
    if (f.opcode() != Frame.CONTINUATION) {
      if (partial != null) {
        violation("a new data message inside a fragmented one (RFC 6455 §5.4)");
      }
      partial = new ByteArrayOutputStream();
      partialText = f.opcode() == Frame.TEXT;
      partialCompressed = compression != null && (f.rsv() & 4) != 0;
    } else if (partial == null) {
      violation("a continuation frame with no message to continue (RFC 6455 §5.4)");
      return;
    }
    if (partial.size() + (long) f.payload().length > settings.maxMessage()) {
      violation("a message larger than the suite reads (" + settings.maxMessage() + " bytes)");
      partial = null;
      return;
    }
    partial.writeBytes(f.payload());
    if (f.fin()) {
      complete();
    }
  }

  private void complete() {
    byte[] payload = partial.toByteArray();
    boolean text = partialText;
    boolean compressed = partialCompressed;
    partial = null;
    if (compressed) {
      try {
        payload = compression.decompress(payload, settings.maxMessage());
      } catch (DataFormatException e) {
        violation("compressed data the suite cannot inflate (RFC 7692 §7.2.2"
            + (compression.agreed().serverNoContextTakeover()
                || compression.agreed().clientNoContextTakeover()
                ? "; context is reset after each message where no_context_takeover was agreed"
                : "") + "): " + e.getMessage());
        return;
      }
    }
    if (text && !Utf8Check.isValid(payload)) {
      violation("a text message that is not valid UTF-8 (RFC 6455 §8.1)");
    }
    messages.add(new DataMessage(text, payload));
  }

  private Frame close(WireFrame f) {
    control(f);
    byte[] p = f.payload();
    int code = 1005;
    String reason = "";
    boolean valid = true;
    if (p.length == 1) {
      violation("a close frame with a one-byte payload (RFC 6455 §5.5.1)");
      valid = false;
    } else if (p.length >= 2) {
      code = (p[0] & 0xFF) << 8 | (p[1] & 0xFF);
      if (!validCode(code)) {
        violation("close code " + code + ", which may not be sent (RFC 6455 §7.4)");
        valid = false;
      }
      byte[] r = Arrays.copyOfRange(p, 2, p.length);
      if (!Utf8Check.isValid(r)) {
        violation("a close reason that is not valid UTF-8 (RFC 6455 §5.5.1)");
        valid = false;
      }
      reason = new String(r, StandardCharsets.UTF_8);
    }
    if (peerCloseCode != null) {
      return null;
    }
    peerCloseCode = code;
    peerCloseReason = reason;
    peerClosedFirst = !suiteSentClose;
    if (suiteSentClose) {
      return null;
    }
    // §5.5.1: answer with a close, echoing the code.
    Frame answer = !valid ? Frame.close(1002, "") : p.length == 0 ? Frame.close(new byte[0])
        : Frame.close(code, "");
    noteSuiteClose(answer.payload());
    answerPending = true;
    return answer;
  }

  /** §7.4: the codes an endpoint may put on the wire (1012-1014 are registered with IANA). */
  static boolean validCode(int code) {
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014)
        || (code >= 3000 && code <= 4999);
  }
}
