package dev.wsjava.handshake;

import dev.wsjava.Headers;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * RFC 6455 §4.2: the server side of the opening handshake. It reads an upgrade request, checks it
 * against §4.2.1, runs the configured origin, subprotocol and extension hooks, and answers with a
 * 101 response or a complete error response.
 *
 * <p>The checks, in order, and their answers:
 *
 * <ol>
 *   <li>method GET, else 405 with {@code Allow: GET}: the route exists but serves only GET;
 *   <li>an {@code Upgrade} field, else 426 with {@code Upgrade: websocket}: a plain HTTP request
 *       reached a WebSocket route, and 426 tells the client what it must do;
 *   <li>HTTP/1.1 or later, exactly one {@code Host}, {@code Upgrade} holding {@code websocket},
 *       {@code Connection} holding {@code upgrade} (both case-insensitive, lists allowed), and no
 *       body (a body would be read as frames), else 400;
 *   <li>{@code Sec-WebSocket-Version: 13}, else 426 with {@code Sec-WebSocket-Version: 13}
 *       (§4.2.2); checked before the key so that a client of another version learns which to use;
 *   <li>exactly one {@code Sec-WebSocket-Key}, base64 of 16 bytes, else 400;
 *   <li>at most one {@code Origin}, else 400; the origin policy, else 403;
 *   <li>a well-formed {@code Sec-WebSocket-Protocol} (tokens) and {@code Sec-WebSocket-Extensions}
 *       (§9.1), else 400.
 * </ol>
 *
 * <p>An instance reads one connection's request and is not thread-safe; the static methods are.
 */
public final class ServerHandshake {
  /** The 101 response up to the accept value, which follows it. */
  private static final byte[] UPGRADE_HEAD =
      ("HTTP/1.1 101 Switching Protocols\r\n"
              + "Upgrade: websocket\r\n"
              + "Connection: Upgrade\r\n"
              + "Sec-WebSocket-Accept: ")
          .getBytes(StandardCharsets.US_ASCII);

  private static final byte[] NO_BYTES = new byte[0];

  private final ServerHandshakeConfig config;
  private final HttpHeadParser<HttpHead.Request> parser;
  private boolean done;

  /**
   * Creates the handshake for one connection.
   *
   * @param config the shared server configuration
   */
  public ServerHandshake(ServerHandshakeConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.parser = HttpHeadParser.forRequests(config.limits());
  }

  /**
   * Reads the client's request and decides.
   *
   * @param in received bytes; consumed up to the end of the request head, so frames the client sent
   *     right after it stay in the buffer
   * @return the decision, or {@code null} when more bytes are needed; a malformed or oversized head
   *     is a {@link Rejected} with its status (400, 414, 431, 505)
   * @throws IllegalStateException when called after a decision was returned
   */
  public Result receive(ByteBuffer in) {
    if (done) {
      throw new IllegalStateException("the handshake has already been decided");
    }
    HttpHead.Request request;
    try {
      request = parser.parse(in);
    } catch (HttpHeadException e) {
      done = true;
      return reject(e.status(), e.getMessage());
    }
    if (request == null) {
      return null;
    }
    done = true;
    return validate(request, config);
  }

  /**
   * Decides on a request head that was already parsed (for example by the HTTP front, after
   * routing).
   *
   * @param request the request head
   * @param config the server configuration
   * @return an acceptance with the 101 response, or a rejection with its error response
   */
  public static Result validate(HttpHead.Request request, ServerHandshakeConfig config) {
    try {
      return accept(request, config);
    } catch (Refusal r) {
      return r.rejected;
    }
  }

