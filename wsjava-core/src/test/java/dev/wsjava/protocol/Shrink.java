package dev.wsjava.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How a seeded property reports a failure: it checks a case made of parts (messages, frames, pieces
 * of text); when the case fails, it drops parts one at a time, keeping each drop after which the
 * case still fails, and reports the smallest failing case it found together with the seed that drew
 * the original, so {@code -Dwsjava.seed=S} replays it. The description names what a reader needs to
 * see (lengths, split points, flags, a few bytes in hex), never whole payloads.
 */
public final class Shrink {
  private Shrink() {}

  /** A property of a case: returns normally when it holds, throws when it does not. */
  @FunctionalInterface
  public interface Property<T> {
    /**
     * Checks the property on these parts.
     *
     * @param parts the case, or a part of it while shrinking
     * @throws Exception when the code under test fails in a way the property does not expect
     */
    void check(List<T> parts) throws Exception;
  }

  /**
   * Checks {@code property} on {@code parts}; when it fails, shrinks the parts as described above
   * and fails with the seed, the smallest failing case and, as the cause, what failed on it.
   *
   * @param seed the seed that drew the case
   * @param parts the case
   * @param describe the short description of a case, for the failure message
   * @param property the property
   * @param <T> the type of a part
   */
  public static <T> void check(
      long seed, List<T> parts, Function<List<T>, String> describe, Property<T> property) {
    Throwable failure = failure(property, parts);
    if (failure == null) {
      return;
    }
    List<T> smallest = parts;
    boolean shrunk = true;
    while (shrunk) { // until no single part can go (a drop can make an earlier part droppable)
      shrunk = false;
      for (int i = 0; i < smallest.size(); ) {
        List<T> fewer = new ArrayList<>(smallest);
        fewer.remove(i);
        Throwable f = failure(property, fewer);
        if (f != null) {
          smallest = fewer;
          failure = f;
          shrunk = true;
        } else {
          i++;
        }
      }
    }
    throw new AssertionError(
        "seed " + seed + " (rerun with -Dwsjava.seed=" + seed + "), smallest failing case found"
            + " (" + smallest.size() + " of " + parts.size() + " parts): "
            + describe.apply(smallest) + "\n" + failure,
        failure);
  }

  private static <T> Throwable failure(Property<T> property, List<T> parts) {
    try {
      property.check(parts);
      return null;
    } catch (Exception | AssertionError e) {
      return e;
    }
  }
}
