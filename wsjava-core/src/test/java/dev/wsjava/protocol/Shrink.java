package dev.wsjava.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a seeded property reports a failure: it checks a case made of parts (frames, messages, pieces
 * of text); when the case fails, it drops runs of parts, halves first and single parts last,
 * keeping each drop after which the case is still valid and still fails, and reports the smallest
 * failing case it found with the seed that drew the original, so {@code -Dwsjava.seed=S} replays
 * it. The description names what a reader needs to see (lengths, split points, flags, a few bytes
 * in hex), never whole payloads.
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
   * Checks {@code property} on {@code parts}, where any sublist of the parts is a valid case.
   *
   * @param seed the seed that drew the case
   * @param parts the case
   * @param describe the short description of a case, for the failure message
   * @param property the property
   * @param <T> the type of a part
   */
  public static <T> void check(
      long seed, List<T> parts, Function<List<T>, String> describe, Property<T> property) {
    check(seed, parts, p -> true, describe, property);
  }

  /**
   * Checks {@code property} on {@code parts}; when it fails, shrinks the parts as described above,
   * trying only sublists that are {@code valid}, and fails with the seed, the smallest failing
   * case and, as the cause, what failed on it.
   *
   * @param seed the seed that drew the case
   * @param parts the case
   * @param valid which sublists of the parts are cases the property speaks of
   * @param describe the short description of a case, for the failure message
   * @param property the property
   * @param <T> the type of a part
   */
  public static <T> void check(long seed, List<T> parts, Predicate<List<T>> valid,
      Function<List<T>, String> describe, Property<T> property) {
    Throwable failure = failure(property, parts);
    if (failure == null) {
      return;
    }
    List<T> smallest = parts;
    boolean shrunk = true;
    while (shrunk) { // until no run can go (a drop can make an earlier one droppable)
      shrunk = false;
      for (int run = Math.max(1, smallest.size() / 2); run >= 1; run /= 2) {
        for (int i = 0; i + run <= smallest.size(); ) {
          List<T> fewer = new ArrayList<>(smallest.subList(0, i));
          fewer.addAll(smallest.subList(i + run, smallest.size()));
          Throwable f = valid.test(fewer) ? failure(property, fewer) : null;
          if (f != null) {
            smallest = fewer;
            failure = f;
            shrunk = true;
          } else {
            i++;
          }
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
