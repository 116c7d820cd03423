package dev.wsjava.examples;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.micrometer.WsjavaMetrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import jdk.jfr.consumer.RecordingStream;

/**
 * What an operator sees: an echo server whose counters ({@link WebSocketServer#stats()}) are bound
 * to Micrometer ({@code wsjava-micrometer}) and served at {@code /metrics} in Prometheus text, and
 * whose Flight Recorder events ({@code dev.wsjava.ConnectionOpened}, {@code ConnectionClosed}, ...)
 * are streamed in this process and printed, one line each, with the counters after each close.
 * The same events go to any recording: {@code java -XX:StartFlightRecording ...} or {@code jcmd
 * PID JFR.start}.
 *
 * <p>Run: {@code examples/run MetricsServer 8080}, then {@code ./wsjava connect
 * ws://localhost:8080/echo} and {@code curl localhost:8080/metrics}.
 */
public final class MetricsServer {
  private MetricsServer() {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args the port (default 8080, 0 for any free one)
   * @throws Exception when the port is taken
   */
  public static void main(String[] args) throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    WebSocketServer server = WebSocketServer.builder()
        .bind("localhost", args.length > 0 ? Integer.parseInt(args[0]) : 8080)
        .websocket("/echo", new WebSocketListener() {
          @Override public void onText(WebSocket ws, String text) { ws.sendText(text); }

          @Override public void onBinary(WebSocket ws, ByteBuffer data) { ws.sendBinary(data); }
        })
        .get("/metrics", req -> HttpResponse.bytes(200, "text/plain; version=0.0.4; charset=utf-8",
            registry.scrape().getBytes(StandardCharsets.UTF_8)))
        .start();
    new WsjavaMetrics(server, Tags.of("server", "example")).bindTo(registry);

    RecordingStream events = new RecordingStream(); // this JVM's events, about once a second
    for (String name : new String[] {"ConnectionOpened", "ConnectionClosed", "HandshakeRejected",
        "LimitHit", "SendQueueFull"}) {
      events.enable("dev.wsjava." + name);
    }
    events.onEvent("dev.wsjava.ConnectionOpened", e ->
        System.out.println("JFR opened " + e.getString("path") + " from " + e.getString("remote")));
    events.onEvent("dev.wsjava.ConnectionClosed", e -> {
      System.out.println("JFR closed " + e.getString("path") + " " + e.getInt("code") + " after "
          + e.getDuration("openFor").toMillis() + " ms");
      System.out.println("stats " + server.stats());
    });
    events.startAsync();
    System.out.println("echo at ws://localhost:" + server.port() + "/echo, metrics at http://localhost:"
        + server.port() + "/metrics");
    Thread.currentThread().join();
  }
}
