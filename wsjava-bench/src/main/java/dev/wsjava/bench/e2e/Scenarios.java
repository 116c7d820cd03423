package dev.wsjava.bench.e2e;

import java.util.List;

/**
 * The scenarios of the suite as the report shows them: what each measures, its metrics (table
 * columns), the CPU time each side spent per unit of work, and which of them its chart draws.
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
   * @param serverCpu the key of the server's CPU time per unit of the same point, shown beside
   *     this metric's ratios, or {@code null}
   * @param clientCpu the same for the client side, or {@code null}
   */
  record Metric(String key, String label, String unit, boolean higherIsBetter, int decimals,
      String serverCpu, String clientCpu) {
    Metric(String key, String label, String unit, boolean higherIsBetter, int decimals) {
      this(key, label, unit, higherIsBetter, decimals, null, null);
    }

    /** This metric with the CPU keys shown beside its ratios. */
    Metric cpu(Metric server, Metric client) {
      return new Metric(key, label, unit, higherIsBetter, decimals,
          server == null ? null : server.key(), client == null ? null : client.key());
    }
  }

  /**
   * A scenario.
   *
   * @param id "1" to "11", "2c", "4c" (one loop per server), "1n" to "3n" (simulated LAN)
   * @param slug the chart's file name, without {@code .svg}
   * @param title the heading
   * @param what one paragraph: the traffic and what is counted
   * @param metrics the main table's columns
   * @param cpu the CPU table's columns: each side's CPU time per unit of work
   * @param charted the chart's panels, each a list of series sharing one scale
   */
  record Scenario(String id, String slug, String title, String what, List<Metric> metrics,
      List<Metric> cpu, List<List<Metric>> charted) {}

  private static Metric cpuUs(String key, String label) {
    return new Metric(key, label, "µs", false, 2);
  }

  private static Metric cpuMsPerMb(String key, String label) {
    return new Metric(key, label, "ms/MB", false, 2);
  }

  // ---- CPU time per unit: server (S_) and client (C_) ----
  static final Metric S_ECHO = cpuUs("cpu_us_per_msg", "server per echo");
  static final Metric C_ECHO = cpuUs("client_cpu_us_per_msg", "client per echo");
  static final Metric S_ECHO_64 = cpuUs("cpu_us_per_msg", "server per echo, 64");
  static final Metric C_ECHO_64 = cpuUs("client_cpu_us_per_msg", "client per echo, 64");
  static final Metric S_ECHO_256 = cpuUs("cpu_256_us_per_msg", "server per echo, 256");
  static final Metric C_ECHO_256 = cpuUs("client_cpu_256_us_per_msg", "client per echo, 256");
  static final Metric S_ECHO_FLOOD = cpuUs("cpu_flood_us_per_msg", "server per echo, no window");
  static final Metric C_ECHO_FLOOD = cpuUs("client_cpu_flood_us_per_msg", "client per echo, no window");
  static final Metric S_MB_64K = cpuMsPerMb("cpu_64k_ms_per_mb", "server per MB, 64 KiB");
  static final Metric C_MB_64K = cpuMsPerMb("client_cpu_64k_ms_per_mb", "client per MB, 64 KiB");
  static final Metric S_MB_1M = cpuMsPerMb("cpu_1m_ms_per_mb", "server per MB, 1 MiB");
  static final Metric C_MB_1M = cpuMsPerMb("client_cpu_1m_ms_per_mb", "client per MB, 1 MiB");
  static final Metric S_REQ = cpuUs("cpu_us_per_msg", "server per request");
  static final Metric C_REQ = cpuUs("client_cpu_us_per_msg", "wrk per request");
  static final Metric S_CONN = cpuUs("cpu_us_per_conn", "server per connection, ws");
  static final Metric C_CONN = cpuUs("client_cpu_us_per_conn", "client per connection, ws");
  static final Metric S_CONN_TLS = cpuUs("cpu_tls_us_per_conn", "server per connection, wss");
  static final Metric C_CONN_TLS = cpuUs("client_cpu_tls_us_per_conn", "client per connection, wss");
  static final Metric S_LAT = cpuUs("server_cpu_lat_us", "server per echo, latency");
  static final Metric C_LAT = cpuUs("client_cpu_lat_us", "client per echo, latency");
  static final Metric S_SMALL = cpuUs("server_cpu_small_us", "server per 300 B echo");
  static final Metric C_SMALL = cpuUs("small_cpu_us", "client per 300 B echo");

  // ---- rates and latencies, with the CPU shown beside their ratios ----
  static final Metric P50 = new Metric("p50_us", "p50", "µs", false, 1).cpu(S_ECHO, C_ECHO);
  static final Metric P99 = new Metric("p99_us", "p99", "µs", false, 1).cpu(S_ECHO, C_ECHO);
  static final Metric P999 = new Metric("p999_us", "p99.9", "µs", false, 1).cpu(S_ECHO, C_ECHO);
  static final Metric MSGS = new Metric("msgs_per_s", "messages", "msg/s", true, 0).cpu(S_ECHO, C_ECHO);
  static final Metric MSGS_64 =
      new Metric("msgs_per_s", "64 in flight", "msg/s", true, 0).cpu(S_ECHO_64, C_ECHO_64);
  static final Metric MSGS_256 =
      new Metric("msgs_256_per_s", "256 in flight", "msg/s", true, 0).cpu(S_ECHO_256, C_ECHO_256);
  static final Metric MSGS_FLOOD = new Metric("msgs_flood_per_s", "no window", "msg/s", true, 0)
      .cpu(S_ECHO_FLOOD, C_ECHO_FLOOD);
  static final Metric P99_64 = new Metric("p99_us", "p99, 64", "µs", false, 1).cpu(S_ECHO_64, C_ECHO_64);
  static final Metric ECHOES = new Metric("msgs_per_s", "echoes", "echoes/s", true, 0).cpu(S_ECHO, C_ECHO);
  static final Metric MB_64K = new Metric("mb_64k", "64 KiB", "MB/s", true, 1).cpu(S_MB_64K, C_MB_64K);
  static final Metric MB_1M = new Metric("mb_1m", "1 MiB", "MB/s", true, 1).cpu(S_MB_1M, C_MB_1M);
  static final Metric RSS = new Metric("rss_kib_per_conn", "RSS per connection", "KiB", false, 2);
  static final Metric HEAP = new Metric("heap_kib_per_conn", "heap per connection", "KiB", false, 2);
  static final Metric RATIO =
      new Metric("ratio", "compression ratio server→client", "×", true, 1).cpu(S_ECHO, C_ECHO);
  static final Metric WIRE_DOWN =
      new Metric("wire_down_per_msg", "bytes/msg server→client", "B", false, 1);
  static final Metric WIRE_UP = new Metric("wire_up_per_msg", "bytes/msg client→server", "B", false, 1);
  static final Metric RPS = new Metric("req_per_s", "requests", "req/s", true, 0).cpu(S_REQ, C_REQ);
  static final Metric HTTP_LAT =
      new Metric("latency_avg_us", "mean latency", "µs", false, 1).cpu(S_REQ, C_REQ);
  static final Metric CONNS = new Metric("conns_per_s", "ws", "conn/s", true, 0).cpu(S_CONN, C_CONN);
  static final Metric CONN_P50 = new Metric("conn_p50_us", "ws p50", "µs", false, 1).cpu(S_CONN, C_CONN);
  static final Metric CONN_P99 = new Metric("conn_p99_us", "ws p99", "µs", false, 1).cpu(S_CONN, C_CONN);
  static final Metric TLS_CONNS =
      new Metric("tls_conns_per_s", "wss", "conn/s", true, 0).cpu(S_CONN_TLS, C_CONN_TLS);
  static final Metric TLS_P50 =
      new Metric("tls_p50_us", "wss p50", "µs", false, 1).cpu(S_CONN_TLS, C_CONN_TLS);
  static final Metric TLS_P99 =
      new Metric("tls_p99_us", "wss p99", "µs", false, 1).cpu(S_CONN_TLS, C_CONN_TLS);
  static final Metric C_P50 = new Metric("lat_p50_us", "latency p50", "µs", false, 1).cpu(S_LAT, C_LAT);
  static final Metric C_P99 = new Metric("lat_p99_us", "latency p99", "µs", false, 1).cpu(S_LAT, C_LAT);
  static final Metric C_MSGS =
      new Metric("small_msgs_per_s", "300 B messages", "msg/s", true, 0).cpu(S_SMALL, C_SMALL);

  static final Metric S_DELIVERY = new Metric("server_ns_per_delivery", "server per delivery", "ns", false, 0);
  static final Metric C_DELIVERY = new Metric("client_ns_per_delivery", "client per delivery", "ns", false, 0);
  static final Metric DELIVERIES =
      new Metric("deliveries_per_s", "deliveries", "deliveries/s", true, 0).cpu(S_DELIVERY, C_DELIVERY);
  static final Metric FAN_P50 =
      new Metric("fan_p50_ms", "p50", "ms", false, 1).cpu(S_DELIVERY, C_DELIVERY);
  static final Metric FAN_P99 =
      new Metric("fan_p99_ms", "p99", "ms", false, 1).cpu(S_DELIVERY, C_DELIVERY);
  static final Metric SUB_HEAP = new Metric("heap_b_per_subscriber", "heap per subscriber", "B", false, 0);
  static final Metric SUBSCRIBED = new Metric("subscribed_s", "connect + subscribe all", "s", false, 1);

  private static final String LAN = " Over the simulated LAN: server and client in two network"
      + " namespaces joined by a veth pair, shaped as the Method section says.";

  static final Scenario LATENCY = new Scenario("1", "1-latency", "Latency",
      "One connection, 32-byte text messages, one in flight: round-trip time per message after the"
          + " warm-up, measured by the load client (send to echo fully received). wsjava-nio runs"
          + " twice: with its default settings (its loop polls up to 50 µs after I/O before it"
          + " blocks) and with the polling off (wsjava-nio-spin0), as every peer's loop blocks at"
          + " once; the CPU table shows what the polling costs per echo.",
      List.of(P50, P99, P999), List.of(S_ECHO, C_ECHO),
      List.of(List.of(P50, P99, P999), List.of(S_ECHO)));
  static final Scenario SMALL = new Scenario("2", "2-small-messages", "Small messages",
      "One connection, 300-byte binary messages, pipelined: echoes per second with 64 in flight"
          + " and, in a fresh pair of processes, with 256 in flight. With 64 in flight both"
          + " processes sleep through much of each batch's round trip, so that rate is mostly the"
          + " kernel's wake-ups; with 256 each wake-up carries a bigger batch, and the rate"
          + " depends more on each side's cost per message, which the CPU table gives. A third"
          + " fresh pair runs without a window, as the seed's load test does: the client writes"
          + " whenever its socket takes bytes and reads echoes as they come, so only the sockets'"
          + " buffers (and the server's reading) bound what is in flight, and each server's cost"
          + " per message is measured at full pipelining (no latency there: it is queueing).",
      List.of(MSGS_64, MSGS_256, MSGS_FLOOD, P99_64),
      List.of(S_ECHO_64, S_ECHO_256, S_ECHO_FLOOD, C_ECHO_64, C_ECHO_256, C_ECHO_FLOOD),
      List.of(List.of(MSGS_64, MSGS_256, MSGS_FLOOD), List.of(S_ECHO_64, S_ECHO_256, S_ECHO_FLOOD)));
  static final Scenario SMALL_ONE_LOOP = new Scenario("2c", "2c-small-messages-one-loop",
      "Small messages, one loop per server",
      "Scenario 2 at 64 in flight again, every JVM server started with exactly one event loop,"
          + " selector or worker for its I/O where the library lets one choose (the notes say"
          + " how), and one carrier thread for virtual threads: a comparison per core.",
      List.of(MSGS_64, P99_64), List.of(S_ECHO_64, C_ECHO_64),
      List.of(List.of(MSGS_64), List.of(S_ECHO_64)));
  static final Scenario LARGE = new Scenario("3", "3-large-messages", "Large messages",
      "One connection, 64 KiB and 1 MiB binary messages, 4 in flight: echoed payload MB/s (10^6"
          + " bytes, one direction), and each side's CPU time per MB echoed.",
      List.of(MB_64K, MB_1M), List.of(S_MB_64K, S_MB_1M, C_MB_64K, C_MB_1M),
      List.of(List.of(MB_64K), List.of(MB_1M), List.of(S_MB_64K, S_MB_1M)));
  static final Scenario MANY = new Scenario("4", "4-many-connections", "Many connections",
      "1,000 connections each echoing 32-byte binary messages, one in flight per connection:"
          + " echoes per second over all, and the round-trip p99.",
      List.of(ECHOES, P99), List.of(S_ECHO, C_ECHO),
      List.of(List.of(ECHOES), List.of(P99), List.of(S_ECHO)));
  static final Scenario MANY_ONE_LOOP = new Scenario("4c", "4c-many-connections-one-loop",
      "Many connections, one loop per server",
      "Scenario 4 again, every JVM server started with exactly one event loop, selector or"
          + " worker for its I/O where the library lets one choose (the notes say how), and one"
          + " carrier thread for virtual threads: a comparison per core.",
      List.of(ECHOES, P99), List.of(S_ECHO, C_ECHO),
      List.of(List.of(ECHOES), List.of(S_ECHO)));
  static final Scenario IDLE = new Scenario("5", "5-idle-footprint", "Idle footprint",
      "10,000 open idle connections held by a separate client process. Server RSS from"
          + " /proc/PID/status and heap used after a full GC (jcmd GC.run, GC.heap_info), each"
          + " (with − baseline) / 10,000. No messages: no CPU time per message.",
      List.of(RSS, HEAP), List.of(), List.of(List.of(RSS), List.of(HEAP)));
  static final Scenario DEFLATE = new Scenario("6", "6-compression", "Compression",
      "One connection, 300-byte JSON-like text, 64 in flight, permessage-deflate on (the client"
          + " offers it with client_max_window_bits and compresses at level 1): echoes per second,"
          + " the compression ratio of the server's messages (payload bytes ÷ socket bytes per"
          + " message, server→client), and socket bytes per message each way, frame headers"
          + " included, counted in the load client. Every server compresses at the suite's level"
          + " (the Method section); wsjava-nio-level3 is wsjava at its own default level.",
      List.of(MSGS, RATIO, WIRE_DOWN, WIRE_UP), List.of(S_ECHO, C_ECHO),
      List.of(List.of(MSGS), List.of(RATIO), List.of(S_ECHO)));
  static final Scenario HTTP = new Scenario("7", "7-plain-http", "Plain HTTP",
      "wrk -t2 -c100 on GET / answering 200 text/plain \"hello\" (checked once before): requests"
          + " per second, wrk's mean latency; the CPU table has the server's and wrk's CPU time per"
          + " request.",
      List.of(RPS, HTTP_LAT), List.of(S_REQ, C_REQ), List.of(List.of(RPS), List.of(S_REQ)));
  static final Scenario CLIENT = new Scenario("8", "8-clients", "Client side",
      "Each client library in its own process against one fixed server (the Netty peer),"
          + " running scenarios 1-3 through the same measuring loop: latency p50/p99 (32 B text,"
          + " one in flight), 300 B binary messages/s (64 in flight), 64 KiB and 1 MiB MB/s (4 in"
          + " flight). The CPU table has the client process's CPU time (all threads) per echo or"
          + " per MB, which tells what a client costs when the server or a neighbour set the"
          + " pace, and the fixed server's. wsjava-nio-spin0 is the NIO client with its loop's"
          + " polling off.",
      List.of(C_P50, C_P99, C_MSGS, MB_64K, MB_1M),
      List.of(C_LAT, C_SMALL, C_MB_64K, C_MB_1M, S_LAT, S_SMALL, S_MB_64K, S_MB_1M),
      List.of(List.of(C_P50, C_P99), List.of(C_MSGS), List.of(MB_64K), List.of(MB_1M),
          List.of(C_LAT), List.of(C_SMALL)));
  static final Scenario CONNECT = new Scenario("9", "9-connect", "Connect, server side",
      "New connections one after the other from the raw connect client: TCP connect, TLS"
          + " handshake for wss (a full one each time: the client resumes no session), the"
          + " opening handshake, then a normal close (the client's close frame, the server's"
          + " answer, the socket closed). Connections per second, and the time from the start of"
          + " the connect to the checked 101 answer (p50, p99).",
      List.of(CONNS, CONN_P50, CONN_P99, TLS_CONNS, TLS_P50, TLS_P99),
      List.of(S_CONN, S_CONN_TLS, C_CONN, C_CONN_TLS),
      List.of(List.of(CONNS, TLS_CONNS), List.of(CONN_P50, TLS_P50), List.of(S_CONN, S_CONN_TLS)));
  static final Scenario CLIENT_CONNECT = new Scenario("10", "10-client-connect", "Connect, client side",
      "Each client library opening connections one after the other against the fixed Netty"
          + " server (ws, and wss with the JDK's TLS under Netty), through its own API: connect"
          + " until the connection is open (p50, p99), then close it normally. Each library keeps"
          + " its defaults, so a client that resumes TLS sessions does.",
      List.of(CONNS, CONN_P50, CONN_P99, TLS_CONNS, TLS_P50, TLS_P99),
      List.of(C_CONN, C_CONN_TLS, S_CONN, S_CONN_TLS),
      List.of(List.of(CONNS, TLS_CONNS), List.of(CONN_P50, TLS_P50), List.of(C_CONN, C_CONN_TLS)));
  static final Scenario LAN_LATENCY = new Scenario("1n", "1n-latency-lan", "Latency over a simulated LAN",
      "Scenario 1's traffic." + LAN, List.of(P50, P99, P999), List.of(S_ECHO, C_ECHO),
      List.of(List.of(P50, P99), List.of(S_ECHO)));
  static final Scenario LAN_SMALL = new Scenario("2n", "2n-small-messages-lan",
      "Small messages over a simulated LAN", "Scenario 2's traffic at 64 in flight." + LAN,
      List.of(MSGS_64, P99_64), List.of(S_ECHO_64, C_ECHO_64),
      List.of(List.of(MSGS_64), List.of(S_ECHO_64)));
  static final Scenario LAN_LARGE = new Scenario("3n", "3n-large-messages-lan",
      "Large messages over a simulated LAN", "Scenario 3's traffic at 64 KiB (at the link's rate 1 MiB"
          + " messages measure the same link)." + LAN,
      List.of(MB_64K), List.of(S_MB_64K, C_MB_64K), List.of(List.of(MB_64K), List.of(S_MB_64K)));

  static final Scenario FAN_OUT = new Scenario("11", "11-fan-out", "Fan-out to one topic",
      "One topic, 10,000 subscribers (2,000 in a quick run), 300-byte text messages published on"
          + " the server, at most 8 unacknowledged: a message counts once every subscriber has it"
          + " (dev.wsjava.bench.FanOutBench, docs/benchmarks/FANOUT.md). Three servers, each on two"
          + " event loops with TCP_NODELAY and no compression: wsjava's Topics, Netty's"
          + " ChannelGroup.writeAndFlush of one frame, Vert.x's event bus (one consumer per"
          + " WebSocket). The server runs in the benchmark's process and the subscribers are raw"
          + " sockets on one selector thread in a child process; neither is pinned, so both share"
          + " the two cores and the figures compare servers rather than give a ceiling. Deliveries"
          + " per second, publish-to-receive latency per delivery (p50, p99; a message waits for"
          + " up to 7 before it), heap per subscriber after a full GC, the time to connect and"
          + " subscribe all, and each side's CPU time per delivery.",
      List.of(DELIVERIES, FAN_P50, FAN_P99, SUB_HEAP, SUBSCRIBED), List.of(S_DELIVERY, C_DELIVERY),
      List.of(List.of(DELIVERIES), List.of(FAN_P50, FAN_P99), List.of(S_DELIVERY)));

  static final List<Scenario> ALL = List.of(LATENCY, SMALL, SMALL_ONE_LOOP, LARGE, MANY,
      MANY_ONE_LOOP, IDLE, DEFLATE, HTTP, CLIENT, CONNECT, CLIENT_CONNECT, FAN_OUT, LAN_LATENCY,
      LAN_SMALL, LAN_LARGE);

  /**
   * Finds a scenario.
   *
   * @param id its id
   * @return the scenario
   */
  static Scenario byId(String id) {
    return ALL.stream().filter(s -> s.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no scenario " + id + "; known: "
            + ALL.stream().map(Scenario::id).toList()));
  }
}
