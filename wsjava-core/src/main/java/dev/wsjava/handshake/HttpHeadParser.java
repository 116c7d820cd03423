package dev.wsjava.handshake;

import dev.wsjava.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An incremental parser for HTTP/1.1 heads (RFC 7230 §3): start line, header fields, empty line.
 * Fed bytes as they arrive, in pieces of any size; it consumes bytes only up to the end of the
 * head, so whatever follows (a body, or the first WebSocket frame after a 101) stays in the
 * caller's buffer.
 *
 * <p>Strict where leniency has let requests be smuggled: lines must end in CRLF (a bare LF or a
 * bare CR is refused, although RFC 7230 §3.5 would allow a bare LF, so that no front proxy can see
 * a different head than we do); no whitespace between a field name and its colon; field names are
 * tokens (ASCII only); values may carry obs-text, kept as ISO-8859-1. A request may be preceded by
 * empty lines, which are skipped (§3.5). A request with obs-fold is refused (§3.2.4 allows a server
 * to); a response's obs-fold is replaced by one SP, as §3.2.4 requires of a user agent.
 *
 * <p>When a head is complete, or a fault is found, the parser starts over, so one instance reads
 * the successive heads of a keep-alive connection. Between heads it holds no buffer. Not
 * thread-safe.
 *
 * @param <H> {@link HttpHead.Request} or {@link HttpHead.Response}
 */
public final class HttpHeadParser<H extends HttpHead> {
  private static final int INITIAL_HOLD = 512;

  /** Field names of the requests a WebSocket server reads, as browsers and libraries spell them. */
  private static final String[] KNOWN_NAMES = {
    "Host", "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version",
    "Sec-WebSocket-Extensions", "Sec-WebSocket-Protocol", "Origin", "User-Agent", "Accept",
    "Accept-Encoding", "Accept-Language", "Cache-Control", "Pragma", "Cookie", "Authorization",
    "Content-Length", "Content-Type", "host", "upgrade", "connection", "sec-websocket-key",
    "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "origin",
    "user-agent"
  };

