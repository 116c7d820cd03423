package dev.wsjava.transport.nio;

/**
 * A task an {@link EventLoop} runs once at a deadline, unless cancelled first. Cancelling from any
 * thread is safe; a cancelled timer stays in the loop's queue until its deadline or the next purge,
 * and is then dropped without running. It lets go of its task when cancelled: a closed
 * connection's timers must not keep the connection, and what it held, reachable until their
 * deadlines (a slow-trickle window is 30 s).
 */
final class Timer implements Comparable<Timer> {
  final long deadline;
  final long seq; // order of scheduling: ties, and which timers a pass of the loop may run
  private volatile Runnable task; // null once cancelled or run

  Timer(long deadline, long seq, Runnable task) {
    this.deadline = deadline;
    this.seq = seq;
    this.task = task;
  }

  /** Stops the task from running if it has not run yet. */
  void cancel() {
    task = null;
  }

  boolean isCancelled() {
    return task == null;
  }

  void run() {
    Runnable t = task;
    if (t != null) {
      task = null;
      t.run();
    }
  }

  @Override
  public int compareTo(Timer o) {
    int c = Long.compare(deadline - o.deadline, 0); // nanoTime values: compare by difference
    return c != 0 ? c : Long.compare(seq, o.seq);
  }
}
