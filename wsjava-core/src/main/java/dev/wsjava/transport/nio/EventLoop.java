package dev.wsjava.transport.nio;

import dev.wsjava.transport.LastResort;
import dev.wsjava.transport.Tuning;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One thread, one {@link Selector}: it runs the I/O of the channels registered with it, the tasks
 * other threads hand it, and its timers, in that order each turn.
 *
 * <p>Tasks from other threads go into a lock-free queue; the selector is woken only when no wake-up
 * is already pending, so a burst of tasks costs one wake-up. Timers live in a priority queue read
 * each turn against {@link System#nanoTime()}; the select blocks no longer than the nearest one.
 * Whatever a task, a timer or a channel's handler throws (an Error included) is logged and does not
 * stop the loop; the channel is closed. Only an Error in the loop's own code (or in closing a
 * failed channel) stops it: {@link #terminated()} then completes exceptionally, which makes the
 * servers on the loop fail loudly. Logging goes through {@link LastResort}: it cannot throw, even
 * with no file descriptor left.
 *
 * <p>A loop whose last turn handled I/O polls for up to its spin time before it blocks (see
 * spin()): waking a blocked thread costs more than the poll on most machines, virtual ones above
 * all, and with few channels that wake-up is paid per message. Whatever its channel count: a cap
 * (16 channels) did not pay with 1,000 connections, nor over HTTP, on one core or two ({@link
 * Tuning#SPIN}). The spin adapts ({@link AdaptiveSpin}): polls that find nothing make the loop
 * skip its next spins, twice as many each time (at most {@link Tuning#MAX_SPIN_BACKOFF}), so a
 * quiet loop soon blocks at once and burns next to nothing; and each fruitless spin halves the
 * next one, down to {@link Tuning#MIN_SPIN_NANOS} (by default the whole spin: no halving), until
 * a spin finds work again.
 *
 * <p>Thread-safety: {@link #execute}, {@link #schedule} and {@link #close} may be called from any
 * thread; {@link #register} and the buffer pool only on the loop's thread.
 */
final class EventLoop implements Executor, AutoCloseable, ConnectionTimers.Scheduler {
  private static final System.Logger LOG = dev.wsjava.events.Loggers.NIO;

  /** The fewest queued timers at which adding one purges the cancelled; see {@link #add}. */
  static final int PURGE_MIN = 64;

  /** Buffers one gathering write takes at most: {@link Tuning#NIO_GATHER}. */
  static final int GATHER = Tuning.NIO_GATHER;

  private final Selector selector;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean wakeupPending = new AtomicBoolean();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();
  /** Work put off to the next turn, after its I/O: see {@link #executeNextTurn}; loop thread only. */
  private final ArrayDeque<Runnable> nextTurn = new ArrayDeque<>();
  private final BufferPool pool = new BufferPool();
  private final FramePool framePool = new FramePool();
  private final ByteBuffer[] gather = new ByteBuffer[GATHER];
  /** The selector's action, made once: a method reference made at each poll was garbage. */
  private final Consumer<SelectionKey> onSelected = this::onSelected;
  private final CompletableFuture<Void> terminated = new CompletableFuture<>();
  private final long spinNanos;
  private boolean handledIo; // whether the last turn's select found a ready channel
  private final AdaptiveSpin adaptiveSpin;
  private long spins;
  private long fruitlessSpins;
  private long timerSeq;
  private int cancelledSeen;
  private int purgeAt = PURGE_MIN;
  private volatile boolean stopping;
  private long lastTurnFailureLog = System.nanoTime() - TimeUnit.SECONDS.toNanos(2);
  /** Log lines formatted before they are needed: see {@link LastResort}. */
  private final String fatalLine;
  private final String turnFailedLine;

  /**
   * Opens the selector and starts the thread; the spin adapts down to {@link
   * Tuning#MIN_SPIN_NANOS}.
   *
   * @param name the thread's name
   * @param spin how long to poll after a turn that handled I/O before blocking, at most; zero never
   * @throws UncheckedIOException when no selector can be opened
   */
  EventLoop(String name, Duration spin) {
    this(name, spin, Tuning.MIN_SPIN_NANOS);
  }

  /**
   * Opens the selector and starts the thread.
   *
   * @param name the thread's name
   * @param spin how long to poll after a turn that handled I/O before blocking, at most; zero never
   * @param minSpinNanos the shortest the spin adapts to; {@code spin} or more for a fixed spin
   * @throws UncheckedIOException when no selector can be opened
   */
  EventLoop(String name, Duration spin, long minSpinNanos) {
    this.spinNanos = spin.toNanos();
    this.adaptiveSpin = new AdaptiveSpin(Tuning.MAX_SPIN_BACKOFF, minSpinNanos, spinNanos);
    this.fatalLine = "event loop " + name + " failed and stopped; its connections are aborted";
    this.turnFailedLine = "event loop " + name + " turn failed; the loop goes on";
    LastResort.prepare(LOG);
    try {
      this.selector = Selector.open();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a selector", e);
    }
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Returns whether the caller runs on this loop's thread.
   *
   * @return true on the loop thread
   */
  boolean inEventLoop() {
    return Thread.currentThread() == thread;
  }

  /**
   * Runs {@code task} on the loop thread soon, after the current turn's I/O.
   *
   * @param task the task
   * @throws RejectedExecutionException when the loop has stopped
   */
  @Override
  public void execute(Runnable task) {
    if (stopping) {
      throw new RejectedExecutionException("the event loop " + thread.getName() + " has stopped");
    }
    tasks.add(task);
    if (!inEventLoop() && wakeupPending.compareAndSet(false, true)) {
      selector.wakeup();
    }
  }

  /**
   * Runs {@code task} in the next turn, after that turn's I/O; loop thread only. For a connection
   * that gave way after a bounded slice of work (inflating a large message, say): the channels
   * ready meanwhile are served first, and every connection that gave way gets one slice per turn,
   * in order. (Tasks given to {@link #execute} in this turn's tasks would run in this turn still.)
   *
   * @param task the task
   */
  void executeNextTurn(Runnable task) {
    assert inEventLoop();
    nextTurn.add(task);
  }

  /**
   * Computes a value on the loop thread.
   *
   * @param <T> the value's type
   * @param body what to compute
   * @return completed with the value on the loop thread
   */
  <T> CompletableFuture<T> call(Supplier<T> body) {
    CompletableFuture<T> f = new CompletableFuture<>();
    execute(
        () -> {
          try {
            f.complete(body.get());
          } catch (RuntimeException e) {
            f.completeExceptionally(e);
          }
        });
    return f;
  }

  /**
   * Runs {@code task} on the loop thread after {@code delay}.
   *
   * @param delay how long from now
   * @param task the task
   * @return the timer, to cancel it
   */
  Timer schedule(Duration delay, Runnable task) {
    long deadline = System.nanoTime() + delay.toNanos();
    if (inEventLoop()) {
      return add(deadline, task);
    }
    Timer t = new Timer(deadline, 0, task);
    // Off the loop: a placeholder whose cancel() the real timer honours.
    execute(
        () -> {
          if (!t.isCancelled()) {
            add(t.deadline, t::run);
          }
        });
    return t;
  }

  /**
   * Returns {@link System#nanoTime()}: the loop's timers run on the system's clock.
   *
   * @return the time
   */
  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  /**
   * Runs {@code task} at a {@link System#nanoTime()} deadline; loop thread only.
   *
   * @param deadline when
   * @param task the task
   * @return the timer
   */
  @Override
  public Timer scheduleAt(long deadline, Runnable task) {
    assert inEventLoop();
    return add(deadline, task);
  }

  private Timer add(long deadline, Runnable task) {
    Timer t = new Timer(deadline, timerSeq++, task);
    timers.add(t);
    if (timers.size() >= purgeAt) {
      // Cancelled timers (every handshake's, once it completes) stay queued until their deadline
      // (without their task): drop them whenever the queue has doubled since the last purge, a
      // linear pass per doubling, so constant work per timer.
      timers.removeIf(Timer::isCancelled);
      purgeAt = Math.max(PURGE_MIN, 2 * timers.size());
    }
    return t;
  }

  /**
   * Registers a channel with this loop's selector; loop thread only.
   *
   * @param channel a non-blocking channel
   * @param ops the interest set
   * @param handler called when it is ready
   * @return the key
   * @throws ClosedChannelException when the channel is closed
   */
  SelectionKey register(SelectableChannel channel, int ops, Selectable handler)
      throws ClosedChannelException {
    assert inEventLoop();
    return channel.register(selector, ops, handler);
  }

  /**
   * Returns the loop's buffer pool; loop thread only.
   *
   * @return the pool
   */
  BufferPool pool() {
    return pool;
  }

  /**
   * Returns the direct buffers this loop's connections encode large frames into; any thread.
   *
   * @return the pool
   */
  FramePool framePool() {
    return framePool;
  }

  /**
   * Returns what the registered channels' keys carry (their {@link Selectable}s), copied, so the
   * caller may close channels while it walks them; loop thread only.
   *
   * @return the attachments, in no particular order
   */
  List<Object> attachments() {
    assert inEventLoop() || stopping;
    List<Object> out = new ArrayList<>();
    for (SelectionKey k : selector.keys()) {
      out.add(k.attachment());
    }
    return out;
  }

  /**
   * Returns how many timers are queued, cancelled ones not yet dropped included; loop thread only.
   *
   * @return the queue's size
   */
  int queuedTimers() {
    return timers.size();
  }

  /**
   * Returns the loop's array for gathering writes; loop thread only. A writer clears what it put in
   * before it runs any callback.
   *
   * @return an array of {@link #GATHER} slots
   */
  ByteBuffer[] gatherArray() {
    return gather;
  }

  /**
   * Returns whether {@link #close} was called.
   *
   * @return true once stopping
   */
  boolean isStopping() {
    return stopping;
  }

  /**
   * Returns a future completed when the loop's thread has finished.
   *
   * @return the termination future
   */
  CompletableFuture<Void> terminated() {
    return terminated;
  }

  /**
   * Stops the loop: channels still registered are aborted, the selector is closed. Returns at once;
   * wait on {@link #terminated()} or use {@link #awaitTermination}.
   */
  @Override
  public void close() {
    if (!stopping) {
      stopping = true;
      selector.wakeup();
    }
  }

  /**
   * Waits for the thread to finish.
   *
   * @param timeout the longest wait
   * @return whether it finished
   * @throws InterruptedException when interrupted while waiting
   */
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    if (inEventLoop()) {
      return false;
    }
    return thread.join(timeout);
  }

  private void run() {
    Throwable fatal = null;
    try {
      while (!stopping) {
        try {
          turn();
        } catch (Exception e) {
          turnFailed(e);
        }
      }
    } catch (Throwable t) {
      // An Error from the loop's own code (the selector, its bookkeeping, releasing a failed
      // channel): this loop cannot go on. Reported once; the futures that hear of it make the
      // server fail loudly rather than stay half alive.
      fatal = t;
      LastResort.log(LOG, System.Logger.Level.ERROR, fatalLine, t);
    } finally {
      stopping = true;
      try {
        shutdownChannels();
      } catch (Throwable t) {
        if (fatal == null) {
          fatal = t;
          LastResort.log(LOG, System.Logger.Level.ERROR, fatalLine, t);
        }
      }
      if (fatal == null) {
        terminated.complete(null);
      } else {
        terminated.completeExceptionally(fatal);
      }
    }
  }

  /**
   * A turn threw an exception outside any one channel's, task's or timer's code (the selector
   * itself, most likely): logged at most once a second, and the loop pauses a little so that a
   * failure that repeats at once does not spin it.
   */
  private void turnFailed(Exception e) {
    long now = System.nanoTime();
    if (now - lastTurnFailureLog >= TimeUnit.SECONDS.toNanos(1)) {
      lastTurnFailureLog = now;
      LastResort.log(LOG, System.Logger.Level.WARNING, turnFailedLine, e);
    }
    try {
      Thread.sleep(10);
    } catch (InterruptedException ie) {
      // the loop checks `stopping` next
    }
  }

  private void turn() throws IOException {
    boolean spin =
        handledIo
            && spinNanos > 0
            && nextTurn.isEmpty()
            && adaptiveSpin.maySpin();
    int ready = spin ? spin() : 0;
    if (ready == 0) {
      long timeoutMillis = selectTimeoutMillis();
      wakeupPending.set(false); // from here a task from another thread wakes the select
      if (!tasks.isEmpty() || !nextTurn.isEmpty() || timeoutMillis < 0) {
        ready = selector.selectNow(onSelected);
      } else {
        ready = selector.select(onSelected, timeoutMillis); // 0 blocks until woken
      }
    }
    handledIo = ready > 0;
    runTimers();
    runTasks();
  }

  /**
   * Polls the selector until a channel is ready, a task comes, or the spin time (or the nearest
   * timer) is up. Each poll yields the processor, so threads that share it (an application's
   * sender, say) are not held up. While it polls, tasks from other threads need no selector
   * wake-up: the poll sees them.
   *
   * @return the channels handled, 0 when none was ready
   */
  private int spin() throws IOException {
    spins++;
    wakeupPending.set(true);
    long end = System.nanoTime() + adaptiveSpin.windowNanos();
    Timer next = timers.peek();
    if (next != null && next.deadline - end < 0) {
      end = next.deadline;
    }
    long now;
    do {
      int ready = tasks.isEmpty() && !stopping ? selector.selectNow(onSelected) : 0;
      if (ready > 0 || !tasks.isEmpty() || stopping) {
        adaptiveSpin.found();
        return ready;
      }
      Thread.yield();
      now = System.nanoTime();
    } while (now - end < 0);
    fruitlessSpins++;
    adaptiveSpin.foundNothing();
    return 0;
  }

  /**
   * Returns how many times the loop spun before blocking, and how many of those found nothing;
   * loop thread only, for tests.
   *
   * @return {spins, fruitless spins, the current window in nanoseconds}
   */
  long[] spinCounts() {
    return new long[] {spins, fruitlessSpins, adaptiveSpin.windowNanos()};
  }

  /** Milliseconds to block: -1 when a timer is due, 0 for no timer, else rounded up. */
  private long selectTimeoutMillis() {
    Timer next = timers.peek();
    if (next == null) {
      return 0;
    }
    long wait = next.deadline - System.nanoTime();
    if (wait <= 0) {
      return -1;
    }
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait + 999_999));
  }

  private void onSelected(SelectionKey key) {
    Object attachment = key.attachment();
    try {
      if (key.isValid()) {
        ((Selectable) attachment).ready(key.readyOps());
      }
    } catch (Throwable t) {
      // One channel's failure, whatever it is (an Error from its handler included), is that
      // channel's: it is closed and the loop goes on. Only when closing it fails too does the
      // error reach run() and stop the loop.
      LastResort.log(LOG, System.Logger.Level.WARNING, "channel handler failed; closing the channel", t);
      abort(attachment);
    }
  }

  private void runTimers() {
    long now = System.nanoTime();
    // A timer a task schedules now waits for the next turn even when already due, so a task that
    // keeps rescheduling itself in the past cannot hold the loop away from its sockets.
    long firstNew = timerSeq;
    Timer t;
    while ((t = timers.peek()) != null && t.deadline - now <= 0 && t.seq < firstNew) {
      timers.poll();
      try {
        t.run();
      } catch (Throwable e) {
        LastResort.log(LOG, System.Logger.Level.WARNING, "timer task failed", e);
      }
    }
    // Cancelled timers wait for their deadline; purge them when they pile up.
    if (++cancelledSeen >= 1024) {
      cancelledSeen = 0;
      if (timers.size() > 1024) {
        timers.removeIf(Timer::isCancelled);
      }
    }
  }

  private void runTasks() {
    for (int n = nextTurn.size(); n > 0; n--) { // those put off in this turn wait for the next
      Runnable r = nextTurn.poll();
      try {
        r.run();
      } catch (Throwable e) {
        LastResort.log(LOG, System.Logger.Level.WARNING, "event loop task failed", e);
      }
    }
    for (int i = 0; i < Tuning.MAX_TASKS_PER_TURN; i++) {
      Runnable r = tasks.poll();
      if (r == null) {
        return;
      }
      try {
        r.run();
      } catch (Throwable e) {
        LastResort.log(LOG, System.Logger.Level.WARNING, "event loop task failed", e);
      }
    }
  }

  private void shutdownChannels() {
    // Tasks queued before the stop still run (they may be closes); then every channel is aborted.
    Runnable r;
    while ((r = tasks.poll()) != null) {
      try {
        r.run();
      } catch (Throwable e) {
        LOG.log(System.Logger.Level.DEBUG, "task failed during shutdown", e);
      }
    }
    List<Object> attachments = List.of();
    try {
      attachments = attachments();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot list channels during shutdown", e);
    }
    attachments.forEach(EventLoop::abortQuietly);
    timers.clear();
    nextTurn.clear();
    try {
      selector.close();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot close selector", e);
    }
  }

  /**
   * Closes a channel whose handler failed; an Error while doing so is the loop's own and stops it.
   */
  private static void abort(Object attachment) {
    if (attachment instanceof Selectable s) {
      try {
        s.forceClose();
      } catch (Exception e) {
        LastResort.log(LOG, System.Logger.Level.DEBUG, "abort failed", e);
      }
    }
  }

  private static void abortQuietly(Object attachment) {
    if (attachment instanceof Selectable s) {
      try {
        s.forceClose();
      } catch (Throwable e) {
        LOG.log(System.Logger.Level.DEBUG, "abort failed", e);
      }
    }
  }
}
