package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code serve --busy-poll}, and the launcher's training workload {@code aot-training}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusyPollAndTrainingTest {

  @Test
  void busyPollNamesTheEventLoopsSpin() {
    assertThat(ServeCommand.busyPoll("adaptive")).isEqualTo(Duration.ofNanos(50_000));
    assertThat(ServeCommand.busyPoll("off")).isZero();
    assertThat(ServeCommand.busyPoll("0")).isZero();
    assertThat(ServeCommand.busyPoll("20")).isEqualTo(Duration.ofNanos(20_000));
    assertThat(ServeCommand.busyPoll("1000000")).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void serveStartsWithEachBusyPoll() throws Exception {
    for (String value : new String[] {"adaptive", "off", "20"}) {
      try (ServeCommand.Running server = Cli.serve("--port", "0", "--busy-poll", value)) {
        assertThat(server.port()).isPositive();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fast", "-1", "1000001", "5us"})
  void aBusyPollThatIsNeitherAModeNorMicrosecondsIsAUsageError(String value) {
    Cli.Result r = Cli.run("", "serve", "--port", "0", "--busy-poll", value);
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.stderr()).as(r.toString())
        .contains("--busy-poll takes adaptive, off, or microseconds from 0 to 1000000: " + value);
  }

  @Test
  void theTrainingWorkloadEchoesOverLoopbackAndExitsCleanly() {
    Cli.Result r = Cli.run("", "aot-training", "--messages", "2000");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.stderr()).as(r.toString()).contains("wsjava aot-training: 4600 echoes in ");
  }
}
