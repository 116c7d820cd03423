package dev.wsjava.cli;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.cli.LoadStats.Kind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongToIntFunction;

/**
 * One connection of a load run: keeps {@code inFlight} messages outstanding, checks each echo
 * (type, length, sequence number, every byte) and sends the next. Every event and every send runs
 * on the connection's I/O thread, one at a time, so the state below has a single writer; the main
 * thread only reads the volatile fields.
 *
 * <p>Echoes are expected in order. An echo whose sequence number is later than expected, and whose
 * bytes are right for that number, counts the skipped messages as lost; should one of those arrive
 * after all, it moves from lost to order. An echo that matches nothing counts as a content error
 * and stands for the message expected.
 */
final class LoadConnection implements WebSocketListener {
  /** Lost messages remembered in case they arrive late; beyond this they stay lost. */
  private static final int MAX_SKIPPED = 4096;

  /** The ping whose pong starts the sending, so that every send runs on the I/O thread. */
  private static final byte[] START = "wsjava load: start".getBytes(StandardCharsets.US_ASCII);

  /** What every connection of a run shares. */
  static final class Run {
    final Payloads payloads;
    final LoadStats stats;
    final int inFlight;
    /** When measuring starts ({@link System#nanoTime()}); messages sent before are warmup. */
    volatile long startNanos = Long.MAX_VALUE;
    /** Set when the duration is over: send nothing more, wait for echoes. */
    volatile boolean stopping;
    /** Set at the very end: ignore what still arrives, and closes are ours. */
    volatile boolean finishing;

    Run(Payloads payloads, LoadStats stats, int inFlight) {
      this.payloads = payloads;
      this.stats = stats;
      this.inFlight = inFlight;
    }
  }

  private final int id;
  private final Run run;
  private final Payloads payloads;
  private final long quota;
  private final long[] sentNanos;
  private final byte[] scratch;
  private final ByteBuffer scratchBuffer;
  private final Set<Long> skipped = new HashSet<>();
  private WebSocket ws;
  private long measuredSent;
  private boolean sendFailed;
  private boolean started;
  private volatile long nextSeq;
  private volatile long expectedSeq;
  private volatile long lastEchoNanos = System.nanoTime();
  private volatile long lastMeasuredEchoNanos;
  private volatile boolean done;
  private volatile String lastError;

  /**
   * A connection that sends {@code quota} measured messages ({@link Long#MAX_VALUE}: until the
   * run stops).
   */
  LoadConnection(int id, Run run, long quota) {
    this.id = id;
    this.run = run;
    this.payloads = run.payloads;
    this.quota = quota;
    this.sentNanos = new long[run.inFlight];
    this.scratch = new byte[payloads.size()];
    this.scratchBuffer = ByteBuffer.wrap(scratch);
  }

  /** Messages sent and not yet echoed. */
  long inFlight() {
    return nextSeq - expectedSeq;
  }

  /** Whether this connection has nothing more to send or receive. */
  boolean done() {
    return done;
  }

  /** When the last echo of any kind arrived. */
  long lastEchoNanos() {
    return lastEchoNanos;
  }

  /** When the last checked echo of a measured message arrived; 0 when none did. */
  long lastMeasuredEchoNanos() {
    return lastMeasuredEchoNanos;
  }

  /** The connection, once open. */
  WebSocket webSocket() {
    return ws;
  }

  /**
   * Starts sending: pings the server, and the pong's arrival sends the first messages on the
   * connection's own I/O thread (where every later send happens too).
   */
  void start() {
    lastEchoNanos = System.nanoTime();
    try {
      ws.sendPing(ByteBuffer.wrap(START));
    } catch (IllegalStateException closed) {
      // onClose has counted it
    }
  }

  /** Marks a connection that never opened as done (its failure is counted by the caller). */
  void connectFailed() {
    done = true;
  }

  @Override
  public void onOpen(WebSocket webSocket) {
    ws = webSocket;
  }

  @Override
  public void onPong(WebSocket webSocket, ByteBuffer data) {
    if (!started && data.equals(ByteBuffer.wrap(START))) {
      started = true;
      refill();
    }
  }

  @Override
  public void onText(WebSocket webSocket, String text) {
    if (!run.finishing) {
      echoed(true, text.length(), payloads.sequence(text, expectedSeq),
          seq -> payloads.mismatch(text, id, seq));
    }
  }

  @Override
  public void onBinary(WebSocket webSocket, ByteBuffer data) {
    if (!run.finishing) {
      echoed(false, data.remaining(), payloads.sequence(data, expectedSeq),
          seq -> payloads.mismatch(data, id, seq));
    }
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    lastError = error.getMessage();
  }

