package dev.wsjava.handshake;

import java.util.concurrent.atomic.AtomicReference;

/**
 * One reusable object shared by whoever handshakes: {@link #take()} empties the slot, {@link
 * #give} fills it again once the object is no longer used. A taker that finds the slot empty (a
 * handshake running at the same moment elsewhere) makes its own, which is then garbage or the
 * next one kept. Servers answer thousands of handshakes, mostly one after another on each event
 * loop, so this spares nearly all of their scratch allocations without knowing anything about
 * threads.
 *
 * @param <T> the scratch object
 */
final class Stash<T> {
  private final AtomicReference<T> slot = new AtomicReference<>();

  /** Returns the kept object, or null when there is none: the caller makes one. */
  T take() {
    return slot.getAndSet(null);
  }

  /** Keeps an object that is back in a reusable state (it may replace one kept meanwhile). */
  void give(T scratch) {
    slot.set(scratch);
  }
}
