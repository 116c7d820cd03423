package dev.wsjava;

/**
 * RFC 6455 §7.4 close status codes, and the rules for which may be received and sent.
 *
 * <p>Received on the wire: 1000-1003, 1007-1011 and 1012-1014 (registered with IANA) and
 * 3000-4999 are valid; anything else, including 1004-1006 and 1015, fails with 1002. Sent: the
 * same set; 1005, 1006 and 1015 are reserved for reporting and never put on the wire.
 *
 * <p>The one close-code type: {@link WebSocket#close(int, String)} takes these, listeners and
 * {@link WebSocketClosedException} report them, and the protocol layer closes with them.
 */
public final class CloseCode {
  /** 1000: the purpose of the connection was fulfilled. */
  public static final int NORMAL = 1000;
  /** 1001: the endpoint is going away (server shutdown, page navigation). */
  public static final int GOING_AWAY = 1001;
  /** 1002: the peer broke the protocol. */
  public static final int PROTOCOL_ERROR = 1002;
  /** 1003: a data type the endpoint cannot accept (for example binary to a text-only endpoint). */
  public static final int UNSUPPORTED_DATA = 1003;
  /** 1005: reported when a close frame had no status code; never sent. */
  public static final int NO_STATUS = 1005;
  /** 1006: reported when the connection closed without a close frame; never sent. */
  public static final int ABNORMAL = 1006;
  /** 1007: data in a message was not consistent with its type (invalid UTF-8 in text). */
  public static final int INVALID_PAYLOAD = 1007;
  /** 1008: a message violated the endpoint's policy. */
  public static final int POLICY_VIOLATION = 1008;
  /** 1009: a message was too big to process. */
  public static final int MESSAGE_TOO_BIG = 1009;
  /** 1010: the client expected an extension the server did not negotiate. */
  public static final int MANDATORY_EXTENSION = 1010;
  /** 1011: the server hit an unexpected condition. */
  public static final int INTERNAL_ERROR = 1011;
  /** 1012: the service is restarting (IANA registry). */
  public static final int SERVICE_RESTART = 1012;
  /** 1013: try again later (IANA registry). */
  public static final int TRY_AGAIN_LATER = 1013;
  /** 1014: a gateway received an invalid response (IANA registry). */
  public static final int BAD_GATEWAY = 1014;
  /** 1015: reported when the TLS handshake failed; never sent. */
  public static final int TLS_HANDSHAKE = 1015;

  private CloseCode() {}

  /**
   * Returns whether a code may appear in a close frame, received or sent.
   *
   * @param code the status code
   * @return true for 1000-1003, 1007-1014 and 3000-4999
   */
  public static boolean isValidOnWire(int code) {
    return (code >= 1000 && code <= 1003)
        || (code >= 1007 && code <= 1014)
        || (code >= 3000 && code <= 4999);
  }

  /**
   * Checks a code a user wants to send.
   *
   * @param code the status code
   * @throws IllegalArgumentException naming the rule when the code may not be sent
   */
  public static void checkSendable(int code) {
    if (!isValidOnWire(code)) {
      throw new IllegalArgumentException(
          "close code " + code + " may not be sent: use 1000-1003, 1007-1014 or 3000-4999"
              + " (1005, 1006 and 1015 are for reporting only; RFC 6455 §7.4)");
    }
  }

  /**
   * Returns the RFC's short name for a code, for messages and logs.
   *
   * @param code the status code
   * @return a name such as "normal closure", or "application" / "unknown"
   */
  public static String describe(int code) {
    return switch (code) {
      case NORMAL -> "normal closure";
      case GOING_AWAY -> "going away";
      case PROTOCOL_ERROR -> "protocol error";
      case UNSUPPORTED_DATA -> "unsupported data";
      case NO_STATUS -> "no status received";
      case ABNORMAL -> "abnormal closure";
      case INVALID_PAYLOAD -> "invalid frame payload data";
      case POLICY_VIOLATION -> "policy violation";
      case MESSAGE_TOO_BIG -> "message too big";
      case MANDATORY_EXTENSION -> "mandatory extension";
      case INTERNAL_ERROR -> "internal error";
      case SERVICE_RESTART -> "service restart";
      case TRY_AGAIN_LATER -> "try again later";
      case BAD_GATEWAY -> "bad gateway";
      case TLS_HANDSHAKE -> "TLS handshake failure";
      default -> code >= 3000 && code <= 4999 ? "application" : "unknown";
    };
  }
}
