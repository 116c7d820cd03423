package dev.wsjava.bench.e2e;

import java.util.List;

/**
 * The eight scenarios of the suite as the report shows them: what each measures, its metrics
 * (table columns), and which of them its chart draws.
 */
final class Scenarios {
  private Scenarios() {}

  /**
   * A measured quantity.
   *
   * @param key the key results are stored under
   * @param label the column heading
   * @param unit the unit shown after values
   * @param higherIsBetter direction, for the ratios and the chart's note
   * @param decimals digits after the point
   */
  record Metric(String key, String label, String unit, boolean higherIsBetter, int decimals) {}

  /**
   * A scenario.
   *
   * @param id "1" to "8"
   * @param slug the chart's file name, without {@code .svg}
   * @param title the heading
   * @param what one paragraph: the traffic and what is counted
   * @param metrics the table's columns
   * @param charted the chart's panels, each a list of series sharing one scale
   */
  record Scenario(String id, String slug, String title, String what, List<Metric> metrics,
      List<List<Metric>> charted) {}

  static final Metric P50 = new Metric("p50_us", "p50", "µs", false, 1);
  static final Metric P99 = new Metric("p99_us", "p99", "µs", false, 1);
  static final Metric P999 = new Metric("p999_us", "p99.9", "µs", false, 1);
  static final Metric MSGS = new Metric("msgs_per_s", "messages", "msg/s", true, 0);
  static final Metric MSGS_64 = new Metric("msgs_per_s", "64 in flight", "msg/s", true, 0);
  static final Metric MSGS_256 = new Metric("msgs_256_per_s", "256 in flight", "msg/s", true, 0);
  static final Metric ECHOES = new Metric("msgs_per_s", "echoes", "echoes/s", true, 0);
  static final Metric MB_64K = new Metric("mb_64k", "64 KiB", "MB/s", true, 1);
  static final Metric MB_1M = new Metric("mb_1m", "1 MiB", "MB/s", true, 1);
  static final Metric RSS = new Metric("rss_kib_per_conn", "RSS per connection", "KiB", false, 2);
  static final Metric HEAP = new Metric("heap_kib_per_conn", "heap per connection", "KiB", false, 2);
  static final Metric WIRE_DOWN =
      new Metric("wire_down_per_msg", "bytes/msg server→client", "B", false, 1);
  static final Metric WIRE_UP = new Metric("wire_up_per_msg", "bytes/msg client→server", "B", false, 1);
  static final Metric RPS = new Metric("req_per_s", "requests", "req/s", true, 0);
  static final Metric HTTP_LAT = new Metric("latency_avg_us", "mean latency", "µs", false, 1);
  static final Metric CPU_ECHO =
      new Metric("cpu_us_per_msg", "server CPU per echo", "µs", false, 2);
  static final Metric CPU_ECHO_64 =
      new Metric("cpu_us_per_msg", "server CPU per echo, 64", "µs", false, 2);
  static final Metric CPU_ECHO_256 =
      new Metric("cpu_256_us_per_msg", "server CPU per echo, 256", "µs", false, 2);
  static final Metric P99_64 = new Metric("p99_us", "p99, 64", "µs", false, 1);
  static final Metric CPU_REQ =
      new Metric("cpu_us_per_msg", "server CPU per request", "µs", false, 2);
  static final Metric C_P50 = new Metric("lat_p50_us", "latency p50", "µs", false, 1);
  static final Metric C_P99 = new Metric("lat_p99_us", "latency p99", "µs", false, 1);
  static final Metric C_SMALL = new Metric("small_msgs_per_s", "300 B messages", "msg/s", true, 0);
  static final Metric C_CPU_SMALL =
      new Metric("small_cpu_us", "client CPU per 300 B echo", "µs", false, 2);
  static final Metric C_CPU_64K =
      new Metric("cpu_64k_us", "client CPU per 64 KiB echo", "µs", false, 1);

