package dev.wsjava.handshake;

import dev.wsjava.Headers;
import java.util.Objects;

/**
 * The head of an HTTP/1.1 message (RFC 7230 §3): its start line and header fields, without the
 * body. Either a {@link Request} or a {@link Response}; both are immutable.
 */
public sealed interface HttpHead permits HttpHead.Request, HttpHead.Response {

  /**
   * Returns the HTTP-version of the start line.
   *
   * @return for example {@code HTTP/1.1}
   */
  String version();

  /**
   * Returns the header fields in wire order.
   *
   * @return the fields
   */
  Headers headers();

  /**
   * Returns the major digit of the version.
   *
   * @return 1 for every head the parser produces
   */
  default int majorVersion() {
    return version().charAt(5) - '0';
  }

  /**
   * Returns the minor digit of the version.
   *
   * @return for example 1 for {@code HTTP/1.1}
   */
  default int minorVersion() {
    return version().charAt(7) - '0';
  }

  /**
   * A request head (RFC 7230 §3.1.1).
   *
   * @param method the method token, case-sensitive, for example {@code GET}
   * @param target the request-target exactly as sent, for example {@code /chat?room=1}
   * @param version the HTTP-version, {@code HTTP/DIGIT.DIGIT}
   * @param headers the header fields
   */
  record Request(String method, String target, String version, Headers headers)
      implements HttpHead {
    /**
     * Creates a request head.
     *
     * @param method a token
     * @param target a non-empty request-target
     * @param version {@code HTTP/DIGIT.DIGIT}
     * @param headers the fields
     */
    public Request {
      if (!HttpSyntax.isToken(method)) {
        throw new IllegalArgumentException("method must be a token: " + method);
      }
      if (target == null || target.isEmpty()) {
        throw new IllegalArgumentException("request-target must not be empty");
      }
      checkVersion(version);
      Objects.requireNonNull(headers, "headers");
    }
  }

  /**
   * A response head (RFC 7230 §3.1.2).
   *
   * @param version the HTTP-version, {@code HTTP/DIGIT.DIGIT}
   * @param status the status code, 100 to 599
   * @param reason the reason phrase, possibly empty (ISO-8859-1)
   * @param headers the header fields
   */
  record Response(String version, int status, String reason, Headers headers) implements HttpHead {
    /**
     * Creates a response head.
     *
     * @param version {@code HTTP/DIGIT.DIGIT}
     * @param status 100 to 599
     * @param reason the reason phrase, possibly empty
     * @param headers the fields
     */
    public Response {
      checkVersion(version);
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("status must be 100 to 599: " + status);
      }
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(headers, "headers");
    }
  }

  private static void checkVersion(String version) {
    if (version == null
        || version.length() != 8
        || !version.startsWith("HTTP/")
        || !isDigit(version.charAt(5))
        || version.charAt(6) != '.'
        || !isDigit(version.charAt(7))) {
      throw new IllegalArgumentException("version must be HTTP/DIGIT.DIGIT: " + version);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
