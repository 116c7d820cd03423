package dev.wsjava.transport;

import java.time.Duration;

/**
 * Every tuning constant of the two transports, in one place, each with its reason and what it was
 * measured against. None is a protocol rule or a limit (those are configuration); each trades
 * system calls, wake-ups or fairness against latency on the machines the suite runs on. The
 * figures and the commands that produced them are in {@code docs/benchmarks/TUNING.md}: the
 * suite's scenarios 1 (one connection, one 32-byte message in flight: latency) and 2 (one
 * connection, 64 or 256 messages of 300 bytes in flight: rate), 3 (64 KiB and 1 MiB echoes), with
 * the server pinned to one core ({@code taskset -c 0}, the suite's shape) and to two ({@code
 * taskset -c 0,1}, sharing a core with the load client), each time with the server's CPU per echo
 * beside the rate.
 *
 * <p>Each integer constant can be overridden with a system property {@code wsjava.tuning.NAME}
 * (the name in lower camel case, e.g. {@code -Dwsjava.tuning.maxReadsPerEvent=4}), read once when
 * this class loads. That is for measuring a value on another machine with the suite's tuning
 * variants (a target named {@code wsjava-nio+maxReadsPerEvent=4}, docs/benchmarks/TUNING.md), not a
 * supported way to configure wsjava: the spin, which users may want to
 * choose, is configuration ({@code WebSocketConfig.Builder.eventLoopSpin}).
 *
 * <p>Internal: the transport packages are not exported.
 */
public final class Tuning {
  private Tuning() {}

  // ---- NIO event loop ----

  /**
   * How long a loop that has just handled I/O polls before it blocks, by default
   * (configuration: {@code eventLoopSpin}). A blocked thread's wake-up takes tens of microseconds
   * on a virtual machine; a reply or a pipelined request that comes within this time is picked up
   * without one. Scenario 1 (one message in flight), p50 without and with it: 38 -> 28 µs on one
   * core, 32 -> 28 µs on two, for 25 -> 33 µs of server CPU per echo; scenario 2 (64 in flight):
   * 1.04 -> 1.32 M msg/s at 0.79 -> 0.71 µs per echo on one core, even on two. 25 µs lost on two
   * cores (p50 29.5, p99 114 against 99 µs), 100 µs gained nothing over 50: 50 is the shortest
   * spin with the whole gain on both shapes. Its back-off ({@link #MAX_SPIN_BACKOFF}) keeps a
   * quiet loop's cost near nothing. It applies whatever the loop's channel count: a loop of more
   * than 16 channels used not to spin, and lifting that cap cost no CPU per echo with 1,000
   * connections (scenario 4) nor per request over HTTP (scenario 7), on one core or two.
   */
  public static final Duration SPIN = Duration.ofNanos(50_000);

  /**
   * The shortest an adaptive spin's window becomes, in nanoseconds ({@code AdaptiveSpin}): a spin
   * that finds nothing halves the next window, down to this, until one finds work and restores
   * the whole spin. By default the whole spin ({@link #SPIN}): the window does not shrink, and
   * only the skipped turns after fruitless spins adapt. Measured quietly on one core and on two
   * (docs/benchmarks/TUNING.md, 5 December): with a 5 µs floor, one message in flight settled
   * where the peer's turnaround outlasted the shrunken window, so every spin missed and every
   * turn woke from a block: p50 61–67 µs against 21–22 with the whole window, and more CPU per
   * echo (27.3–30.6 µs against 22.8–24.9). Lower it ({@code -Dwsjava.tuning.minSpinNanos=5000})
   * for loops that mostly see peers sending every few hundred microseconds.
   */
  public static final long MIN_SPIN_NANOS = knob("minSpinNanos", (int) SPIN.toNanos());

  /**
   * The most blocking turns a loop skips spinning for after fruitless spins (doubling from one):
   * a loop woken now and then by a quiet peer soon blocks at once.
   */
  public static final int MAX_SPIN_BACKOFF = knob("maxSpinBackoff", 64);

  /** Tasks a loop runs per turn at most, so a flood of tasks cannot starve I/O. */
  public static final int MAX_TASKS_PER_TURN = knob("maxTasksPerTurn", 4096);

  /** Buffers one gathering write of a loop takes at most. */
  public static final int NIO_GATHER = knob("nioGather", 64);

  /** Accepts per readiness event at most, so a connection storm cannot starve the accept loop. */
  public static final int MAX_ACCEPTS = knob("maxAccepts", 64);

  // ---- NIO connection ----

  /**
   * Reads per readiness event at most, so one busy peer cannot keep its loop from the others for
   * more than this many reads. A bound, not a speed-up: from 4 to 64, scenarios 3 (64 KiB and 1
   * MiB echoes) and 4 (1,000 connections) moved within the noise on one core and on two.
   */
  public static final int MAX_READS_PER_EVENT = knob("maxReadsPerEvent", 16);

  /**
   * After a read that answered and found the socket empty, how many readiness events skip that
   * extra read: a peer that waits for each answer (request and response) would make every one of
   * them a wasted system call. Each further miss in a row doubles it (plus one), up to {@link
   * #REREAD_BACKOFF_MAX}; a hit starts over.
   */
  public static final int REREAD_BACKOFF = knob("rereadBackoff", 7);

  /** The most readiness events in a row that skip the read after answering: one read in 128. */
  public static final int REREAD_BACKOFF_MAX = Math.min(127, knob("rereadBackoffMax", 127)); // byte

