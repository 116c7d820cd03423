package dev.wsjava.transport;

import java.time.Duration;

/**
 * Test helper of both transports' timer tests ({@code ConnectionTimersTest}, {@code
 * KeepaliveRulesTest}), which read alike on purpose: the defaults with the given keepalive timers.
 */
public final class KeepaliveConfigs {
  private KeepaliveConfigs() {}

  /**
   * Returns the defaults with these timers and a 2 s close timeout.
   *
   * @param idle the idle timeout, zero for none
   * @param ping the ping interval, zero for none
   * @param pong the dead-peer timeout, zero for the ping interval
   * @return the config
   */
  public static ConnectionConfig timers(Duration idle, Duration ping, Duration pong) {
    ConnectionConfig d = ConnectionConfig.DEFAULTS;
    return new ConnectionConfig(
        d.session(), d.maxQueuedBytes(), d.handshakeTimeout(), idle, ping, Duration.ofSeconds(2),
        d.readBufferSize(), pong, d.socket());
  }
}
