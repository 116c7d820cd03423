package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.KeepaliveConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * The NIO connection's idle, keepalive and close timers on a hand-driven clock: each rule is
 * checked at the instant it should act and the instant before, with no socket and no sleep.
 */
class ConnectionTimersTest {
  private static final Duration NONE = Duration.ZERO;

  private final ManualScheduler clock = new ManualScheduler();

  @Test
  void anIdleConnectionIsClosedWith1001AtTheIdleTimeoutAndNotBefore() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.timers.armKeepalive();
    clock.advance(ms(299));
    assertThat(peer.log).isEmpty();
    clock.advance(ms(1));
    assertThat(peer.log).containsExactly("300 ms: idle: idle timeout: nothing received for 300 ms");
  }

  @Test
  void whatArrivesPushesTheIdleDeadlineOn() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.timers.armKeepalive();
    clock.advance(ms(200));
    peer.receive();
    clock.advance(ms(299)); // 499 ms: 299 ms after the last byte
    assertThat(peer.log).isEmpty();
    clock.advance(ms(1));
    assertThat(peer.log).containsExactly("500 ms: idle: idle timeout: nothing received for 300 ms");
  }

  @Test
  void aPausedConnectionIsNotTakenForIdleAndItsTimerRunsAgainOnceResumed() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.timers.armKeepalive();
    peer.paused = true; // reading waits for the application: the quiet is not the peer's fault
    clock.advance(ms(1000));
    assertThat(peer.log).isEmpty();
    peer.paused = false; // the check at 900 ms pushed the deadline to 1200 ms
    clock.advance(ms(199));
    assertThat(peer.log).isEmpty();
    clock.advance(ms(1));
    assertThat(peer.log).containsExactly("1200 ms: idle: idle timeout: nothing received for 300 ms");
  }

  @Test
  void aPausedConnectionProbesItsPeerEverySecondUntilReadingResumes() {
    Peer peer = new Peer(config(NONE, NONE, NONE));
    peer.paused = true;
    peer.timers.armPausedProbe();
    peer.timers.armPausedProbe(); // armed once however often asked
    clock.advance(ms(999));
    assertThat(peer.log).isEmpty();
    clock.advance(ms(1));
    clock.advance(ms(1000));
    assertThat(peer.log).containsExactly("1000 ms: probe", "2000 ms: probe");
    peer.paused = false; // the probe at 3000 ms finds it reading and stops
    clock.advance(ms(5000));
    assertThat(peer.log).containsExactly("1000 ms: probe", "2000 ms: probe", "3000 ms: probe");
  }

  @Test
  void pingsKeepAQuietLivePeerOpenPastTheIdleTimeout() {
    Peer peer = new Peer(config(ms(300), ms(100), NONE));
    peer.timers.armKeepalive();
    for (int i = 1; i <= 4; i++) {
      clock.advance(ms(100)); // each ping follows 100 ms of quiet
      assertThat(peer.pings).as("pings after %d ms", clock.elapsedMillis()).isEqualTo(i);
      clock.advance(ms(10));
      peer.receive(); // its pong
    }
    assertThat(peer.log).containsExactly(
        "100 ms: ping", "210 ms: ping", "320 ms: ping", "430 ms: ping");
  }

  @Test
  void aPeerThatStopsAnsweringIsTakenAsDeadAtTheDeadPeerTimeoutAfterThePing() {
    Peer peer = new Peer(config(NONE, ms(100), ms(250)));
    peer.timers.armKeepalive();
    clock.advance(ms(100));
    assertThat(peer.log).containsExactly("100 ms: ping");
    clock.advance(ms(249));
    assertThat(peer.log).containsExactly("100 ms: ping"); // no second ping while one is out
    clock.advance(ms(1));
    assertThat(peer.log).containsExactly("100 ms: ping", "350 ms: dead");
    clock.advance(ms(10_000));
    assertThat(peer.log).hasSize(2); // nothing after the verdict
  }

  @Test
  void anyByteAfterThePingCountsAsAnAnswer() {
    Peer peer = new Peer(config(NONE, ms(100), ms(250)));
    peer.timers.armKeepalive();
    clock.advance(ms(100));
    clock.advance(ms(200));
    peer.receive(); // a data frame, not a pong: the peer is alive all the same
    clock.advance(ms(99));
    assertThat(peer.log).containsExactly("100 ms: ping");
    clock.advance(ms(1)); // 100 ms after that frame: quiet again, so a ping
    assertThat(peer.log).containsExactly("100 ms: ping", "400 ms: ping");
  }

  @Test
  void aPausedConnectionSendsNoPingAndIsNotTakenAsDead() {
    Peer peer = new Peer(config(NONE, ms(100), ms(100)));
    peer.timers.armKeepalive();
    clock.advance(ms(100));
    peer.paused = true; // a pong could not be read now
    clock.advance(ms(1000));
    assertThat(peer.log).containsExactly("100 ms: ping");
    peer.paused = false;
    clock.advance(ms(100));
    assertThat(peer.log).containsExactly("100 ms: ping", "1200 ms: ping");
  }

  @Test
  void aClosingConnectionSendsNoMorePings() {
    Peer peer = new Peer(config(NONE, ms(100), NONE));
    peer.timers.armKeepalive();
    peer.open = false; // a close was sent: the close timeout bounds the rest
    clock.advance(ms(1000));
    assertThat(peer.log).isEmpty();
  }

  @Test
  void theCloseTimerClosesTheSocketOnceAndTheFirstDeadlineHolds() {
    Peer peer = new Peer(config(NONE, NONE, NONE));
    peer.timers.armClose(ms(500));
    clock.advance(ms(100));
    peer.timers.armClose(ms(500)); // a second close timeout does not move the first
    clock.advance(ms(399));
    assertThat(peer.log).isEmpty();
    clock.advance(ms(1));
    assertThat(peer.log).containsExactly("500 ms: close socket");
    clock.advance(ms(1000));
    assertThat(peer.log).hasSize(1);
  }

  @Test
  void aClosedSocketCancelsEveryTimer() {
    Peer peer = new Peer(config(ms(300), ms(100), NONE));
    peer.timers.armKeepalive();
    peer.timers.armClose(ms(200));
    peer.gone = true;
    peer.timers.cancel();
    clock.advance(ms(10_000));
    assertThat(peer.log).isEmpty();
    assertThat(clock.ran).isZero();
  }

  // ---- helpers ----

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private static ConnectionConfig config(Duration idle, Duration ping, Duration pong) {
    return KeepaliveConfigs.timers(idle, ping, pong);
  }

  /** A clock that moves only when told, running the timers that fall due in deadline order. */
  private static final class ManualScheduler implements ConnectionTimers.Scheduler {
    private final PriorityQueue<Timer> due = new PriorityQueue<>();
    long now = 1_000_000_000L; // any start: only differences count
    private final long start = now;
    private long seq;
    int ran; // timers that ran and were not cancelled

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public Timer scheduleAt(long deadline, Runnable task) {
      Timer t = new Timer(deadline, seq++, task);
      due.add(t);
      return t;
    }

    void advance(Duration d) {
      long until = now + d.toNanos();
      while (!due.isEmpty() && due.peek().deadline - until <= 0) {
        Timer t = due.poll();
        now = Math.max(now, t.deadline);
        if (!t.isCancelled()) {
          ran++;
          t.run();
        }
      }
      now = until;
    }

    long elapsedMillis() {
      return (now - start) / 1_000_000;
    }
  }

  /** The connection side: what the timers see, and a log of what they did, stamped. */
  private final class Peer implements ConnectionTimers.Host {
    final ConnectionConfig config;
    final ConnectionTimers timers;
    final List<String> log = new ArrayList<>();
    long lastReceived = clock.nanoTime();
    boolean paused;
    boolean open = true;
    boolean gone;
    int pings;

    Peer(ConnectionConfig config) {
      this.config = config;
      this.timers = new ConnectionTimers(this, clock);
    }

    void receive() {
      lastReceived = clock.nanoTime();
    }

    private void record(String what) {
      log.add(clock.elapsedMillis() + " ms: " + what);
    }

    @Override
    public ConnectionConfig timerConfig() {
      return config;
    }

    @Override
    public long lastReceivedNanos() {
      return lastReceived;
    }

    @Override
    public boolean readingPaused() {
      return paused;
    }

    @Override
    public boolean waitingForMemory() {
      return false;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public boolean socketGone() {
      return gone;
    }

    @Override
    public void idleTimedOut(String reason) {
      record("idle: " + reason);
      open = false;
    }

    @Override
    public boolean pingQuietPeer() {
      pings++;
      record("ping");
      return true;
    }

    @Override
    public void peerDead() {
      record("dead");
      open = false;
      gone = true;
    }

    @Override
    public void closeTimedOut() {
      record("close socket");
      gone = true;
    }

    @Override
    public void memoryStalled() {
      record("memory stalled");
    }

    @Override
    public boolean probePausedPeer() {
      record("probe");
      return paused;
    }

    @Override
    public long progressCheck() {
      return 0;
    }
  }
}
