package dev.wsjava.bench.peer;

import java.util.List;

/**
 * One shape of echo traffic of the end-to-end suite: message size and kind, messages in flight per
 * connection, connections. Shared by the raw load client and the client drivers, so every target
 * sees the same traffic.
 *
 * @param id the name used on command lines and in result lines
 * @param size payload bytes per message
 * @param text text (a JSON-like ASCII payload) or binary
 * @param window messages in flight per connection (1: send the next after the echo; {@link
 *     #NO_WINDOW}: as many as the sockets take)
 * @param connections connections echoing at once
 * @param deflate whether the client offers permessage-deflate
 */
public record Workload(
    String id, int size, boolean text, int window, int connections, boolean deflate) {

  /** The window of a workload without one: the client sends whenever its socket takes bytes. */
  public static final int NO_WINDOW = Integer.MAX_VALUE;

  /** Scenario 1: one connection, 32-byte text, one in flight. */
  public static final Workload LATENCY = new Workload("latency", 32, true, 1, 1, false);
  /** Scenario 2: one connection, 300-byte binary, 64 in flight. */
  public static final Workload SMALL = new Workload("small", 300, false, 64, 1, false);
  /**
   * Scenario 2, deeper: the same messages, 256 in flight. At 64 both processes sleep through much
   * of each batch's round trip, so the rate is mostly the kernel's wake-ups; at 256 each wake-up
   * carries a bigger batch, and the rate depends more on each side's cost per message.
   */
  public static final Workload SMALL_DEEP = new Workload("small256", 300, false, 256, 1, false);
  /**
   * Scenario 2 without a window, as the seed's load test drives a server: the client writes 300-byte
   * binary messages whenever its socket takes bytes and reads echoes whenever they arrive, so only
   * TCP's buffers (and the server's own reading) bound what is in flight. Measures cost per message
   * at full pipelining; round-trip times are queueing there and are not recorded.
   */
  public static final Workload SMALL_FLOOD = new Workload("smallflood", 300, false, NO_WINDOW, 1, false);
  /** Scenario 3a: one connection, 64 KiB binary, 4 in flight. */
  public static final Workload LARGE_64K = new Workload("large64k", 64 << 10, false, 4, 1, false);
  /** Scenario 3b: one connection, 1 MiB binary, 4 in flight. */
  public static final Workload LARGE_1M = new Workload("large1m", 1 << 20, false, 4, 1, false);
  /** Scenario 4: 1,000 connections, 32-byte binary, one in flight each. */
  public static final Workload MANY = new Workload("many", 32, false, 1, 1000, false);
  /** Scenario 6: one connection, 300-byte JSON-like text, 64 in flight, permessage-deflate on. */
  public static final Workload DEFLATE = new Workload("deflate", 300, true, 64, 1, true);

  /** Every echo workload, in scenario order. */
  public static final List<Workload> ALL =
      List.of(LATENCY, SMALL, SMALL_DEEP, SMALL_FLOOD, LARGE_64K, LARGE_1M, MANY, DEFLATE);

  /** Checks the shape. */
  public Workload {
    if (size < 1 || window < 1 || connections < 1) {
      throw new IllegalArgumentException("size, window and connections must be positive: " + id);
    }
  }

  /**
   * Finds a workload by its id.
   *
   * @param id for example {@code small}
   * @return the workload
   * @throws IllegalArgumentException for an unknown id
   */
  public static Workload byId(String id) {
    for (Workload w : ALL) {
      if (w.id.equals(id)) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload " + id + "; known: "
        + ALL.stream().map(Workload::id).toList());
  }

  /**
   * Whether the client keeps no window: see {@link #SMALL_FLOOD}.
   *
   * @return {@code true} when only the sockets bound what is in flight
   */
  public boolean windowless() {
    return window == NO_WINDOW;
  }

  /**
   * Returns this workload with another connection count (tests use small counts).
   *
   * @param n connections
   * @return the changed workload
   */
  public Workload withConnections(int n) {
    return new Workload(id, size, text, window, n, deflate);
  }
}
