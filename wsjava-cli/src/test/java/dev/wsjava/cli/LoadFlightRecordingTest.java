package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.WebSocketServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Flight Recorder recording of {@code wsjava load} against {@code wsjava serve}, read back from
 * the dumped file with {@code jdk.jfr.consumer}: one open and one close (code 1000, on the load's
 * path) per load connection, and sampled message sizes equal to the load's payload size.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LoadFlightRecordingTest {
  static final int CONNECTIONS = 4;
  static final int MESSAGES = 2000;
  static final int SIZE = 100;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"nio", "blocking"})
  void aRecordingOfALoadRunShowsEachConnectionAndSampledSizes(String transport) throws Exception {
    List<RecordedEvent> events;
    // The server fires ConnectionClosed once it has seen the close, which may be after load ends;
    // the stream only tells when they are all in, the dumped file is what is checked.
    CountDownLatch closed = new CountDownLatch(CONNECTIONS);
    try (RecordingStream recording = new RecordingStream()) {
      for (String name : List.of("ConnectionOpened", "ConnectionClosed", "MessageSize")) {
        recording.enable("dev.wsjava." + name).withoutStackTrace();
      }
      recording.setMaxAge(Duration.ofMinutes(5));
      recording.onEvent("dev.wsjava.ConnectionClosed", e -> closed.countDown());
      recording.startAsync();
      try (ServeCommand.Running server = Cli.serve("--port", "0", "--transport", transport)) {
        Cli.Result r = Cli.run("", "load", "ws://127.0.0.1:" + server.port() + "/echo", "--text",
            "--count", String.valueOf(MESSAGES), "--connections", String.valueOf(CONNECTIONS),
            "--in-flight", "4", "--size", String.valueOf(SIZE), "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(closed.await(30, TimeUnit.SECONDS)).as("every close recorded").isTrue();
        WebSocketServer.Stats stats = server.server().stats();
        assertThat(stats.connectionsTotal()).isEqualTo(CONNECTIONS);
        assertThat(stats.messagesIn()).isEqualTo(MESSAGES);
      }
      recording.stop();
      Path file = dir.resolve("load.jfr");
      recording.dump(file);
      events = RecordingFile.readAllEvents(file);
    }
    Map<String, List<RecordedEvent>> byName =
        events.stream().collect(Collectors.groupingBy(e -> e.getEventType().getName()));
    List<RecordedEvent> opens = byName.get("dev.wsjava.ConnectionOpened");
    assertThat(opens).hasSize(CONNECTIONS);
    assertThat(opens).extracting(e -> e.getString("path")).containsOnly("/echo");
    assertThat(opens).extracting(e -> e.getString("remote")).doesNotHaveDuplicates()
        .allMatch(remote -> remote.contains("127.0.0.1:"));
    List<RecordedEvent> closes = byName.get("dev.wsjava.ConnectionClosed");
    assertThat(closes).hasSize(CONNECTIONS);
    assertThat(closes).extracting(e -> e.getString("remote"))
        .containsExactlyInAnyOrderElementsOf(opens.stream().map(e -> e.getString("remote")).toList());
    for (RecordedEvent e : closes) {
      assertThat(e.getString("path")).isEqualTo("/echo");
      assertThat(e.getInt("code")).as("load closes normally").isEqualTo(1000);
      assertThat(e.getLong("openFor")).isPositive();
    }
    // One message in 64 of 2 x 2,000 (in and out): none at all would be a 1 in 10^27 chance.
    List<RecordedEvent> sizes = byName.get("dev.wsjava.MessageSize");
    assertThat(sizes).isNotEmpty();
    assertThat(sizes).extracting(e -> e.getLong("size")).containsOnly((long) SIZE);
    assertThat(sizes).extracting(e -> e.getBoolean("inbound")).contains(true, false);
  }
}