  private static final String[] KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "DELETE"};
  private static final String[] KNOWN_VERSIONS = {"HTTP/1.1", "HTTP/1.0"};

  /** Field values every upgrade request repeats. */
  private static final String[] KNOWN_VALUES = {
    "websocket", "Upgrade", "13", "upgrade", "keep-alive, Upgrade", "no-cache"
  };

  private final Class<H> type;
  private final boolean requests;
  private final HttpHeadLimits limits;

  /** Bytes of an unfinished head received in earlier calls; null between heads. */
  private byte[] held;

  private int heldLength;

  // Scan state: offsets are counted from the first byte of the current head.
  private int count;
  private int lineStart;
  private int headStart;
  private boolean previousWasCr;
  private boolean startLineSeen;

  private HttpHeadParser(Class<H> type, boolean requests, HttpHeadLimits limits) {
    this.type = type;
    this.requests = requests;
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /**
   * Creates a parser for request heads, as a server reads them.
   *
   * @param limits the head size and header count limits
   * @return a new parser
   */
  public static HttpHeadParser<HttpHead.Request> forRequests(HttpHeadLimits limits) {
    return new HttpHeadParser<>(HttpHead.Request.class, true, limits);
  }

  /**
   * Creates a parser for response heads, as a client reads them.
   *
   * @param limits the head size and header count limits
   * @return a new parser
   */
  public static HttpHeadParser<HttpHead.Response> forResponses(HttpHeadLimits limits) {
    return new HttpHeadParser<>(HttpHead.Response.class, false, limits);
  }

  /**
   * Consumes bytes from {@code in} up to the end of a head.
   *
   * @param in bytes from position to limit; on return the position is just past the head's final
   *     CRLF, or at the limit when the head is not complete yet (the bytes are then held)
   * @return the head, or {@code null} when more bytes are needed
   * @throws HttpHeadException when the head is malformed or over a limit, with the status to
   *     answer; the parser has then started over and the connection should be closed
   */
  public H parse(ByteBuffer in) throws HttpHeadException {
    try {
      if (heldLength == 0) {
        return in.hasArray() ? parseInPlace(in) : parseDirect(in);
      }
      while (in.hasRemaining()) {
        byte b = in.get();
        boolean end = step(b);
        hold(b);
        if (end) {
          return finish(held, headStart, heldLength);
        }
      }
      return null;
    } catch (HttpHeadException e) {
      reset();
      throw e;
    }
  }

  /**
   * Returns how many bytes of an unfinished head are held from earlier calls.
   *
   * @return zero between heads
   */
  public int bufferedBytes() {
    return heldLength;
  }

  /** Scans a heap buffer where it lies; copies only when the head is not complete in it. */
  private H parseInPlace(ByteBuffer in) throws HttpHeadException {
    byte[] a = in.array();
    int base = in.arrayOffset() + in.position();
    int n = in.remaining();
    for (int i = 0; i < n; i++) {
      if (step(a[base + i])) {
        int start = base + headStart;
        H head = finish(a, start, base + i + 1);
        in.position(in.position() + i + 1);
        return head;
      }
    }
    for (int i = 0; i < n; i++) {
      hold(a[base + i]);
    }
    in.position(in.limit());
    return null;
  }

  /**
   * Scans a buffer without an array (a pooled direct read buffer) where it lies, and copies out
   * exactly the head once it is complete in it; an unfinished head is held as usual.
   */
  private H parseDirect(ByteBuffer in) throws HttpHeadException {
    int p = in.position();
    int n = in.remaining();
    for (int i = 0; i < n; i++) {
      if (step(in.get(p + i))) {
        int length = i + 1 - headStart;
        byte[] head = SCRATCH.take();
        if (head == null || head.length < length) {
          head = new byte[Math.max(length, 512)];
        }
        in.get(p + headStart, head, 0, length);
        H parsed;
        try {
          parsed = finish(head, 0, length);
        } finally {
          SCRATCH.give(head);
        }
        in.position(p + i + 1);
        return parsed;
      }
    }
    for (int i = 0; i < n; i++) {
      hold(in.get(p + i));
    }
    in.position(in.limit());
    return null;
  }

  /**
   * The array a head read from a direct buffer is copied into: parsing copies what it keeps into
   * strings, so the copy is garbage at once, and a server parses thousands of heads. Kept between
   * heads, grown to the largest seen (which the head limit bounds).
   */
  private static final Stash<byte[]> SCRATCH = new Stash<>();

  /**
   * Advances the scan over one byte; returns true when it ends the head.
   *
   * @throws HttpHeadException on a bare LF or when the head passes its size limit
   */
  private boolean step(byte b) throws HttpHeadException {
    int offset = count;
    if (offset == limits.maxHeadSize()) {
      throw tooLarge();
    }
    count = offset + 1;
    if (b == '\n') {
      if (!previousWasCr) {
        throw new HttpHeadException(
            HttpStatus.BAD_REQUEST,
            "bare LF at byte " + offset + ": lines must end with CRLF (RFC 7230 §3)");
      }
      previousWasCr = false;
      boolean empty = offset - 1 == lineStart;
      lineStart = offset + 1;
      if (!empty) {
        startLineSeen = true;
        return false;
      }
      if (!startLineSeen && requests) {
        headStart = offset + 1; // RFC 7230 §3.5: ignore empty lines before a request-line
        return false;
      }
      return true;
    }
    previousWasCr = b == '\r';
    return false;
  }

  private HttpHeadException tooLarge() {
    if (requests && !startLineSeen) {
      return new HttpHeadException(
          HttpStatus.URI_TOO_LONG,
          "request line longer than the head limit of "
              + limits.maxHeadSize()
              + " bytes (RFC 7231 §6.5.12)");
    }
    return new HttpHeadException(
        HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
        "head larger than the limit of " + limits.maxHeadSize() + " bytes (RFC 6585 §5)");
  }

  private void hold(byte b) {
    if (held == null) {
      held = new byte[Math.min(INITIAL_HOLD, limits.maxHeadSize())];
    } else if (heldLength == held.length) {
      held = Arrays.copyOf(held, Math.min(held.length * 2, limits.maxHeadSize()));
    }
    held[heldLength++] = b;
  }

  private H finish(byte[] a, int from, int to) throws HttpHeadException {
    reset();
    HttpHead head = requests ? parseRequest(a, from, to) : parseResponse(a, from, to);
    return type.cast(head);
  }

  private void reset() {
    held = null;
    heldLength = 0;
    count = 0;
    lineStart = 0;
    headStart = 0;
    previousWasCr = false;
    startLineSeen = false;
  }

  // ---- parsing a complete head; every line is known to end in CRLF ----

  private HttpHead.Request parseRequest(byte[] a, int from, int to) throws HttpHeadException {
    int lf = indexOfLf(a, from, to);
    int eol = lf - 1;
    int p = from;
    while (p < eol && HttpSyntax.isTchar(a[p])) {
      p++;
    }
    if (p == from) {
      throw bad("request line must start with a method token", "RFC 7230 §3.1.1", a, p, eol);
    }
    String method = known(KNOWN_METHODS, a, from, p);
    p = expectSp(a, p, eol, "method");
    int t = p;
    while (p < eol && a[p] > 0x20 && a[p] < 0x7F) {
      p++;
    }
    if (p == t) {
      throw bad("request-target must be visible ASCII", "RFC 7230 §3.1.1", a, p, eol);
    }
    String target = ascii(a, t, p);
    p = expectSp(a, p, eol, "request-target");
    String version = parseVersion(a, p, eol);
    if (p + 8 != eol) {
      throw bad("request line must end after the HTTP-version", "RFC 7230 §3.1.1", a, p + 8, eol);
    }
    return new HttpHead.Request(method, target, version, parseFields(a, lf + 1, to));
  }

  private HttpHead.Response parseResponse(byte[] a, int from, int to) throws HttpHeadException {
    int lf = indexOfLf(a, from, to);
    int eol = lf - 1;
    String version = parseVersion(a, from, eol);
    int p = expectSp(a, from + 8, eol, "HTTP-version");
    int status = 0;
    for (int i = 0; i < 3; i++, p++) {
      if (p >= eol || a[p] < '0' || a[p] > '9') {
        throw bad("status-code must be three digits", "RFC 7230 §3.1.2", a, p, eol);
      }
      status = status * 10 + (a[p] - '0');
    }
    if (status < 100 || status > 599) {
      throw new HttpHeadException(
          HttpStatus.BAD_REQUEST, "status-code " + status + " is outside 100-599 (RFC 7231 §6)");
    }
    String reason = "";
    if (p < eol) {
      p = expectSp(a, p, eol, "status-code");
      for (int i = p; i < eol; i++) {
        if (!HttpSyntax.isFieldValueByte(a[i])) {
          throw bad("reason-phrase holds a control character", "RFC 7230 §3.1.2", a, i, eol);
        }
      }
      reason = latin1(a, p, eol);
    }
    return new HttpHead.Response(version, status, reason, parseFields(a, lf + 1, to));
  }

  private static String parseVersion(byte[] a, int p, int eol) throws HttpHeadException {
    if (eol - p < 8
        || a[p] != 'H'
        || a[p + 1] != 'T'
        || a[p + 2] != 'T'
        || a[p + 3] != 'P'
        || a[p + 4] != '/'
        || !isDigit(a[p + 5])
        || a[p + 6] != '.'
        || !isDigit(a[p + 7])) {
      throw bad("HTTP-version must be HTTP/DIGIT.DIGIT", "RFC 7230 §2.6", a, p, eol);
    }
    if (a[p + 5] != '1') {
      throw new HttpHeadException(
          HttpStatus.HTTP_VERSION_NOT_SUPPORTED,
          "HTTP/"
              + (char) a[p + 5]
              + "."
              + (char) a[p + 7]
              + " is not supported: this parser reads HTTP/1.x (RFC 7231 §6.6.6)");
    }
    return known(KNOWN_VERSIONS, a, p, p + 8);
  }

  private static int expectSp(byte[] a, int p, int eol, String after) throws HttpHeadException {
    if (p >= eol || a[p] != ' ') {
      throw bad("expected one SP after the " + after, "RFC 7230 §3.1", a, p, eol);
    }
    return p + 1;
  }

  private Headers parseFields(byte[] a, int p, int to) throws HttpHeadException {
    // One array slot per line left, the blank last line aside, and no more than the header-count
    // limit (a head with more fields throws when it reaches it): no growing, no spare slots.
    int lines = Math.max(0, Math.min(countLf(a, p, to) - 1, limits.maxHeaderCount()));
    String[] names = new String[lines];
    String[] values = new String[lines];
    int n = 0;
    while (true) {
      int lf = indexOfLf(a, p, to);
      int eol = lf - 1;
      if (eol == p) {
        return HeadersAccess.get().make(names, values, n);
      }
      if (HttpSyntax.isOws(a[p])) {
        if (n == 0) {
          throw new HttpHeadException(
              HttpStatus.BAD_REQUEST,
              "whitespace between the start line and the first header field (RFC 7230 §3)");
        }
        if (requests) {
          throw new HttpHeadException(
              HttpStatus.BAD_REQUEST,
              "obs-fold (a header line starting with whitespace) is not accepted in a request"
                  + " (RFC 7230 §3.2.4)");
        }
        values[n - 1] = unfold(values[n - 1], fieldValue(a, p, eol, names[n - 1]));
        p = lf + 1;
        continue;
      }
      int nameStart = p;
      while (p < eol && HttpSyntax.isTchar(a[p])) {
        p++;
      }
      if (p == eol || a[p] != ':') {
        throw badName(a, nameStart, p, eol);
      }
      if (p == nameStart) {
        throw new HttpHeadException(
            HttpStatus.BAD_REQUEST, "header field name is empty (RFC 7230 §3.2)");
      }
      if (n == limits.maxHeaderCount()) {
        throw new HttpHeadException(
            HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
            "more than " + limits.maxHeaderCount() + " header fields (RFC 6585 §5)");
      }
      String name = known(KNOWN_NAMES, a, nameStart, p);
      names[n] = name;
      values[n] = fieldValue(a, p + 1, eol, name);
      n++;
      p = lf + 1;
    }
  }

  private static HttpHeadException badName(byte[] a, int nameStart, int p, int eol) {
    String field = p > nameStart ? " in field " + ascii(a, nameStart, p) : "";
    String what;
    if (p == eol) {
      what = "header line has no colon" + field + " (RFC 7230 §3.2)";
    } else if (HttpSyntax.isOws(a[p])) {
      what = "whitespace between header field name and colon" + field + " (RFC 7230 §3.2.4)";
    } else {
      what =
          "header field name holds "
              + HttpSyntax.describe(a[p])
              + ", which is not a token character"
              + field
              + " (RFC 7230 §3.2.6)";
    }
    return new HttpHeadException(HttpStatus.BAD_REQUEST, what);
  }

  /** Extracts a field value between {@code p} and {@code eol}, trimming OWS and checking bytes. */
  private static String fieldValue(byte[] a, int p, int eol, String name) throws HttpHeadException {
    while (p < eol && HttpSyntax.isOws(a[p])) {
      p++;
    }
    int end = eol;
    while (end > p && HttpSyntax.isOws(a[end - 1])) {
      end--;
    }
    for (int i = p; i < end; i++) {
      if (!HttpSyntax.isFieldValueByte(a[i])) {
        throw new HttpHeadException(
            HttpStatus.BAD_REQUEST,
            "value of header field "
                + name
                + " holds "
                + HttpSyntax.describe(a[i])
                + ": field values may not carry controls such as a bare CR or NUL"
                + " (RFC 7230 §3.2)");
      }
    }
    return known(KNOWN_VALUES, a, p, end);
  }

  private static String unfold(String previous, String continuation) {
    if (previous.isEmpty()) {
      return continuation;
    }
    return continuation.isEmpty() ? previous : previous + ' ' + continuation;
  }

  private static int countLf(byte[] a, int p, int to) {
    int n = 0;
    for (int i = p; i < to; i++) {
      if (a[i] == '\n') {
        n++;
      }
    }
    return n;
  }

  private static int indexOfLf(byte[] a, int p, int to) {
    while (a[p] != '\n') {
      p++;
    }
    assert p < to;
    return p;
  }

  private static HttpHeadException bad(String rule, String section, byte[] a, int p, int eol) {
    String found = p < eol ? ", found " + HttpSyntax.describe(a[p]) : ", found end of line";
    return new HttpHeadException(HttpStatus.BAD_REQUEST, rule + found + " (" + section + ")");
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  /**
   * Returns the shared string when the bytes spell one of {@code known} exactly (same case), else a
   * new Latin-1 string: the fields every upgrade request carries then cost no garbage.
   */
  private static String known(String[] known, byte[] a, int from, int to) {
    int n = to - from;
    for (String k : known) {
      if (k.length() == n && matches(k, a, from)) {
        return k;
      }
    }
    return latin1(a, from, to);
  }

  private static boolean matches(String k, byte[] a, int from) {
    for (int i = 0; i < k.length(); i++) {
      if (a[from + i] != k.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static String ascii(byte[] a, int from, int to) {
    return new String(a, from, to - from, StandardCharsets.US_ASCII);
  }

  private static String latin1(byte[] a, int from, int to) {
    return new String(a, from, to - from, StandardCharsets.ISO_8859_1);
  }
}