  /**
   * The fewest queued answer bytes that go out in the middle of a short read's events (half the
   * read's bytes, at least this), so a batch of small requests is answered in about two writes:
   * the peer handles the first half of the answers while this side works on the second. With 64
   * requests of 300 bytes in flight this raised echoes per second by 10 to 40 % for one more
   * write per batch.
   */
  public static final int EARLY_WRITE_MIN = knob("earlyWriteMin", 8 * 1024);

  /** Queued buffers a sender's own write (off the loop) takes at most; the loop writes any more. */
  public static final int WRITE_THROUGH_BUFFERS = knob("writeThroughBuffers", 8);

  /**
   * Queued bytes a sender's own write (off the loop) takes at most; the loop writes more. On a
   * core shared with the loop, a sender writing 64 KiB frames itself held up the loop reading their
   * echoes: a client with 4 in flight moved 766 MB/s that way and 911 MB/s with the loop writing
   * them, while 300-byte sends gain from writing themselves (232k against 175k messages/s).
   * Measured again (client driver against Netty, scenario 8): small sends written by the sender
   * gave 2.2x (one core) and 1.7x (two) the rate of leaving them to the loop, at about half the
   * client CPU per echo; without the cap, 64 KiB echoes fell from 802 to 466 MB/s on one core and
   * were even (within a wide spread) on two.
   */
  public static final int WRITE_THROUGH_MAX_BYTES = knob("writeThroughMaxBytes", 32 * 1024);

  /** Read buffers of one size a loop's pool keeps for reuse; a loop rarely needs more at once. */
  public static final int READ_BUFFERS_KEPT = knob("readBuffersKept", 16);

  /**
   * The capacity of a large outbound frame's direct buffers: as much as one read takes, plus the
   * largest frame header (14 bytes), so that a frame of the default outbound size (64 KiB of
   * payload) fills exactly one: at exactly 64 KiB, each such frame spilled its header's worth into
   * a second buffer, twice the buffers per frame (OutboundFrameBench measures what that cost).
   */
  public static final int FRAME_BUFFER = knob("frameBuffer", 64 * 1024 + 16);

  /** The capacity of a direct chunk that small outbound frames are packed into. */
  public static final int FRAME_CHUNK = knob("frameChunk", 4 * 1024);

  /** Free large frame buffers a loop keeps: 4 MiB, four 1 MiB messages in flight. */
  public static final int FRAME_BUFFERS_KEPT = knob("frameBuffersKept", 64);

  /** Free frame chunks a loop keeps: 1 MiB. */
  public static final int FRAME_CHUNKS_KEPT = knob("frameChunksKept", 256);

  // ---- blocking ----

  /** Blocking reads start with this many bytes: enough for a chat message, small for idle ones. */
  public static final int SMALL_READ = knob("smallRead", 2048);

  /**
   * Queued bytes from which a blocking read loop leaves a write to a thread of its own and reads
   * on: a write that large would keep it from reading until the peer has taken most of it.
   * Kept for liveness: a peer that sends several MiB before it reads would otherwise leave both
   * ends blocked in a write ({@code theReadLoopReadsOnWhileAnotherThreadWritesALargeEcho}). Not for
   * speed: scenario 3, 1 MiB echoes, was 7 % (one core) and 34 % (two) faster with the read loop
   * writing them itself; handing off from 64 KiB costs the 64 KiB echoes 40 % on both shapes.
   */
  public static final int HANDOFF_BYTES = knob("handoffBytes", 256 * 1024);

  /** Buffers one blocking write round takes. */
  public static final int BLOCKING_GATHER = knob("blockingGather", 16);

  /**
   * Reads a blocking connection still speaking HTTP makes in a row before it gives way to the
   * other virtual threads ({@code parkNanos(1)}): scenario 7 (wrk, 100 keep-alive connections,
   * one core), mean latency 6,200 -> 850 µs for 151,720 -> 146,748 requests per second.
   */
  public static final int HTTP_TURN = knob("httpTurn", 16);

  /**
   * Blocking transport: how many virtual threads may inflate a costly message's further slices at
   * once (half the processors, at least one), so the other carriers stay free for cheap messages.
   * See {@code blocking.CostlySlices}.
   */
  public static final int COSTLY_SLICES =
      knob("costlySlices", Math.max(1, Runtime.getRuntime().availableProcessors() / 2));

  /**
   * How often a connection whose reading is paused (memory budget, flow control) checks that its
   * peer is still there, by writing an empty ping: a socket that is not read learns of the peer's
   * reset only by writing (Linux returns the queued data to reads before the error; the selector
   * reports nothing for a channel with no interest). One probe finds a reset, two a close (the
   * first draws the peer's reset). See docs/MEMORY.md, "Paused connections".
   */
  public static final Duration PAUSED_PROBE = Duration.ofMillis(knob("pausedProbeMillis", 1000));

  /**
   * The bounds of the blocking server's deadline tick (an eighth of the shortest deadline, kept
   * within these); a deadline is kept to within one tick. One watcher thread instead of a timed
   * read per read: keep-alive HTTP under wrk cost 11.2 µs of server CPU per request with timed
   * reads, 6.1 with the watcher.
   */
  public static final Duration DEADLINE_TICK_MIN = Duration.ofMillis(1);

  /** See {@link #DEADLINE_TICK_MIN}. */
  public static final Duration DEADLINE_TICK_MAX = Duration.ofMillis(100);

  /**
   * Reads a value, or the system property {@code wsjava.tuning.NAME} when set to a positive
   * integer (anything else is ignored: a typo must not turn a loop off).
   */
  private static int knob(String name, int value) {
    Integer set = Integer.getInteger("wsjava.tuning." + name);
    return set != null && set > 0 ? set : value;
  }
}
