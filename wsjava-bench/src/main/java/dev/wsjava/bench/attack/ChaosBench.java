package dev.wsjava.bench.attack;

import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./bench chaos}: issue 35's attacks one after another, each against a fresh server
 * process at {@code -Xmx512m}: {@code wsjava serve} on each chosen transport (its defaults) and
 * Netty's echo peer of {@code bench-peers/netty}, side by side. While each attack runs, an honest
 * client (on 127.0.0.1) sends 1 KiB echoes one after the other; after it, the attackers leave, and
 * a new honest client must connect and echo. Prints one Markdown row per attack and server; see
 * docs/RELIABILITY.md. When the honest client's echoes fail, the row says how (a close with its
 * code and reason) and what the server logged first. "Connections held after" counts the server's
 * TCP sockets that are not listening, waited for (at most {@value #SETTLE_SECONDS} s) to come back
 * to their count before the attack.
 *
 * <p>Command line: {@code [--root DIR] [--seconds N] [--transport nio|blocking|both] [--attacks
 * fds,room,reset,bombs,trickle]}: N is the length of each attack (10 by default, at most 120).
 * Every loop is bounded in count and time, and every address is loopback: attackers spread over
 * 127.0.0.2 to 127.0.0.9, so that {@code serve}'s per-address caps (256 connections, 100
 * upgrades a second) meet the attack as they would meet several hosts.
 */
public final class ChaosBench {
  private static final int MIB = 1 << 20;
  /** The descriptor limit of the server in the descriptor attack. */
  private static final int NOFILE = 256;
  /** Connections the descriptor attack opens: well past {@link #NOFILE}. */
  private static final int FD_ATTACKERS = 400;
  private static final int ROOM_NON_READERS = 50;
  /** The room's publisher: 300-byte messages at this many a second, in batches. */
  private static final int ROOM_RATE = 2_000;
  private static final int ROOM_BATCH = 100;
  private static final int RESETTERS = 64;
  private static final int BOMBERS = 64;
  private static final int TRICKLERS = 64;
  /** How long the after-phase echoes; a server that cannot echo within it did not survive. */
  private static final Duration AFTER = Duration.ofSeconds(3);
  private static final int WAIT_MS = 5_000;
  /** How long the server has, after the last client left, to release its connections. */
  private static final int SETTLE_SECONDS = 5;
  /** How long past an attack its attackers' ends are awaited. */
  private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private ChaosBench() {}

  enum Attack {
    FDS("fds", "descriptors: " + FD_ATTACKERS + " idle, ulimit -n " + NOFILE),
    ROOM("room", "slow room: " + ROOM_NON_READERS + " non-readers, 2,000 msg/s"),
    RESET("reset", "flood then reset: " + RESETTERS + " x 16 MiB, RST"),
    BOMBS("bombs", "deflate bombs: " + BOMBERS + " x 1 GiB"),
    TRICKLE("trickle", "frame trickle: " + TRICKLERS + " x 1 B/s");

    final String name;
    final String label;

    Attack(String name, String label) {
      this.name = name;
      this.label = label;
    }
  }

  /**
   * Runs the attacks and prints the table.
   *
   * @param args see the class comment
   * @throws Exception when a server cannot be started
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(".");
    int seconds = 10;
    String transport = "both";
    List<String> attacks = List.of("fds", "room", "reset", "bombs", "trickle");
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[i + 1]);
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--transport" -> transport = args[i + 1];
        case "--attacks" -> attacks = List.of(args[i + 1].split(","));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (seconds < 1 || seconds > 120) {
      throw new IllegalArgumentException("--seconds takes 1 to 120, not " + seconds);
    }
    List<String> servers = switch (transport) {
      case "nio" -> List.of("wsjava-nio", "netty");
      case "blocking" -> List.of("wsjava-blocking", "netty");
      case "both" -> List.of("wsjava-nio", "wsjava-blocking", "netty");
      default -> throw new IllegalArgumentException("--transport takes nio, blocking or both");
    };
    Duration window = Duration.ofSeconds(seconds);
    System.out.println("| attack | server | survived | echo during: n, p50, p99, max"
        + " | echo after: n, p50, p99, max | peak heap | peak RSS | fds: start, peak, after"
        + " | connections held after | attackers |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (String a : attacks) {
      Attack attack = null;
      for (Attack x : Attack.values()) {
        if (x.name.equals(a)) {
          attack = x;
        }
      }
      if (attack == null) {
        throw new IllegalArgumentException("unknown attack " + a);
      }
      if (attack == Attack.BOMBS) {
        AttackBench.bomb(); // made once, before any server starts
      }
      for (String s : servers) {
        System.out.println(run(root.toAbsolutePath().normalize(), s, attack, window));
        System.out.flush();
      }
    }
  }

  private static String run(Path root, String server, Attack attack, Duration window)
      throws IOException, InterruptedException {
    String row = "| " + attack.label + " | " + server + " | ";
    boolean netty = server.equals("netty");
    if (netty && attack == Attack.ROOM) {
      return row + "n/a (the echo peer has no room) | | | | | | | |";
    }
    try (AttackBench.Forked srv = AttackBench.Forked.start(root, server,
        attack == Attack.BOMBS, attack == Attack.FDS ? NOFILE : 0, List.of())) {
      Fds fds = new Fds(srv.process.pid());
      WebSocketClient client = WebSocketClient.builder()
          .config(WebSocketConfig.builder().deflate(null).build()).build();
      List<Socket> attackers = new CopyOnWriteArrayList<>();
      Map<String, Integer> outcomes = new TreeMap<>();
      String during;
      try {
        WebSocket honest = client.open(URI.create("ws://127.0.0.1:" + srv.port + "/echo"));
        long end = System.nanoTime() + window.toNanos();
        AtomicBoolean stop = new AtomicBoolean();
        Thread attackThread = Thread.ofVirtual().start(() -> {
          try {
            attack(attack, srv.port, attackers, outcomes, end, stop);
          } catch (IOException | RuntimeException e) {
            synchronized (outcomes) {
              outcomes.merge("attack ended: " + e.getClass().getSimpleName(), 1, Integer::sum);
            }
          }
        });
        Thread sampler = Thread.ofVirtual().start(() -> {
          while (!stop.get() && System.nanoTime() < end) {
            fds.sample();
            sleep(200);
          }
        });
        Echoes honestEchoes = Echoes.run(honest, end);
        during = honestEchoes.toString();
        if (honestEchoes.error != null) { // the server's side of it: what it logged first
          during += serverProblem(srv);
        }
        stop.set(true);
        attackThread.join(TimeUnit.SECONDS.toMillis(30));
        sampler.join();
        srv.sampleHeap();
        honest.abort();
      } finally {
        for (Socket s : attackers) {
          closeQuietly(s);
        }
      }
      sleep(2_000); // the server notices the attackers left
      String after;
      String survived;
      try {
        WebSocket fresh = client.connect(URI.create("ws://127.0.0.1:" + srv.port + "/echo"))
            .get(WAIT_MS, TimeUnit.MILLISECONDS);
        Echoes e = Echoes.run(fresh, System.nanoTime() + AFTER.toNanos());
        fresh.abort();
        after = e.toString();
        survived = srv.process.isAlive() && e.error == null && !e.micros.isEmpty() ? "yes"
            : "**no** (" + (srv.process.isAlive() ? "no echo" : srv.survived()) + ")";
      } catch (Exception e) {
        after = "-";
        survived = "**no** (" + (srv.process.isAlive() ? "accepts no client: "
            + e.getClass().getSimpleName() : srv.survived()) + ")";
      }
      client.close();
      // The server releases what the last clients held: wait (bounded) for its connections to be
      // back at their count before the attack, rather than read the count once at a fixed time.
      long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS);
      while (fds.connections() > fds.startConnections && System.nanoTime() < settle) {
        sleep(100);
      }
      fds.sample();
      int heldAfter = fds.connections() - fds.startConnections;
      String rss = srv.peakRss();
      return row + survived + " | " + during + " | " + after + " | " + srv.peakHeap() + " | "
          + rss + " | " + fds + " | " + heldAfter + " | "
          + outcomes.toString().replaceAll("[{}]", "") + " |";
    }
  }

  /** Runs one attack until {@code end} (or {@code stop}); records what happened to attackers. */
  private static void attack(Attack attack, int port, List<Socket> attackers,
      Map<String, Integer> outcomes, long end, AtomicBoolean stop) throws IOException {
    switch (attack) {
      case FDS -> {
        int upgraded = 0;
        for (int i = 0; i < FD_ATTACKERS && !stop.get() && System.nanoTime() < end; i++) {
          try {
            attackers.add(upgrade(port, "/echo", 2 + i % 8, false));
            upgraded++;
          } catch (IOException e) {
            count(outcomes, "refused: " + first(e.getMessage()));
          }
        }
        count(outcomes, "upgraded", upgraded);
      }
      case ROOM -> room(port, attackers, outcomes, end, stop);
      case RESET -> {
        byte[] sixteen = new byte[16 * MIB];
        for (int round = 0; round < 100 && !stop.get() && System.nanoTime() < end; round++) {
          List<Socket> wave = new ArrayList<>();
          for (int i = 0; i < RESETTERS; i++) {
            Socket s = tryUpgrade(port, "/echo", 2 + i % 8, false, outcomes);
            if (s != null) {
              wave.add(s);
              attackers.add(s);
              Thread.ofVirtual().start(() -> {
                try {
                  AttackBench.writeFrame(s.getOutputStream(), 0x2, true, 0, sixteen,
                      new AtomicLong());
                } catch (IOException e) {
                  // reset below, or closed by the server
                }
              });
            }
          }
          sleep(1_000); // flooding, never reading
          for (Socket s : wave) {
            s.setSoLinger(true, 0);
            closeQuietly(s); // a reset while the server is paused on it
            attackers.remove(s);
          }
          count(outcomes, "reset", wave.size());
        }
      }
      case BOMBS -> {
        List<CompletableFuture<String>> closes = new ArrayList<>();
        for (int i = 0; i < BOMBERS && System.nanoTime() < end; i++) {
          Socket s = tryUpgrade(port, "/echo", 2 + i % 8, true, outcomes);
          if (s == null) {
            continue;
          }
          attackers.add(s);
          closes.add(CompletableFuture.supplyAsync(
              () -> AttackBench.readUntilClose(s, null), Thread::startVirtualThread));
          Thread.ofVirtual().start(() -> {
            try {
              AttackBench.writeFrame(s.getOutputStream(), 0x2, true, 4, AttackBench.bomb(),
                  new AtomicLong());
            } catch (IOException e) {
              // the server closed it
            }
          });
        }
        awaitOutcomes(closes, outcomes, end + GRACE_NANOS);
      }
      case TRICKLE -> {
        List<Socket> slow = new ArrayList<>();
        List<CompletableFuture<String>> closes = new ArrayList<>();
        for (int i = 0; i < TRICKLERS && System.nanoTime() < end; i++) {
          Socket s = tryUpgrade(port, "/echo", 2 + i % 8, false, outcomes);
          if (s != null) {
            slow.add(s);
            attackers.add(s);
            closes.add(CompletableFuture.supplyAsync(
                () -> AttackBench.readUntilClose(s, null), Thread::startVirtualThread));
            // A binary frame announcing 1 MiB, masked with the zero key; the payload trickles.
            s.getOutputStream().write(new byte[] {(byte) 0x82, (byte) (0x80 | 127),
                0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0});
          }
        }
        for (int tick = 0; tick < 120 && !stop.get() && System.nanoTime() < end; tick++) {
          for (Socket s : slow) {
            try {
              s.getOutputStream().write('t');
            } catch (IOException e) {
              // cut: its reader says how
            }
          }
          sleep(1_000);
        }
        awaitOutcomes(closes, outcomes, end + GRACE_NANOS);
      }
    }
  }

  /**
   * The slow room: non-readers on /chat, a reading member, and a publisher of 300-byte messages
   * at {@link #ROOM_RATE} a second (at most 240,000, or until the end); counts what the reader got
   * and how each non-reader ended.
   */
  private static void room(int port, List<Socket> attackers, Map<String, Integer> outcomes,
      long end, AtomicBoolean stop) throws IOException {
    List<Socket> mute = new ArrayList<>();
    for (int i = 0; i < ROOM_NON_READERS; i++) {
      Socket s = new Socket();
      s.setReceiveBufferSize(4096);
      s.bind(new InetSocketAddress("127.0.0." + (2 + i % 8), 0));
      s.connect(new InetSocketAddress("127.0.0.1", port), WAIT_MS);
      handshake(s, "/chat?nick=mute" + i, false);
      mute.add(s);
      attackers.add(s);
    }
    WebSocketClient c = WebSocketClient.builder().build();
    AtomicBoolean readerDone = new AtomicBoolean();
    try {
      AtomicLong got = new AtomicLong();
      c.connect(URI.create("ws://127.0.0.1:" + port + "/chat?nick=reader"),
          new dev.wsjava.WebSocketListener() {
            @Override
            public void onText(WebSocket ws, String text) {
              if (text.startsWith("pub: ")) {
                got.incrementAndGet();
              }
            }

            @Override
            public void onClose(WebSocket ws, int code, String reason) {
              if (!readerDone.get()) { // before the end of the attack: closed as slow
                count(outcomes, "reader closed " + code);
              }
            }
          }).get(WAIT_MS, TimeUnit.MILLISECONDS);
      WebSocket pub = c.connect(URI.create("ws://127.0.0.1:" + port + "/chat?nick=pub"),
          new dev.wsjava.WebSocketListener() {}).get(WAIT_MS, TimeUnit.MILLISECONDS);
      String body = "m".repeat(300);
      long sent = 0;
      long start = System.nanoTime();
      for (int i = 0; i < 240_000 && !stop.get() && System.nanoTime() < end; i++) {
        CompletableFuture<Void> f = pub.sendText(body);
        sent++;
        if (i % ROOM_BATCH == ROOM_BATCH - 1) {
          // A chat pace a reader keeps up with: the room is only a problem for who does not read.
          f.get(Math.max(1, (end - System.nanoTime()) / 1_000_000) + WAIT_MS,
              TimeUnit.MILLISECONDS);
          long due = start + (i + 1) * 1_000_000_000L / ROOM_RATE;
          sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
        }
      }
      sleep(1_000);
      readerDone.set(true);
      count(outcomes, "published", (int) sent);
      count(outcomes, "reader got", (int) got.get());
    } catch (Exception e) {
      count(outcomes, "room failed: " + e.getClass().getSimpleName());
    } finally {
      c.close();
    }
    List<CompletableFuture<String>> closes = new ArrayList<>();
    for (Socket s : mute) {
      closes.add(CompletableFuture.supplyAsync(
          () -> AttackBench.readUntilClose(s, null), Thread::startVirtualThread));
    }
    awaitOutcomes(closes, outcomes, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
  }

  /** Counts each attacker's end (close code, "eof", "reset"), or "open" if none by the end. */
  private static void awaitOutcomes(List<CompletableFuture<String>> closes,
      Map<String, Integer> outcomes, long end) {
    for (CompletableFuture<String> f : closes) {
      String o;
      try {
        o = f.get(Math.max(1, (end - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        o = "open";
      }
      count(outcomes, o);
    }
  }

  private static Socket tryUpgrade(int port, String path, int host, boolean deflate,
      Map<String, Integer> outcomes) {
    try {
      return upgrade(port, path, host, deflate);
    } catch (IOException e) {
      count(outcomes, "refused: " + first(e.getMessage()));
      return null;
    }
  }

  /** A WebSocket to {@code path} from 127.0.0.{@code host}, upgraded by hand. */
  private static Socket upgrade(int port, String path, int host, boolean deflate)
      throws IOException {
    Socket s = new Socket();
    try {
      s.bind(new InetSocketAddress("127.0.0." + host, 0));
      s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      handshake(s, path, deflate);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private static void handshake(Socket s, String path, boolean deflate) throws IOException {
    AttackBench.upgrade(s, path, deflate, WAIT_MS);
  }

  private static String first(String message) {
    if (message == null) {
      return "?";
    }
    int nl = message.indexOf('\r');
    return (nl < 0 ? message : message.substring(0, nl)).replace('|', '/');
  }

  private static void count(Map<String, Integer> outcomes, String what) {
    count(outcomes, what, 1);
  }

  private static void count(Map<String, Integer> outcomes, String what, int n) {
    synchronized (outcomes) {
      outcomes.merge(what, n, Integer::sum);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // gone already
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * For a row whose honest client failed: the first error the server logged (a line that names
   * an exception or error), which says the server's side of it.
   */
  private static String serverProblem(AttackBench.Forked srv) {
    try {
      for (String line : Files.readAllLines(srv.dir.resolve("out.log"))) {
        if (!line.startsWith("\t") && (line.contains("Exception") || line.contains("Error"))) {
          String l = line.strip();
          return "; server: " + (l.length() > 120 ? l.substring(0, 120) + "..." : l)
              .replace('|', '/');
        }
      }
    } catch (IOException | RuntimeException e) {
      // no log
    }
    return "; server logged no error";
  }

  /**
   * The server's open descriptors, from /proc: at start, the peak seen, and the last; and its TCP
   * connections (sockets of the process in /proc/PID/net/tcp and tcp6 that are not listening:
   * Unix sockets, such as a JVM's attach listener, are not connections).
   */
  private static final class Fds {
    final long pid;
    final int start;
    final int startConnections;
    volatile int peak;
    volatile int last;

    Fds(long pid) {
      this.pid = pid;
      this.start = count();
      this.startConnections = connections();
      this.peak = start;
      this.last = start;
    }

    void sample() {
      int n = count();
      last = n;
      peak = Math.max(peak, n);
    }

    /**
     * Open descriptors, less the attach listener's socket that {@code jcmd} (the heap sample)
     * makes the JVM open for good: the tool's, not the server's.
     */
    private int count() {
      try (var list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
        java.util.Set<String> attach = attachListener();
        return (int) list.filter(p -> {
          try {
            String link = Files.readSymbolicLink(p).toString();
            return !(link.startsWith("socket:[")
                && attach.contains(link.substring("socket:[".length(), link.length() - 1)));
          } catch (IOException e) {
            return false; // closed meanwhile
          }
        }).count();
      } catch (IOException | RuntimeException e) {
        return -1; // gone, or not Linux
      }
    }

    /**
     * Inodes of the JVM's attach listener socket, from /proc/PID/net/unix: bound as
     * /tmp/.java_pidPID.tmp and renamed to /tmp/.java_pidPID.
     */
    private java.util.Set<String> attachListener() throws IOException {
      java.util.Set<String> inodes = new java.util.HashSet<>();
      Path unix = Path.of("/proc", Long.toString(pid), "net", "unix");
      if (Files.exists(unix)) {
        for (String line : Files.readAllLines(unix)) {
          String[] f = line.trim().split("\\s+");
          // Num RefCount Protocol Flags Type St Inode Path
          if (f.length > 7 && f[7].matches(".*/\\.java_pid" + pid + "(\\.tmp)?")) {
            inodes.add(f[6]);
          }
        }
      }
      return inodes;
    }

    /** The process's TCP sockets that are not listening; -1 when /proc cannot tell. */
    int connections() {
      java.util.Set<String> inodes = new java.util.HashSet<>();
      try (var list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
        list.forEach(p -> {
          try {
            String link = Files.readSymbolicLink(p).toString();
            if (link.startsWith("socket:[")) {
              inodes.add(link.substring("socket:[".length(), link.length() - 1));
            }
          } catch (IOException e) {
            // closed meanwhile
          }
        });
        int n = 0;
        for (String table : List.of("tcp", "tcp6")) {
          Path t = Path.of("/proc", Long.toString(pid), "net", table);
          if (!Files.exists(t)) {
            continue;
          }
          for (String line : Files.readAllLines(t)) {
            String[] f = line.trim().split("\\s+");
            // sl local remote st tx:rx tr:when retrnsmt uid timeout inode ...; st 0A is LISTEN
            if (f.length > 9 && !f[0].equals("sl") && !f[3].equals("0A") && inodes.contains(f[9])) {
              n++;
            }
          }
        }
        return n;
      } catch (IOException | RuntimeException e) {
        return -1; // gone, or not Linux
      }
    }

    @Override
    public String toString() {
      return start + ", " + peak + ", " + last;
    }
  }

  /** 1 KiB echoes one after the other until {@code end}: the honest client's latencies. */
  private record Echoes(List<Long> micros, String error) {
    static Echoes run(WebSocket ws, long end) {
      List<Long> micros = new ArrayList<>();
      String error = null;
      byte[] kib = new byte[1024];
      try {
        for (int i = 0; i < 1_000_000 && System.nanoTime() < end; i++) {
          long t0 = System.nanoTime();
          Duration wait = Duration.ofNanos(Math.max(0, end - t0)).plusMillis(WAIT_MS);
          ws.sendBinary(kib).get(wait.toMillis(), TimeUnit.MILLISECONDS);
          Message m = ws.receive(wait);
          if (!(m instanceof Message.Binary b) || b.data().remaining() != kib.length) {
            error = "no echo within " + wait.toMillis() + " ms";
            break;
          }
          micros.add((System.nanoTime() - t0) / 1_000);
        }
      } catch (Exception e) {
        error = describe(e);
      }
      return new Echoes(micros, error);
    }

    /** The exception's name, with the close code and reason when the connection was closed. */
    private static String describe(Throwable e) {
      Throwable t = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
          ? e.getCause() : e;
      String s = t.getClass().getSimpleName();
      if (t instanceof dev.wsjava.WebSocketClosedException c) {
        s += " " + c.code() + (c.reason().isEmpty() ? "" : " (" + c.reason() + ")");
      }
      return s.replace('|', '/');
    }

    @Override
    public String toString() {
      String e = error == null ? "" : ", then " + error;
      if (micros.isEmpty()) {
        return "0" + e;
      }
      List<Long> sorted = new ArrayList<>(micros);
      Collections.sort(sorted);
      return String.format("%,d, %.1f, %.1f, %.1f ms%s", sorted.size(),
          at(sorted, 0.50) / 1e3, at(sorted, 0.99) / 1e3, sorted.get(sorted.size() - 1) / 1e3, e);
    }

    private static long at(List<Long> sorted, double q) {
      return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * q)));
    }
  }
}
