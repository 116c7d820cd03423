package dev.wsjava.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WrkOutputTest {
  private static final String CLEAN = """
      Running 10s test @ http://127.0.0.1:8080/
        2 threads and 100 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     1.23ms  456.78us  12.34ms   89.12%
          Req/Sec    40.12k     2.34k   45.67k    70.00%
        798765 requests in 10.00s, 95.21MB read
      Requests/sec:  79876.50
      Transfer/sec:      9.52MB
      """;

  @Test
  void aCleanReportGivesRequestsPerSecondAndTheMeanLatencyInMicroseconds() {
    WrkOutput w = WrkOutput.parse(CLEAN);
    assertThat(w.requestsPerSecond()).isEqualTo(79876.50);
    assertThat(w.latencyAvgMicros()).isCloseTo(1230.0, within(1e-9));
    assertThat(w.requests()).isEqualTo(798765);
    assertThat(w.non2xx()).isZero();
    assertThat(w.socketErrors()).isZero();
    assertThat(w.problem()).isNull();
  }

  @Test
  void latencyUnitsAreMicrosecondsMillisecondsAndSeconds() {
    assertThat(WrkOutput.parse(CLEAN.replace("1.23ms", "812.50us")).latencyAvgMicros()).isEqualTo(812.5);
    assertThat(WrkOutput.parse(CLEAN.replace("1.23ms", "1.50s")).latencyAvgMicros()).isEqualTo(1.5e6);
  }

  @Test
  void responsesThatAreNot2xxDisqualifyTheRunAndSocketErrorsAreCounted() {
    String text = CLEAN.replace("Requests/sec:", """
          Socket errors: connect 1, read 12, write 0, timeout 3
          Non-2xx or 3xx responses: 5
        Requests/sec:""");
    WrkOutput w = WrkOutput.parse(text);
    assertThat(w.non2xx()).isEqualTo(5);
    assertThat(w.socketErrors()).isEqualTo(16);
    assertThat(w.problem()).isEqualTo("5 of 798765 responses were not 2xx/3xx");
  }

  @Test
  void aRunWithNoRequestIsAProblem() {
    assertThat(WrkOutput.parse(CLEAN.replace("798765 requests", "0 requests")).problem())
        .isEqualTo("wrk completed no request");
  }

  @Test
  void somethingElseThanAWrkReportIsRefused() {
    assertThatThrownBy(() -> WrkOutput.parse("unable to connect to 127.0.0.1:1 Connection refused\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a wrk report: unable to connect");
  }
}