  private static Accepted accept(HttpHead.Request request, ServerHandshakeConfig config)
      throws Refusal {
    Headers h = request.headers();
    if (!request.method().equals("GET")) {
      throw refuse(
          HttpStatus.METHOD_NOT_ALLOWED,
          "WebSocket handshake method must be GET, was " + request.method() + " (RFC 6455 §4.1)",
          Headers.builder().add("Allow", "GET").build());
    }
    if (!h.contains("Upgrade")) {
      throw refuse(
          HttpStatus.UPGRADE_REQUIRED,
          "request has no Upgrade field: this resource is served over WebSocket only"
              + " (RFC 6455 §4.2.1)",
          Headers.builder().add("Upgrade", "websocket").build());
    }
    if (request.minorVersion() < 1) {
      throw refuse(
          HttpStatus.BAD_REQUEST,
          "WebSocket handshake requires HTTP/1.1 or later, was "
              + request.version()
              + " (RFC 6455 §4.1)");
    }
    if (h.count("Host") != 1) {
      throw refuse(
          HttpStatus.BAD_REQUEST,
          "request must carry exactly one Host field, had "
              + h.count("Host")
              + " (RFC 6455 §4.2.1, RFC 7230 §5.4)");
    }
    if (!h.containsToken("Upgrade", "websocket")) {
      throw refuse(
          HttpStatus.BAD_REQUEST,
          "Upgrade must include websocket, was \""
              + String.join(", ", h.all("Upgrade"))
              + "\" (RFC 6455 §4.2.1)");
    }
    if (!h.containsToken("Connection", "upgrade")) {
      throw refuse(HttpStatus.BAD_REQUEST, "Connection must include Upgrade (RFC 6455 §4.2.1)");
    }
    if (h.contains("Transfer-Encoding")
        || (h.contains("Content-Length") && !HeadersAccess.get().isOnlyToken(h, "Content-Length", "0"))) {
      throw refuse(
          HttpStatus.BAD_REQUEST,
          "a WebSocket upgrade request must not carry a body (RFC 6455 §4.1)");
    }
    if (!HeadersAccess.get().isOnlyToken(h, "Sec-WebSocket-Version", "13")) {
      throw refuse(
          HttpStatus.UPGRADE_REQUIRED,
          "Sec-WebSocket-Version must be 13, was "
              + (h.contains("Sec-WebSocket-Version")
                  ? "\"" + String.join(", ", h.all("Sec-WebSocket-Version")) + "\""
                  : "absent")
              + " (RFC 6455 §4.2.2)",
          Headers.builder().add("Sec-WebSocket-Version", "13").build());
    }
    int keys = h.count("Sec-WebSocket-Key");
    if (keys != 1) {
      throw refuse(
          HttpStatus.BAD_REQUEST,
          "request must carry exactly one Sec-WebSocket-Key, had " + keys + " (RFC 6455 §4.2.1)");
    }
    String key = h.first("Sec-WebSocket-Key");
    if (!AcceptKey.isValidKey(key)) {
      throw refuse(
          HttpStatus.BAD_REQUEST, "Sec-WebSocket-Key must be base64 of 16 bytes (RFC 6455 §4.2.1)");
    }
    if (h.count("Origin") > 1) {
      throw refuse(HttpStatus.BAD_REQUEST, "request carries more than one Origin (RFC 6454 §7)");
    }
    String origin = h.first("Origin");
    if (!config.originPolicy().test(origin)) {
      throw refuse(
          HttpStatus.FORBIDDEN,
          "origin " + (origin == null ? "(none)" : origin) + " is not allowed (RFC 6455 §4.2.2)");
    }
    String subprotocol = selectSubprotocol(h, config);
    List<ExtensionFactory.Accepted> extensions = negotiateExtensions(h, config);
    return accepted(request, key, subprotocol, extensions, config);
  }

  private static String selectSubprotocol(Headers h, ServerHandshakeConfig config) throws Refusal {
    if (!h.contains("Sec-WebSocket-Protocol")) {
      return null; // most clients offer none: no list to make
    }
    List<String> offered = h.tokens("Sec-WebSocket-Protocol");
    for (String p : offered) {
      if (!HttpSyntax.isToken(p)) {
        throw refuse(
            HttpStatus.BAD_REQUEST,
            "Sec-WebSocket-Protocol elements must be tokens, found \"" + p + "\" (RFC 6455 §4.1)");
      }
    }
    if (offered.isEmpty()) {
      return null;
    }
    String chosen = config.subprotocolSelector().apply(offered);
    if (chosen != null && !offered.contains(chosen)) {
      throw refuse(
          HttpStatus.INTERNAL_SERVER_ERROR,
          "subprotocol selector chose " + chosen + ", which the client did not offer " + offered);
    }
    return chosen;
  }

