package dev.wsjava.transport.blocking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.KeepaliveConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The blocking connection's idle and keepalive rules on a hand-driven clock, read as the NIO
 * side's {@code ConnectionTimersTest}: each rule is checked at the instant it should act and the
 * instant before, with no socket and no sleep. The peer below runs the rules the way {@link
 * BlockingConnection} and its {@link Keepalive} thread do: the timers run at the instant {@link
 * KeepaliveRules#next} gave, act on {@link KeepaliveRules#due} unless reading is paused, and look
 * again; whatever the read loop receives clears the ping in flight.
 */
class KeepaliveRulesTest {
  private static final Duration NONE = Duration.ZERO;
  private static final long START = 1_000_000_000L; // any start: only differences count

  @Test
  void anIdleConnectionIsClosedWith1001AtTheIdleTimeoutAndNotBefore() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.advance(ms(299));
    assertThat(peer.log).isEmpty();
    peer.advance(ms(1));
    assertThat(peer.log).containsExactly("300 ms: idle");
  }

  @Test
  void whatArrivesPushesTheIdleDeadlineOn() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.advance(ms(200));
    peer.receive();
    peer.advance(ms(299)); // 499 ms: 299 ms after the last byte
    assertThat(peer.log).isEmpty();
    peer.advance(ms(1));
    assertThat(peer.log).containsExactly("500 ms: idle");
  }

  @Test
  void aPausedConnectionIsNotTakenForIdleAndItsTimerRunsAgainOnceResumed() {
    Peer peer = new Peer(config(ms(300), NONE, NONE));
    peer.paused = true; // reading waits for the application: the quiet is not the peer's fault
    peer.advance(ms(1000));
    assertThat(peer.log).isEmpty();
    peer.paused = false; // the look at 900 ms set the next one one interval on: 1200 ms
    peer.advance(ms(199));
    assertThat(peer.log).isEmpty();
    peer.advance(ms(1));
    assertThat(peer.log).containsExactly("1200 ms: idle");
  }

  @Test
  void pingsKeepAQuietLivePeerOpenPastTheIdleTimeout() {
    Peer peer = new Peer(config(ms(300), ms(100), NONE));
    for (int i = 1; i <= 4; i++) {
      peer.advance(ms(100)); // each ping follows 100 ms of quiet
      assertThat(peer.pings).as("pings after %d ms", peer.elapsedMillis()).isEqualTo(i);
      peer.advance(ms(10));
      peer.receive(); // its pong
    }
    assertThat(peer.log).containsExactly(
        "100 ms: ping", "210 ms: ping", "320 ms: ping", "430 ms: ping");
  }

  @Test
  void aPeerThatStopsAnsweringIsTakenAsDeadAtTheDeadPeerTimeoutAfterThePing() {
    Peer peer = new Peer(config(NONE, ms(100), ms(250)));
    peer.advance(ms(100));
    assertThat(peer.log).containsExactly("100 ms: ping");
    peer.advance(ms(249));
    assertThat(peer.log).containsExactly("100 ms: ping"); // no second ping while one is out
    peer.advance(ms(1));
    assertThat(peer.log).containsExactly("100 ms: ping", "350 ms: dead");
    peer.advance(ms(10_000));
    assertThat(peer.log).hasSize(2); // nothing after the verdict
  }

  @Test
  void anyByteAfterThePingCountsAsAnAnswer() {
    Peer peer = new Peer(config(NONE, ms(100), ms(250)));
    peer.advance(ms(300));
    peer.receive(); // a data frame, not a pong: the peer is alive all the same
    peer.advance(ms(99));
    assertThat(peer.log).containsExactly("100 ms: ping");
    peer.advance(ms(1)); // 100 ms after that frame: quiet again, so a ping
    assertThat(peer.log).containsExactly("100 ms: ping", "400 ms: ping");
  }

  @Test
  void aPausedConnectionSendsNoPingAndIsNotTakenAsDeadWhileReadingWaits() {
    Peer peer = new Peer(config(NONE, ms(100), ms(100)));
    peer.advance(ms(100));
    peer.paused = true; // the pong cannot be read now
    peer.advance(ms(1000));
    assertThat(peer.log).containsExactly("100 ms: ping");
    peer.paused = false;
    peer.receive(); // the read loop resumes and reads the pong that waited in the socket
    peer.advance(ms(100));
    assertThat(peer.log).containsExactly("100 ms: ping", "1200 ms: ping");
  }

  @Test
  void aPeerSilentAcrossAPauseIsTakenAsDeadAtTheFirstLookAfterIt() {
    // Unlike the NIO side, which pings again after a pause, the ping sent before it still counts:
    // nothing at all waited in the socket when reading resumed.
    Peer peer = new Peer(config(NONE, ms(100), ms(100)));
    peer.advance(ms(100));
    peer.paused = true;
    peer.advance(ms(1000));
    peer.paused = false;
    peer.advance(ms(100));
    assertThat(peer.log).containsExactly("100 ms: ping", "1200 ms: dead");
  }

  @Test
  void aConnectionWithNeitherAnIdleTimeoutNorPingsHasNoTimer() {
    assertThat(KeepaliveRules.next(config(NONE, NONE, NONE), START, START, false, false, 0))
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theTimersNeverLookAgainSoonerThanAMillisecondOn() {
    // Long past every deadline (the timers' thread was late): the next look is 1 ms on, not now.
    long now = START + ms(5000).toNanos();
    assertThat(KeepaliveRules.next(config(ms(300), NONE, NONE), now, START, false, false, 0))
        .isEqualTo(now + KeepaliveRules.MIN_TIMER_NANOS);
  }

  // ---- helpers ----

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private static ConnectionConfig config(Duration idle, Duration ping, Duration pong) {
    return KeepaliveConfigs.timers(idle, ping, pong);
  }

  /** A connection's timer state on a clock that moves only when told, and a log of what it did. */
  private static final class Peer {
    final ConnectionConfig config;
    final List<String> log = new ArrayList<>();
    long now = START;
    long lastReceived = START;
    boolean pingOutstanding;
    long pingSent;
    boolean paused;
    boolean open = true;
    int pings;
    long due; // when the timers next run, as the connection schedules them in Keepalive

    Peer(ConnectionConfig config) {
      this.config = config;
      this.due = next();
    }

    /** The read loop received bytes: a sign of life, which answers any ping in flight. */
    void receive() {
      lastReceived = now;
      pingOutstanding = false;
    }

    void advance(Duration d) {
      long until = now + d.toNanos();
      while (open && due - until <= 0) {
        now = due;
        if (!paused) {
          act(KeepaliveRules.due(config, now, lastReceived, pingOutstanding, pingSent));
        }
        due = open ? next() : Long.MAX_VALUE;
      }
      now = until;
    }

    private long next() {
      return KeepaliveRules.next(config, now, lastReceived, paused, pingOutstanding, pingSent);
    }

    private void act(KeepaliveRules.Act act) {
      switch (act) {
        case IDLE_TIMEOUT -> {
          log.add(elapsedMillis() + " ms: idle");
          open = false;
        }
        case DEAD_PEER -> {
          log.add(elapsedMillis() + " ms: dead");
          open = false;
        }
        case PING -> {
          pingOutstanding = true;
          pingSent = now;
          pings++;
          log.add(elapsedMillis() + " ms: ping");
        }
        case NONE -> {}
      }
    }

    long elapsedMillis() {
      return (now - START) / 1_000_000;
    }
  }
}
