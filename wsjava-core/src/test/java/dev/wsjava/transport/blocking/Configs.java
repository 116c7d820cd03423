package dev.wsjava.transport.blocking;

import dev.wsjava.transport.ConnectionConfig;
import java.time.Duration;

/** Test helper: connection configurations with short timers. */
final class Configs {
  private Configs() {}

  static final Duration NONE = Duration.ZERO;

  /** The defaults with the given timers (handshake and close must be positive). */
  static ConnectionConfig timers(Duration handshake, Duration idle, Duration ping, Duration close) {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    return new ConnectionConfig(
        d.session(), d.maxQueuedBytes(), handshake, idle, ping, close, d.readBufferSize());
  }

  static ConnectionConfig handshakeTimeout(Duration timeout) {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    return timers(timeout, NONE, NONE, d.closeTimeout());
  }

  static ConnectionConfig idle(Duration idle, Duration ping) {
    return timers(ConnectionConfig.DEFAULT_HANDSHAKE_TIMEOUT, idle, ping, Duration.ofSeconds(2));
  }

  static ConnectionConfig closeTimeout(Duration close) {
    return timers(ConnectionConfig.DEFAULT_HANDSHAKE_TIMEOUT, NONE, NONE, close);
  }
}