  /**
   * Runs each factory on the client's offers of its name. Factories go in the order of their name's
   * first offer, so the response follows the client's preference (RFC 6455 §9.1). An extension
   * whose RSV bits another already accepted one owns is declined.
   */
  private static List<ExtensionFactory.Accepted> negotiateExtensions(
      Headers h, ServerHandshakeConfig config) throws Refusal {
    List<ExtensionOffer> offers;
    try {
      offers = ExtensionHeader.parse(h.all("Sec-WebSocket-Extensions"));
    } catch (ExtensionNegotiationException e) {
      throw refuse(HttpStatus.BAD_REQUEST, e.getMessage());
    }
    if (offers.isEmpty() || config.extensions().isEmpty()) {
      return List.of();
    }
    record Candidate(int firstOffer, ExtensionFactory factory, List<ExtensionOffer> offers) {}
    List<Candidate> candidates = new ArrayList<>();
    for (ExtensionFactory factory : config.extensions()) {
      int first = -1;
      List<ExtensionOffer> mine = new ArrayList<>(2);
      for (int i = 0; i < offers.size(); i++) {
        if (offers.get(i).name().equals(factory.name())) {
          first = first < 0 ? i : first;
          mine.add(offers.get(i));
        }
      }
      if (first >= 0) {
        candidates.add(new Candidate(first, factory, List.copyOf(mine)));
      }
    }
    candidates.sort(Comparator.comparingInt(Candidate::firstOffer));
    List<ExtensionFactory.Accepted> accepted = new ArrayList<>(candidates.size());
    int rsvInUse = 0;
    for (Candidate c : candidates) {
      ExtensionFactory.Accepted a;
      try {
        a = c.factory().serverAccept(c.offers());
      } catch (RuntimeException e) {
        accepted.forEach(x -> x.extension().close());
        throw e;
      }
      if (a == null) {
        continue;
      }
      if (a.extension() == null
          || a.response() == null
          || !a.response().name().equals(c.factory().name())) {
        if (a.extension() != null) {
          a.extension().close();
        }
        accepted.forEach(x -> x.extension().close());
        throw refuse(
            HttpStatus.INTERNAL_SERVER_ERROR,
            "extension factory "
                + c.factory().name()
                + " accepted without an extension or answered under another name");
      }
      if ((a.extension().rsvBits() & rsvInUse) != 0) {
        a.extension().close(); // both would claim the same RSV bit: keep the preferred one
        continue;
      }
      rsvInUse |= a.extension().rsvBits();
      accepted.add(a);
    }
    return accepted;
  }

  private static Accepted accepted(
      HttpHead.Request request,
      String key,
      String subprotocol,
      List<ExtensionFactory.Accepted> extensions,
      ServerHandshakeConfig config)
      throws Refusal {
    // The fixed head and the accept value go straight into the response bytes; only optional
    // fields (none in the common case) pass through a StringBuilder.
    StringBuilder sb = null;
    if (subprotocol != null) {
      sb = new StringBuilder(128);
      sb.append("Sec-WebSocket-Protocol: ").append(subprotocol).append("\r\n");
    }
    List<Extension> instances = extensions.isEmpty() ? List.of() : new ArrayList<>();
    if (!extensions.isEmpty()) {
      if (sb == null) {
        sb = new StringBuilder(128);
      }
      List<ExtensionOffer> responses = new ArrayList<>(extensions.size());
      for (ExtensionFactory.Accepted a : extensions) {
        responses.add(a.response());
        instances.add(a.extension());
      }
      try {
        sb.append("Sec-WebSocket-Extensions: ")
            .append(ExtensionHeader.format(responses))
            .append("\r\n");
      } catch (IllegalArgumentException e) {
        instances.forEach(Extension::close);
        throw refuse(
            HttpStatus.INTERNAL_SERVER_ERROR, "extension response cannot be written: " + e);
      }
    }
    if (!config.headers().isEmpty()) {
      if (sb == null) {
        sb = new StringBuilder(128);
      }
      HeadersAccess.get().appendTo(config.headers(), sb);
    }
    byte[] tail = sb == null ? NO_BYTES : sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    int at = UPGRADE_HEAD.length;
    byte[] bytes = Arrays.copyOf(UPGRADE_HEAD, at + AcceptKey.ACCEPT_CHARS + 2 + tail.length + 2);
    AcceptKey.acceptInto(key, bytes, at);
    at += AcceptKey.ACCEPT_CHARS;
    bytes[at++] = '\r';
    bytes[at++] = '\n';
    System.arraycopy(tail, 0, bytes, at, tail.length);
    at += tail.length;
    bytes[at++] = '\r';
    bytes[at] = '\n';
    return new Accepted(request, bytes, subprotocol, instances);
  }

  /**
   * Builds a complete error response: status line, {@code Connection: close}, a short plain text
   * body naming the status. The reason is for logs and is not sent.
   *
   * @param status 300 to 599
   * @param reason what was wrong, for logs
   * @return the rejection
   */
  public static Rejected reject(int status, String reason) {
    return reject(status, reason, Headers.empty());
  }

