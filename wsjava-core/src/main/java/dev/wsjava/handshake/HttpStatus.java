package dev.wsjava.handshake;

/**
 * HTTP status codes the handshake and the HTTP front answer with (RFC 7231 §6, RFC 6585), and their
 * reason phrases.
 */
public final class HttpStatus {
  /** 101 Switching Protocols: the WebSocket handshake succeeded (RFC 7231 §6.2.2). */
  public static final int SWITCHING_PROTOCOLS = 101;

  /** 400 Bad Request: a malformed request or upgrade (RFC 7231 §6.5.1). */
  public static final int BAD_REQUEST = 400;

  /** 403 Forbidden: for example an origin the server refuses (RFC 6455 §4.2.2). */
  public static final int FORBIDDEN = 403;

  /** 404 Not Found (RFC 7231 §6.5.4). */
  public static final int NOT_FOUND = 404;

  /** 405 Method Not Allowed, sent with {@code Allow} (RFC 7231 §6.5.5). */
  public static final int METHOD_NOT_ALLOWED = 405;

  /** 414 URI Too Long: the request line does not fit the head limit (RFC 7231 §6.5.12). */
  public static final int URI_TOO_LONG = 414;

  /** 426 Upgrade Required, sent with {@code Upgrade} (RFC 7231 §6.5.15). */
  public static final int UPGRADE_REQUIRED = 426;

  /** 431 Request Header Fields Too Large (RFC 6585 §5). */
  public static final int REQUEST_HEADER_FIELDS_TOO_LARGE = 431;

  /** 500 Internal Server Error (RFC 7231 §6.6.1). */
  public static final int INTERNAL_SERVER_ERROR = 500;

  /** 503 Service Unavailable (RFC 7231 §6.6.4). */
  public static final int SERVICE_UNAVAILABLE = 503;

  /** 505 HTTP Version Not Supported: a major version other than 1 (RFC 7231 §6.6.6). */
  public static final int HTTP_VERSION_NOT_SUPPORTED = 505;

  private HttpStatus() {}

  /**
   * Returns the reason phrase registered for a status code.
   *
   * @param status a status code
   * @return for example "Bad Request"; an empty string for codes not listed here (RFC 7230 §3.1.2
   *     allows an empty reason phrase)
   */
  public static String reasonPhrase(int status) {
    return switch (status) {
      case 100 -> "Continue";
      case SWITCHING_PROTOCOLS -> "Switching Protocols";
      case 200 -> "OK";
      case 204 -> "No Content";
      case 301 -> "Moved Permanently";
      case 302 -> "Found";
      case 303 -> "See Other";
      case 307 -> "Temporary Redirect";
      case 308 -> "Permanent Redirect";
      case BAD_REQUEST -> "Bad Request";
      case 401 -> "Unauthorized";
      case FORBIDDEN -> "Forbidden";
      case NOT_FOUND -> "Not Found";
      case METHOD_NOT_ALLOWED -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 413 -> "Content Too Large";
      case URI_TOO_LONG -> "URI Too Long";
      case UPGRADE_REQUIRED -> "Upgrade Required";
      case 429 -> "Too Many Requests";
      case REQUEST_HEADER_FIELDS_TOO_LARGE -> "Request Header Fields Too Large";
      case INTERNAL_SERVER_ERROR -> "Internal Server Error";
      case 501 -> "Not Implemented";
      case 502 -> "Bad Gateway";
      case SERVICE_UNAVAILABLE -> "Service Unavailable";
      case HTTP_VERSION_NOT_SUPPORTED -> "HTTP Version Not Supported";
      default -> "";
    };
  }
}
