package dev.wsjava.internal.http;

import dev.wsjava.Headers;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpStatus;
import java.util.List;

/**
 * The length of a request body as its head announces it (RFC 9112 §6.3): chunked, a {@code
 * Content-Length}, or none. Strict where a lenient reading lets requests be smuggled past a proxy
 * that reads them differently: {@code Transfer-Encoding} with {@code Content-Length}, or in an
 * HTTP/1.0 request, and {@code Content-Length} values that differ or are not plain digits are all
 * refused. Stateless.
 */
final class BodyLength {
  /** The body is chunked: its length is known only at its end. */
  static final long CHUNKED = -1;

  private BodyLength() {}

  /**
   * Returns the body length a request head announces.
   *
   * @return {@link #CHUNKED}, else the {@code Content-Length}, else 0 (a request with neither has
   *     no body)
   * @throws RequestException 400 for faulty framing, 413 for a length over {@code maxBodySize}, 501
   *     for a transfer coding other than chunked
   */
  static long of(HttpHead.Request head, int maxBodySize) throws RequestException {
    Headers h = head.headers();
    if (h.contains("Transfer-Encoding")) {
      if (head.minorVersion() == 0) {
        throw new RequestException(
            HttpStatus.BAD_REQUEST,
            "Transfer-Encoding in an HTTP/1.0 request: its framing is faulty (RFC 9112 §6.1)");
      }
      if (h.contains("Content-Length")) {
        throw new RequestException(
            HttpStatus.BAD_REQUEST,
            "both Transfer-Encoding and Content-Length: a request smuggling pattern"
                + " (RFC 9112 §6.3)");
      }
      List<String> codings = h.tokens("Transfer-Encoding");
      for (int i = 0; i < codings.size(); i++) {
        boolean chunkedCoding = codings.get(i).equalsIgnoreCase("chunked");
        if (chunkedCoding != (i == codings.size() - 1)) {
          throw new RequestException(
              HttpStatus.BAD_REQUEST,
              "chunked must be the final transfer coding, applied once, was "
                  + codings
                  + " (RFC 9112 §6.1, §6.3)");
        }
      }
      if (codings.size() > 1) {
        throw new RequestException(
            501,
            "only the chunked transfer coding is implemented, was " + codings + " (RFC 9112 §6.1)");
      }
      return CHUNKED;
    }
    if (!h.contains("Content-Length")) {
      return 0;
    }
    List<String> values = h.tokens("Content-Length");
    if (values.isEmpty() || !values.stream().allMatch(values.get(0)::equals)) {
      throw new RequestException(
          HttpStatus.BAD_REQUEST,
          "Content-Length must be one number, was " + h.all("Content-Length") + " (RFC 9112 §6.3)");
    }
    String value = values.get(0);
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        throw new RequestException(
            HttpStatus.BAD_REQUEST,
            "Content-Length must be digits, was \"" + value + "\" (RFC 9110 §8.6)");
      }
    }
    String digits = value.replaceFirst("^0+(?=.)", "");
    if (digits.length() > 10 || Long.parseLong(digits) > maxBodySize) {
      throw new RequestException(
          413,
          "a body of "
              + value
              + " bytes is over the limit of "
              + maxBodySize
              + " (RFC 9110 §15.5.14)");
    }
    return Long.parseLong(digits);
  }
}