  @Override
  public void onClose(WebSocket webSocket, int code, String reason) {
    if (!run.finishing && !done) {
      String why = lastError;
      run.stats.error(Kind.CLOSED, 1, () -> "connection " + id + " closed with " + code
          + (reason.isEmpty() ? "" : " " + reason) + (why == null ? "" : " (" + why + ")"));
      long lost = inFlight();
      if (lost > 0) {
        run.stats.error(Kind.LOST, lost, () -> lost + " message(s) in flight on connection " + id
            + " when it closed");
      }
    }
    expectedSeq = nextSeq;
    done = true;
  }

  /** Checks one echo against what was sent, then tops the messages in flight up again. */
  private void echoed(boolean text, int length, long seq, LongToIntFunction mismatch) {
    long now = System.nanoTime();
    lastEchoNanos = now;
    long e = expectedSeq;
    long n = nextSeq;
    LoadStats stats = run.stats;
    if (e == n) {
      stats.error(Kind.EXTRA, 1, () -> "connection " + id + ": an echo with nothing in flight");
    } else if (text != payloads.text()) {
      stats.error(Kind.TYPE, 1, () -> "connection " + id + ", message " + e + ": "
          + (text ? "text" : "binary") + " echo of a " + (text ? "binary" : "text") + " message");
      expectedSeq = e + 1;
    } else if (length != payloads.size()) {
      stats.error(Kind.LENGTH, 1, () -> "connection " + id + ", message " + e + ": " + length
          + " bytes back, " + payloads.size() + " sent");
      expectedSeq = e + 1;
    } else if (seq == e) {
      int at = mismatch.applyAsInt(e);
      if (at < 0) {
        checked(e, now);
      } else {
        stats.error(Kind.CONTENT, 1, () -> "connection " + id + ", message " + e + ": byte " + at
            + " differs (sent 0x" + Integer.toHexString(payloads.expectedAt(id, e, at)) + ")");
      }
      expectedSeq = e + 1;
    } else if (seq > e && seq < n && mismatch.applyAsInt(seq) < 0) {
      stats.error(Kind.LOST, seq - e, () -> "connection " + id + ": messages " + e + " to "
          + (seq - 1) + " skipped, message " + seq + " came back");
      if (skipped.size() + (seq - e) > MAX_SKIPPED) {
        skipped.clear();
      }
      for (long s = e; s < seq && skipped.size() < MAX_SKIPPED; s++) {
        skipped.add(s);
      }
      checked(seq, now);
      expectedSeq = seq + 1;
    } else if (seq >= 0 && seq < e && mismatch.applyAsInt(seq) < 0) {
      if (skipped.remove(seq)) {
        stats.error(Kind.LOST, -1, null);
        stats.error(Kind.ORDER, 1, () -> "connection " + id + ": message " + seq
            + " came back after message " + (e - 1));
      } else {
        stats.error(Kind.EXTRA, 1, () -> "connection " + id + ": message " + seq
            + " came back twice");
      }
    } else {
      stats.error(Kind.CONTENT, 1, () -> "connection " + id + ", message " + e
          + ": its sequence number came back as " + seq);
      expectedSeq = e + 1;
    }
    refill();
  }

  /** A correct echo: counted, with its latency, if it was sent while measuring. */
  private void checked(long seq, long now) {
    long sent = sentNanos[(int) (seq % sentNanos.length)];
    if (sent >= run.startNanos) {
      run.stats.echo(payloads.size(), now - sent);
      lastMeasuredEchoNanos = now;
    }
  }

  /** Sends until {@code inFlight} messages are outstanding, unless the run says stop. */
  private void refill() {
    while (!run.stopping && !run.finishing && !sendFailed && measuredSent < quota
        && nextSeq - expectedSeq < run.inFlight) {
      send();
    }
    if (nextSeq == expectedSeq && (run.stopping || sendFailed || measuredSent >= quota)) {
      done = true;
    }
  }

  private void send() {
    long seq = nextSeq;
    long now = System.nanoTime();
    payloads.fill(scratch, id, seq);
    sentNanos[(int) (seq % sentNanos.length)] = now;
    CompletableFuture<Void> sent;
    try {
      sent = payloads.text()
          ? ws.sendText(new String(scratch, StandardCharsets.ISO_8859_1))
          : ws.sendBinary(scratchBuffer.clear());
    } catch (IllegalStateException closed) {
      sendFailed = true;
      return;
    }
    if (sent.isCompletedExceptionally()) {
      sendFailed = true;
      String why = sent.handle((ok, t) -> Main.describe(t)).join();
      run.stats.error(Kind.SEND, 1, () -> "connection " + id + ", message " + seq + ": " + why);
      return;
    }
    if (now >= run.startNanos) {
      measuredSent++;
    }
    nextSeq = seq + 1;
  }
}
