package dev.wsjava.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResultLineTest {

  @Test
  void aResultLineParsesBackIntoItsFieldsInOrder() {
    String line = new ResultLine("small").put("echoes", 42L).put("msgs_per_s", 1234.5678).toString();
    assertThat(line).isEqualTo("RESULT workload=small echoes=42 msgs_per_s=1234.568");
    assertThat(ResultLine.parse(line)).containsExactly(
        java.util.Map.entry("workload", "small"), java.util.Map.entry("echoes", "42"),
        java.util.Map.entry("msgs_per_s", "1234.568"));
  }

  @Test
  void aWordValueStaysOneTokenAndSpacesAreRefused() {
    String line = new ResultLine("small").put("server_threads", "epollEventLoopG*1:97").toString();
    assertThat(ResultLine.parse(line)).containsEntry("server_threads", "epollEventLoopG*1:97");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new ResultLine("small").put("threads", "GC Thread"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void otherLinesAreNoResult() {
    assertThat(ResultLine.parse("READY 8080")).isNull();
    assertThat(ResultLine.parse("ERROR workload=small boom")).isNull();
  }

  @Test
  void anErrorLineKeepsItsMessageOnOneLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ResultLine.error(new PrintStream(out, true, StandardCharsets.UTF_8), "large1m", "two\nlines");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("ERROR workload=large1m two lines"
        + System.lineSeparator());
  }
}