  static final Scenario LATENCY = new Scenario("1", "1-latency", "Latency",
      "One connection, 32-byte text messages, one in flight: round-trip time per message after the"
          + " warm-up, measured by the load client (send to echo fully received).",
      List.of(P50, P99, P999), List.of(List.of(P50, P99, P999)));
  static final Scenario SMALL = new Scenario("2", "2-small-messages", "Small messages",
      "One connection, 300-byte binary messages, pipelined: echoes per second with 64 in flight"
          + " and, in a fresh pair of processes, with 256 in flight; and the server's CPU time"
          + " (user + system, /proc/PID/stat) per echo over the measured interval, which depends"
          + " little on whether the load client was the bottleneck. With 64 in flight both"
          + " processes sleep through much of each batch's round trip, so that rate is mostly the"
          + " kernel's wake-ups; with 256 each wake-up carries a bigger batch, and the rate"
          + " depends more on each side's cost per message.",
      List.of(MSGS_64, MSGS_256, P99_64, CPU_ECHO_64, CPU_ECHO_256),
      List.of(List.of(MSGS_64, MSGS_256), List.of(CPU_ECHO_64, CPU_ECHO_256)));
  static final Scenario LARGE = new Scenario("3", "3-large-messages", "Large messages",
      "One connection, 64 KiB and 1 MiB binary messages, 4 in flight: echoed payload MB/s (10^6"
          + " bytes, one direction).",
      List.of(MB_64K, MB_1M), List.of(List.of(MB_64K), List.of(MB_1M)));
  static final Scenario MANY = new Scenario("4", "4-many-connections", "Many connections",
      "1,000 connections each echoing 32-byte binary messages, one in flight per connection:"
          + " echoes per second over all, the round-trip p99, and the server's CPU time per echo.",
      List.of(ECHOES, P99, CPU_ECHO), List.of(List.of(ECHOES), List.of(P99)));
  static final Scenario IDLE = new Scenario("5", "5-idle-footprint", "Idle footprint",
      "10,000 open idle connections held by a separate client process. Server RSS from"
          + " /proc/PID/status and heap used after a full GC (jcmd GC.run, GC.heap_info), each"
          + " (with − baseline) / 10,000.",
      List.of(RSS, HEAP), List.of(List.of(RSS), List.of(HEAP)));
  static final Scenario DEFLATE = new Scenario("6", "6-compression", "Compression",
      "One connection, 300-byte JSON-like text, 64 in flight, permessage-deflate on (the client"
          + " offers it with client_max_window_bits): echoes per second and socket bytes per"
          + " message each way, frame headers included, counted in the load client.",
      List.of(MSGS, WIRE_DOWN, WIRE_UP), List.of(List.of(MSGS), List.of(WIRE_DOWN)));
  static final Scenario HTTP = new Scenario("7", "7-plain-http", "Plain HTTP",
      "wrk -t2 -c100 on GET / answering 200 text/plain \"hello\" (checked once before): requests"
          + " per second, wrk's mean latency, and the server's CPU time per request.",
      List.of(RPS, HTTP_LAT, CPU_REQ), List.of(List.of(RPS), List.of(CPU_REQ)));
  static final Scenario CLIENT = new Scenario("8", "8-clients", "Client side",
      "Each client library in its own process against one fixed server (the Netty peer),"
          + " running scenarios 1-3 through the same measuring loop: latency p50/p99 (32 B text,"
          + " one in flight), 300 B binary messages/s (64 in flight), 64 KiB and 1 MiB MB/s (4 in"
          + " flight); and the client process's CPU time (all threads) per echo over the measured"
          + " interval, which tells what a client costs when the server or a neighbour set the pace.",
      List.of(C_P50, C_P99, C_SMALL, MB_64K, MB_1M, C_CPU_SMALL, C_CPU_64K),
      List.of(List.of(C_P50, C_P99), List.of(C_SMALL), List.of(MB_64K), List.of(MB_1M),
          List.of(C_CPU_SMALL), List.of(C_CPU_64K)));

  static final List<Scenario> ALL = List.of(LATENCY, SMALL, LARGE, MANY, IDLE, DEFLATE, HTTP, CLIENT);

  /**
   * Finds a scenario.
   *
   * @param id "1" to "8"
   * @return the scenario
   */
  static Scenario byId(String id) {
    return ALL.stream().filter(s -> s.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no scenario " + id + " (1-8)"));
  }
}
