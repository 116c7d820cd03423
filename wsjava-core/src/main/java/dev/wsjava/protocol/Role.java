package dev.wsjava.protocol;

/** RFC 6455 §5.1: which end of the connection this is; it decides who masks. */
public enum Role {
  /** The end that opened the connection; it masks every frame it sends. */
  CLIENT,
  /** The end that accepted the connection; it never masks. */
  SERVER;

  /**
   * Returns whether frames this end sends are masked.
   *
   * @return true for the client
   */
  public boolean masksOutbound() {
    return this == CLIENT;
  }

  /**
   * Returns whether frames this end receives must be masked.
   *
   * @return true for the server
   */
  public boolean expectsMaskedInbound() {
    return this == SERVER;
  }
}
