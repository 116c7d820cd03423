package dev.wsjava.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AcceptBackoffTest {
  private long now = 1_000;
  private final List<String> heard = new ArrayList<>();
  private final AcceptBackoff backoff =
      new AcceptBackoff(() -> now, new AcceptBackoff.Listener() {
        @Override
        public void started(boolean exhausted, IOException error) {
          heard.add("started exhausted=" + exhausted + " " + error.getMessage());
        }

        @Override
        public void ended(long nanos, long failures, boolean exhausted) {
          heard.add("ended after " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms, " + failures
              + " failures, exhausted=" + exhausted);
        }
      });

  private static final IOException EMFILE = new SocketException("Too many open files");

  @Test
  void pausesDoubleFromTenMillisecondsUpToOneSecond() {
    List<Long> pauses = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pauses.add(TimeUnit.NANOSECONDS.toMillis(backoff.failed(EMFILE)));
    }
    assertThat(pauses).containsExactly(10L, 20L, 40L, 80L, 160L, 320L, 640L, 1000L, 1000L, 1000L);
  }

  @Test
  void anEpisodeIsReportedOnceAtItsStartAndOnceAtItsEnd() {
    for (int i = 0; i < 50; i++) {
      now += backoff.failed(EMFILE);
    }
    assertThat(heard).containsExactly("started exhausted=true Too many open files");
    assertThat(backoff.failing()).isTrue();
    backoff.accepted();
    backoff.accepted(); // successes outside an episode report nothing
    assertThat(heard).hasSize(2);
    assertThat(heard.get(1)).isEqualTo("ended after 44270 ms, 50 failures, exhausted=true");
    assertThat(backoff.failing()).isFalse();
  }

  @Test
  void aSuccessStartsThePauseOverAndANewEpisode() {
    backoff.failed(EMFILE);
    backoff.failed(EMFILE);
    backoff.accepted();
    assertThat(TimeUnit.NANOSECONDS.toMillis(backoff.failed(new IOException("Connection reset"))))
        .isEqualTo(10);
    assertThat(heard).containsExactly(
        "started exhausted=true Too many open files",
        "ended after 0 ms, 2 failures, exhausted=true",
        "started exhausted=false Connection reset");
  }

  @Test
  void stoppingEndsAnEpisodeUnderWay() {
    backoff.stopped();
    assertThat(heard).isEmpty();
    backoff.failed(EMFILE);
    now += 5_000_000;
    backoff.stopped();
    assertThat(heard).last().isEqualTo("ended after 5 ms, 1 failures, exhausted=true");
  }

  @Test
  void descriptorsAreExhaustedForEmfileAndEnfileOnlyCausesIncluded() {
    assertThat(Descriptors.exhausted(new IOException("Too many open files in system"))).isTrue();
    assertThat(Descriptors.exhausted(new IOException("wrapped", EMFILE))).isTrue();
    assertThat(Descriptors.exhausted(new IOException("Connection reset by peer"))).isFalse();
    assertThat(Descriptors.exhausted(null)).isFalse();
    IOException plain = new IOException("Connection refused");
    assertThat(Descriptors.clientError("ws://x", plain)).isSameAs(plain);
    assertThat(Descriptors.clientError("ws://x", EMFILE).getMessage())
        .isEqualTo("cannot connect to ws://x: this process has no file descriptor left (Too many open"
            + " files); close connections or raise the limit (ulimit -n)");
  }
}