  /**
   * Builds a complete error response with more header fields (for example {@code Allow}, {@code
   * Location}, {@code Sec-WebSocket-Version}). When they hold {@code Upgrade}, the response says
   * {@code Connection: Upgrade, close} as RFC 7230 §6.7 asks.
   *
   * @param status 300 to 599
   * @param reason what was wrong, for logs
   * @param headers more fields; not {@code Connection}, {@code Content-Length}, {@code
   *     Content-Type} or {@code Transfer-Encoding}, which this method writes
   * @return the rejection
   * @throws IllegalArgumentException for a status outside 300-599 or a field this method owns
   */
  public static Rejected reject(int status, String reason, Headers headers) {
    return reject(status, reason, headers, null);
  }

  /**
   * Builds a complete error response with more header fields and a body of the caller's (for
   * example a 401 with {@code WWW-Authenticate} and a line saying how to log in).
   *
   * @param status 300 to 599
   * @param reason what was wrong, for logs
   * @param headers more fields, as for {@link #reject(int, String, Headers)}
   * @param body the body, sent as {@code text/plain; charset=utf-8}; null for the status line's
   *     words
   * @return the rejection
   * @throws IllegalArgumentException for a status outside 300-599 or a field this method owns
   */
  public static Rejected reject(int status, String reason, Headers headers, String body) {
    if (status < 300 || status > 599) {
      throw new IllegalArgumentException("a rejection status must be 300 to 599: " + status);
    }
    Objects.requireNonNull(reason, "reason");
    for (int i = 0; i < headers.size(); i++) {
      String n = headers.name(i).toLowerCase(Locale.ROOT);
      if (n.equals("connection")
          || n.equals("content-length")
          || n.equals("content-type")
          || n.equals("transfer-encoding")) {
        throw new IllegalArgumentException(
            "header " + headers.name(i) + " is written by the rejection itself");
      }
    }
    String phrase = HttpStatus.reasonPhrase(status);
    byte[] content =
        (body != null ? body : phrase.isEmpty() ? status + "\n" : status + " " + phrase + "\n")
            .getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(160);
    sb.append("HTTP/1.1 ").append(status).append(' ').append(phrase).append("\r\n");
    HeadersAccess.get().appendTo(headers, sb);
    String connection = headers.contains("Upgrade") ? "Upgrade, close" : "close";
    sb.append("Connection: ").append(connection).append("\r\n");
    sb.append("Content-Type: text/plain; charset=utf-8\r\n");
    sb.append("Content-Length: ").append(content.length).append("\r\n\r\n");
    byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] bytes = Arrays.copyOf(head, head.length + content.length);
    System.arraycopy(content, 0, bytes, head.length, content.length);
    return new Rejected(status, ByteBuffer.wrap(bytes), reason);
  }

  private static Refusal refuse(int status, String reason) {
    return new Refusal(reject(status, reason));
  }

  private static Refusal refuse(int status, String reason, Headers headers) {
    return new Refusal(reject(status, reason, headers));
  }

  /** The outcome of a server handshake: {@link Accepted} or {@link Rejected}. */
  public sealed interface Result permits Accepted, Rejected {
    /**
     * Returns the bytes to send: the 101 response or the error response.
     *
     * @return a new read-only view, positioned at 0
     */
    ByteBuffer response();
  }

  /**
   * The handshake succeeded: send the 101 response, then speak WebSocket. It keeps the response as
   * bytes and lends a view per {@link #response()}: a server makes one per connection, and a
   * buffer kept beside the view it lends would be garbage at once.
   */
  public static final class Accepted implements Result {
    private final HttpHead.Request request;
    private final byte[] response;
    private final String subprotocol;
    private final List<Extension> extensions;

    /**
     * Creates an acceptance.
     *
     * @param request the request head
     * @param response the response bytes from position to limit; copied, the position unchanged
     * @param subprotocol the subprotocol, or {@code null}
     * @param extensions the extensions; copied
     */
    public Accepted(
        HttpHead.Request request,
        ByteBuffer response,
        String subprotocol,
        List<Extension> extensions) {
      this(request, bytesOf(response), subprotocol, extensions);
    }

    private Accepted(
        HttpHead.Request request, byte[] response, String subprotocol, List<Extension> extensions) {
      this.request = Objects.requireNonNull(request, "request");
      this.response = response;
      this.subprotocol = subprotocol;
      this.extensions = List.copyOf(extensions);
    }

    private static byte[] bytesOf(ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.get(b.position(), bytes);
      return bytes;
    }

    /**
     * Returns the client's request head.
     *
     * @return its target, cookies and so on
     */
    public HttpHead.Request request() {
      return request;
    }

    /**
     * Returns the 101 response.
     *
     * @return a new read-only view, positioned at its start
     */
    @Override
    public ByteBuffer response() {
      return ByteBuffer.wrap(response).asReadOnlyBuffer();
    }

    /**
     * Returns the chosen subprotocol.
     *
     * @return the subprotocol, or {@code null}
     */
    public String subprotocol() {
      return subprotocol;
    }

    /**
     * Returns the negotiated extensions, in response order; the caller closes them with the
     * connection.
     *
     * @return an unmodifiable list
     */
    public List<Extension> extensions() {
      return extensions;
    }

    /**
     * Returns this acceptance answered with another subprotocol and more 101 fields: the
     * application's choice, made after the handshake's own negotiation.
     *
     * @param subprotocol one of the subprotocols the client offered, or null for none
     * @param headers more fields for the 101 (for example {@code Set-Cookie}); none the handshake
     *     writes itself
     * @return the new acceptance, with the same request and extensions
     * @throws IllegalArgumentException when the client did not offer the subprotocol (RFC 6455
     *     §4.2.2) or a field is the handshake's own
     */
    public Accepted with(String subprotocol, Headers headers) {
      return with(subprotocol, headers, false);
    }

    /**
     * As {@link #with(String, Headers)}, and with no extension when {@code declineExtensions}: the
     * 101 loses its {@code Sec-WebSocket-Extensions} field and the acceptance its extensions, which
     * the caller closes (they stay in this acceptance's list).
     *
     * @param subprotocol one of the subprotocols the client offered, or null for none
     * @param headers more fields for the 101; none the handshake writes itself
     * @param declineExtensions true to answer with no extension
     * @return the new acceptance
     * @throws IllegalArgumentException as {@link #with(String, Headers)}
     */
    public Accepted with(String subprotocol, Headers headers, boolean declineExtensions) {
      if (subprotocol != null && !request.headers().tokens("Sec-WebSocket-Protocol").contains(subprotocol)) {
        throw new IllegalArgumentException(
            "subprotocol "
                + subprotocol
                + " was not offered by the client (RFC 6455 §4.2.2), which offered "
                + request.headers().tokens("Sec-WebSocket-Protocol"));
      }
      HandshakeFields.checkNotOwned(headers, false);
      // Keep every line of this response but its subprotocol and the blank line; then add.
      String head = new String(response, StandardCharsets.ISO_8859_1);
      StringBuilder sb = new StringBuilder(head.length() + 64);
      for (String line : head.substring(0, head.length() - 4).split("\r\n", -1)) {
        if (!line.regionMatches(true, 0, "Sec-WebSocket-Protocol:", 0, 23)
            && !(declineExtensions && line.regionMatches(true, 0, "Sec-WebSocket-Extensions:", 0, 25))) {
          sb.append(line).append("\r\n");
        }
      }
      if (subprotocol != null) {
        sb.append("Sec-WebSocket-Protocol: ").append(subprotocol).append("\r\n");
      }
      HeadersAccess.get().appendTo(headers, sb);
      sb.append("\r\n");
      return new Accepted(
          request, sb.toString().getBytes(StandardCharsets.ISO_8859_1), subprotocol,
          declineExtensions ? List.of() : extensions);
    }

    @Override
    public String toString() {
      return "Accepted[" + request.method() + " " + request.target() + ", subprotocol="
          + subprotocol + ", extensions=" + extensions + ", " + response.length
          + " response bytes]";
    }
  }

  /**
   * The handshake was refused: send the response, then close the connection.
   *
   * @param status the HTTP status sent
   * @param response the complete error response (head and body)
   * @param reason the rule broken, for logs (never sent)
   */
  public record Rejected(int status, ByteBuffer response, String reason) implements Result {
    /**
     * Creates a rejection.
     *
     * @param status the status
     * @param response the response bytes from position to limit; kept as a read-only view
     * @param reason the reason
     */
    public Rejected {
      response = response.asReadOnlyBuffer();
      Objects.requireNonNull(reason, "reason");
    }

    /**
     * Returns the error response.
     *
     * @return a new read-only view, positioned at its start
     */
    @Override
    public ByteBuffer response() {
      return response.duplicate();
    }
  }

  /** Carries a rejection out of the checks; no stack trace, it is control flow. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Rejected rejected;

    Refusal(Rejected rejected) {
      super(rejected.reason(), null, false, false);
      this.rejected = rejected;
    }
  }
}
