package dev.wsjava.micrometer;

import dev.wsjava.WebSocketServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Binds a {@link WebSocketServer}'s counters ({@link WebSocketServer#stats()}) to a Micrometer
 * registry. The meters read the server when the registry is scraped; nothing is added to the
 * server's own paths.
 *
 * <pre>{@code
 * new WsjavaMetrics(server, Tags.of("server", "chat")).bindTo(registry);
 * }</pre>
 *
 * <p>Meters (Prometheus names in brackets; counters end in {@code _total}, the payload counter's
 * unit makes it {@code wsjava_payload_bytes_total}):
 *
 * <ul>
 *   <li>{@code wsjava.connections.open} gauge [{@code wsjava_connections_open}];
 *   <li>{@code wsjava.connections.opened} counter [{@code wsjava_connections_opened_total}];
 *   <li>{@code wsjava.handshakes.rejected} counter, tag {@code reason}: {@code application},
 *       {@code server_full}, {@code address_full}, {@code handshake_rate}, {@code protocol} (RFC
 *       6455 or the Origin policy);
 *   <li>{@code wsjava.message.rate.closes} counter: connections closed 1008 for their message rate;
 *   <li>{@code wsjava.messages} counter and {@code wsjava.payload} counter (bytes), tag {@code
 *       direction}: {@code in}, {@code out};
 *   <li>{@code wsjava.send.queue.full} counter: sends refused for a full outbound queue.
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class WsjavaMetrics implements MeterBinder {
  /** The payload counter's help: bytes, as {@link WebSocketServer.Stats#bytesIn()} counts them. */
  static final String PAYLOAD_HELP =
      "Payload bytes of the messages received or sent (text as UTF-8, uncompressed)";

  private final WebSocketServer server;
  private final Iterable<Tag> tags;

  /**
   * Makes a binder for one server.
   *
   * @param server the server to observe
   * @param tags tags for every meter, for example the server's name
   */
  public WsjavaMetrics(WebSocketServer server, Iterable<Tag> tags) {
    this.server = Objects.requireNonNull(server, "server");
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
  }

  /**
   * Makes a binder without extra tags.
   *
   * @param server the server to observe
   */
  public WsjavaMetrics(WebSocketServer server) {
    this(server, Tags.empty());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("wsjava.connections.open", server, s -> s.stats().connectionsOpen())
        .description("WebSocket connections open now")
        .tags(tags)
        .register(registry);
    counter(registry, "wsjava.connections.opened", "WebSocket connections ever opened",
        null, Tags.empty(), s -> s.stats().connectionsTotal());
    rejected(registry, "application", s -> s.stats().rejectedByApplication());
    rejected(registry, "server_full", s -> s.stats().rejectedServerFull());
    rejected(registry, "address_full", s -> s.stats().rejectedAddressFull());
    rejected(registry, "handshake_rate", s -> s.stats().rejectedHandshakeRate());
    rejected(registry, "protocol", s -> s.stats().rejectedByProtocol());
    rejected(registry, "proxy_header", s -> s.stats().rejectedProxyHeader());
    counter(registry, "wsjava.message.rate.closes", "Connections closed 1008 for their message rate",
        null, Tags.empty(), s -> s.stats().closedForMessageRate());
    counter(registry, "wsjava.messages", "Messages received or sent", null,
        Tags.of("direction", "in"), s -> s.stats().messagesIn());
    counter(registry, "wsjava.messages", "Messages received or sent", null,
        Tags.of("direction", "out"), s -> s.stats().messagesOut());
    counter(registry, "wsjava.payload", PAYLOAD_HELP,
        BaseUnits.BYTES, Tags.of("direction", "in"), s -> s.stats().bytesIn());
    counter(registry, "wsjava.payload", PAYLOAD_HELP,
        BaseUnits.BYTES, Tags.of("direction", "out"), s -> s.stats().bytesOut());
    counter(registry, "wsjava.send.queue.full", "Sends refused for a full outbound queue",
        null, Tags.empty(), s -> s.stats().sendQueueFull());
  }

  private void rejected(MeterRegistry registry, String reason, ToDoubleFunction<WebSocketServer> f) {
    counter(registry, "wsjava.handshakes.rejected", "WebSocket upgrades refused before the 101",
        null, Tags.of("reason", reason), f);
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String description,
      String unit,
      Tags extra,
      ToDoubleFunction<WebSocketServer> f) {
    FunctionCounter.builder(name, server, f)
        .description(description)
        .baseUnit(unit) // only bytes: Prometheus names append the unit
        .tags(Tags.concat(tags, extra))
        .register(registry);
  }
}
