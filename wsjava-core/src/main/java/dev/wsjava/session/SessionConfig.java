package dev.wsjava.session;

import dev.wsjava.protocol.Limits;
import java.util.Objects;

/**
 * How a {@link Session} behaves. Immutable.
 *
 * @param limits frame, message and fragment limits
 * @param autoPong whether a received ping is answered with a pong at once (RFC 6455 §5.5.2
 *     requires an answer; turn this off only to answer by hand)
 * @param streamMessages whether data messages are reported piece by piece ({@link
 *     SessionListener#onMessagePart}) instead of whole ({@link SessionListener#onMessage})
 * @param maxOutboundFrame the largest payload of a data frame this end sends: a message (or a
 *     fragment) whose payload, compressed or not, is larger goes out as several frames
 */
public record SessionConfig(
    Limits limits, boolean autoPong, boolean streamMessages, int maxOutboundFrame) {

  /**
   * The default outbound frame payload: 64 KiB, the frame limit of Netty's and Jetty's decoders by
   * default, so that a large message from wsjava reaches such a peer as fragments instead of being
   * refused with 1009 (Jetty fragments its own sends at that size too). Larger frames cost less CPU
   * per byte sent (docs/benchmarks/LARGE-MESSAGES.md, "Sending large messages"): raise it for
   * peers known to take them.
   */
  public static final int DEFAULT_MAX_OUTBOUND_FRAME = 64 * 1024;

  /** Default limits, auto-pong on, whole messages, 64 KiB outbound frames. */
  public static final SessionConfig DEFAULTS = new SessionConfig(Limits.DEFAULTS, true, false);

  /**
   * A configuration with {@link #DEFAULT_MAX_OUTBOUND_FRAME}.
   *
   * @param limits must not be null
   * @param autoPong whether to answer pings
   * @param streamMessages whether to stream messages
   */
  public SessionConfig(Limits limits, boolean autoPong, boolean streamMessages) {
    this(limits, autoPong, streamMessages, DEFAULT_MAX_OUTBOUND_FRAME);
  }

  /**
   * Checks the configuration.
   *
   * @param limits must not be null
   * @param autoPong whether to answer pings
   * @param streamMessages whether to stream messages
   * @param maxOutboundFrame at least 1
   */
  public SessionConfig {
    Objects.requireNonNull(limits, "limits");
    if (maxOutboundFrame < 1) {
      throw new IllegalArgumentException("maxOutboundFrame must be positive: " + maxOutboundFrame);
    }
  }

  /**
   * Returns a copy with other limits.
   *
   * @param limits the new limits
   * @return a new config
   */
  public SessionConfig withLimits(Limits limits) {
    return new SessionConfig(limits, autoPong, streamMessages, maxOutboundFrame);
  }

  /**
   * Returns a copy that streams or does not stream messages.
   *
   * @param stream whether to report messages piece by piece
   * @return a new config
   */
  public SessionConfig withStreamMessages(boolean stream) {
    return new SessionConfig(limits, autoPong, stream, maxOutboundFrame);
  }

  /**
   * Returns a copy with auto-pong on or off.
   *
   * @param on whether to answer pings automatically
   * @return a new config
   */
  public SessionConfig withAutoPong(boolean on) {
    return new SessionConfig(limits, on, streamMessages, maxOutboundFrame);
  }
}
