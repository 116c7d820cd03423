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
 */
public record SessionConfig(Limits limits, boolean autoPong, boolean streamMessages) {

  /** Default limits, auto-pong on, whole messages. */
  public static final SessionConfig DEFAULTS = new SessionConfig(Limits.DEFAULTS, true, false);

  /**
   * Checks the configuration.
   *
   * @param limits must not be null
   * @param autoPong whether to answer pings
   * @param streamMessages whether to stream messages
   */
  public SessionConfig {
    Objects.requireNonNull(limits, "limits");
  }

  /**
   * Returns a copy with other limits.
   *
   * @param limits the new limits
   * @return a new config
   */
  public SessionConfig withLimits(Limits limits) {
    return new SessionConfig(limits, autoPong, streamMessages);
  }

  /**
   * Returns a copy that streams or does not stream messages.
   *
   * @param stream whether to report messages piece by piece
   * @return a new config
   */
  public SessionConfig withStreamMessages(boolean stream) {
    return new SessionConfig(limits, autoPong, stream);
  }

  /**
   * Returns a copy with auto-pong on or off.
   *
   * @param on whether to answer pings automatically
   * @return a new config
   */
  public SessionConfig withAutoPong(boolean on) {
    return new SessionConfig(limits, on, streamMessages);
  }
}
