package dev.wsjava.session;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The memory one server (or one client instance) may hold on behalf of its peers, shared by all
 * its connections: messages being assembled, inflated output, outbound queues and HTTP bodies.
 * Each connection charges its own {@link Account}; an account takes memory from the budget in
 * grants of {@link #GRANT} bytes, so the shared counter is touched about once per 64 KiB, not per
 * frame, and a message that fits in one read is never charged at all.
 *
 * <p>When the budget is spent, a connection that needs more does not fail: it <em>stalls</em>
 * ({@link Account#stall}), its transport stops reading it (TCP then slows its peer), and it is
 * woken ({@code onRoom}) as soon as other connections give memory back. A connection that has
 * been stalled for the {@linkplain #stallTimeout() stall timeout} without progress makes the budget
 * evict the largest holder among the stalled ({@link #evictIfStuck()}): that one is closed (1008)
 * and its memory freed, so that everyone else moves again. The largest goes first because it frees
 * the most for the others and is the likeliest hostile.
 *
 * <p>Outbound bytes are charged as an overdraft ({@link Account#chargeOver}): a send is never
 * refused for the budget's sake, but a connection whose charges pass the budget stops being read
 * until it drains, which bounds what it can make the server send. The overshoot is at most one
 * message per connection that is delivering one at that instant.
 *
 * <p>Thread-safe. An account's own fields are changed under its connection's lock (both the
 * reading half and the senders hold it); the shared counter is atomic.
 */
public final class MemoryBudget {

  /** Bytes an account takes from or gives back to the budget at once. */
  public static final int GRANT = 64 * 1024;

  /** A quarter of the JVM's largest heap: room for everything else the application holds. */
  public static final int DEFAULT_HEAP_FRACTION = 4;

  /**
   * 10 s, like the handshake timeout: long enough for a burst to pass and memory to come back,
   * short enough that connections stuck on a spent budget do not hold it for long.
   */
  public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(10);

  /** Evictions are at least a quarter of the stall timeout apart. */
  private static final int EVICTION_GAP_DIVISOR = 4;

  /** {@link Account#wanted} of a holder that waits for its peer, not for memory. */
  private static final long STUCK = Long.MAX_VALUE;

  private final long capacity;
  private final long stallNanos;
  private final LongSupplier clock;
  private final AtomicLong reserved = new AtomicLong();
  private final Set<Account> stalled = ConcurrentHashMap.newKeySet();
  private final AtomicLong lastEviction = new AtomicLong();

  /**
   * Creates a budget.
   *
   * @param capacity bytes, at least {@link #GRANT}
   * @param stallTimeout how long a stalled connection waits before the largest stalled holder is
   *     evicted; positive
   * @param clock nanoseconds, as {@link System#nanoTime()} (tests pass their own)
   */
  public MemoryBudget(long capacity, Duration stallTimeout, LongSupplier clock) {
    if (capacity < GRANT) {
      throw new IllegalArgumentException(
          "memory budget must be at least " + GRANT + " bytes: " + capacity);
    }
    if (stallTimeout == null || stallTimeout.isNegative() || stallTimeout.isZero()) {
      throw new IllegalArgumentException("memory stall timeout must be positive: " + stallTimeout);
    }
    this.capacity = capacity;
    this.stallNanos = stallTimeout.toNanos();
    this.clock = clock;
  }

  /**
   * Creates a budget on the system clock.
   *
   * @param capacity bytes, or 0 for {@link #defaultCapacity()}
   * @param stallTimeout see {@link #MemoryBudget(long, Duration, LongSupplier)}
   * @return the budget
   */
  public static MemoryBudget of(long capacity, Duration stallTimeout) {
    return new MemoryBudget(
        capacity == 0 ? defaultCapacity() : capacity, stallTimeout, System::nanoTime);
  }

  /**
   * Returns the default capacity: {@code Runtime.maxMemory() / 4}, at least one grant.
   *
   * @return bytes
   */
  public static long defaultCapacity() {
    return Math.max(GRANT, Runtime.getRuntime().maxMemory() / DEFAULT_HEAP_FRACTION);
  }

  /**
   * Returns the capacity.
   *
   * @return bytes
   */
  public long capacity() {
    return capacity;
  }

  /**
   * Returns how long a stalled connection waits before the largest stalled holder is evicted.
   *
   * @return the stall timeout
   */
  public Duration stallTimeout() {
    return Duration.ofNanos(stallNanos);
  }

  /**
   * Returns the bytes the accounts have taken (in grants, so a little more than they use).
   *
   * @return reserved bytes
   */
  public long reserved() {
    return reserved.get();
  }

  /**
   * Opens an account for one connection.
   *
   * @return an empty account
   */
  public Account open() {
    return new Account(this);
  }

  private boolean tryReserve(long bytes) {
    long cur;
    do {
      cur = reserved.get();
      if (cur + bytes > capacity) {
        return false;
      }
    } while (!reserved.compareAndSet(cur, cur + bytes));
    return true;
  }

  private void giveBack(long bytes) {
    long now = reserved.addAndGet(-bytes);
    if (!stalled.isEmpty()) {
      wakeStalled(capacity - now);
    }
  }

  /**
   * Wakes the stalled accounts whose wait the free bytes cover: each tries again, and stalls again
   * if it still cannot go on.
   */
  private void wakeStalled(long free) {
    for (Account a : stalled) {
      if (a.wanted <= free && stalled.remove(a)) {
        Runnable r = a.onRoom;
        if (r != null) {
          r.run();
        }
      }
    }
  }

  /**
   * When some account has waited for memory for the stall timeout or longer, evicts the account
   * that holds the most among the stalled and {@linkplain Account#stuck stuck} ones (not
   * necessarily the one that waited longest): its {@code onEvict} runs. Evictions are at least a
   * quarter of the stall timeout apart, so that the memory one frees can reach the others first.
   * Transports call this when a stalled connection's timer fires.
   *
   * @return the evicted account, or null when none was due
   */
  public Account evictIfStuck() {
    long now = clock.getAsLong();
    boolean due = false;
    Account largest = null;
    for (Account a : stalled) {
      long since = a.stalledSince;
      if (since != 0 && a.wanted != STUCK && now - since >= stallNanos) {
        due = true; // someone waits for memory, and has waited long enough
      }
      if (largest == null || a.held() > largest.held()) {
        largest = a;
      }
    }
    long last = lastEviction.get();
    if (!due
        || largest == null
        || (last != 0 && now - last < stallNanos / EVICTION_GAP_DIVISOR)
        || !lastEviction.compareAndSet(last, now == 0 ? 1 : now)
        || !stalled.remove(largest)) {
      return null; // one eviction at a time: the memory it frees may be enough for the others
    }
    largest.evicted = true;
    Runnable r = largest.onEvict;
    if (r != null) {
      r.run();
    }
    return largest;
  }

  /**
   * One connection's share of the budget. Charges and releases are made under the connection's
   * lock; {@link #held()} may be read from any thread.
   */
  public static final class Account {
    private final MemoryBudget budget;
    private volatile long granted; // taken from the budget, in grants
    private long used; // charged by the connection
    volatile long stalledSince; // clock value of the first stall without progress; 0 for none
    volatile long wanted; // bytes the stalled connection waits for
    volatile boolean evicted;
    volatile Runnable onRoom;
    volatile Runnable onEvict;

    private Account(MemoryBudget budget) {
      this.budget = budget;
    }

    /**
     * Returns the budget this account draws on.
     *
     * @return the budget
     */
    public MemoryBudget budget() {
      return budget;
    }

    /**
     * Charges {@code bytes} if the budget has room for them.
     *
     * @param bytes at least 0
     * @return false, charging nothing, when the budget is spent
     */
    public boolean charge(long bytes) {
      long u = used + bytes;
      long g = granted;
      if (u > g) {
        long need = roundUp(u - g);
        if (!budget.tryReserve(need)) {
          return false;
        }
        granted = g + need;
      }
      used = u;
      return true;
    }

    /**
     * Charges {@code bytes} whether or not the budget has room (an overdraft).
     *
     * @param bytes at least 0
     * @return false when the budget is now overdrawn: the caller should stop reading
     */
    public boolean chargeOver(long bytes) {
      if (charge(bytes)) {
        return true;
      }
      long u = used + bytes;
      long need = roundUp(u - granted);
      budget.reserved.addAndGet(need);
      granted += need;
      used = u;
      return false;
    }

    /**
     * Releases {@code bytes} charged before; grants no longer needed go back to the budget (all of
     * them once nothing is held, so an idle connection holds none).
     *
     * @param bytes at most what is charged
     */
    public void release(long bytes) {
      long u = used - bytes;
      if (u < 0) {
        u = 0; // never below zero, whatever a caller miscounted
      }
      used = u;
      long g = granted;
      long keep = u == 0 ? 0 : roundUp(u) + GRANT;
      if (g > keep && (u == 0 || g - keep >= GRANT)) {
        granted = keep;
        budget.giveBack(g - keep);
      }
    }

    /** Releases everything this account holds; for a connection that closed. */
    public void releaseAll() {
      budget.stalled.remove(this);
      release(used);
    }

    /**
     * Returns the bytes charged.
     *
     * @return bytes in use
     */
    public long used() {
      return used;
    }

    /**
     * Returns the bytes taken from the budget.
     *
     * @return held bytes, at least {@link #used()}
     */
    public long held() {
      return granted;
    }

    /**
     * Marks this account stalled: its connection stopped reading until memory comes back. The
     * stall time counts from the first stall since the last {@link #progressed()}.
     *
     * @param bytes the bytes the connection waits for: it is woken once that much is free
     * @param onRoom run (on the thread that freed memory) when memory comes back; it should make
     *     the connection's own thread try again
     * @param onEvict run when the budget evicts this account; it should close the connection
     */
    public void stall(long bytes, Runnable onRoom, Runnable onEvict) {
      this.wanted = Math.min(roundUp(bytes), budget.capacity);
      this.onRoom = onRoom;
      this.onEvict = onEvict;
      if (stalledSince == 0) {
        long now = budget.clock.getAsLong();
        stalledSince = now == 0 ? 1 : now;
      }
      budget.stalled.add(this);
      MemoryBudget b = budget;
      if (b.capacity - b.reserved.get() >= wanted && b.stalled.remove(this)) {
        onRoom.run(); // memory came back before this stall was seen
      }
    }

    /**
     * Marks this account as a holder that cannot give its memory back on its own for now (its
     * peer does not read what was sent to it): it never waits for memory, but when others have
     * waited for memory past the stall timeout, it may be the largest holder and be evicted.
     *
     * @param onEvict run when the budget evicts this account; it should drop the connection
     */
    public void stuck(Runnable onEvict) {
      this.wanted = STUCK;
      this.onRoom = null;
      this.onEvict = onEvict;
      budget.stalled.add(this);
    }

    /** Ends {@link #stuck}: the peer read what it was sent. */
    public void unstuck() {
      if (wanted == STUCK) {
        budget.stalled.remove(this);
        wanted = 0;
      }
    }

    /** Marks that the connection made progress: a later stall starts a new wait. */
    public void progressed() {
      if (stalledSince != 0) {
        stalledSince = 0;
      }
    }

    /**
     * Whether this account is marked stalled and not yet woken.
     *
     * @return true while stalled
     */
    public boolean isStalled() {
      return budget.stalled.contains(this);
    }

    /**
     * Whether the budget evicted this account.
     *
     * @return true once evicted
     */
    public boolean evicted() {
      return evicted;
    }

    private static long roundUp(long bytes) {
      return (bytes + GRANT - 1) / GRANT * GRANT;
    }
  }
}
