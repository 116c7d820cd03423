package dev.wsjava.handshake;

import dev.wsjava.Headers;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * RFC 6455 §4.1: the client side of the opening handshake for one connection. It writes the upgrade
 * request, then reads the server's response and checks every rule a client must: status 101, {@code
 * Upgrade: websocket}, {@code Connection: Upgrade}, the exact {@code Sec-WebSocket-Accept}, and
 * that the extensions and subprotocol chosen were offered.
 *
 * <p>Use: send {@link #request()}, then feed what arrives to {@link #receive(ByteBuffer)} until it
 * returns a result; the bytes after the 101 head (a first frame) stay in the buffer. Interim 1xx
 * responses other than 101 are skipped (RFC 7231 §6.2). Not thread-safe: one connection.
 */
public final class ClientHandshake {
  /** Bounds how many interim (1xx) responses are skipped before the final one. */
  static final int MAX_INTERIM_RESPONSES = 8;

  private final ClientHandshakeConfig config;
  private final String key;
  private final String expectedAccept;
  private final ByteBuffer request;
  private final HttpHeadParser<HttpHead.Response> parser;
  private int interimResponses;
  private boolean done;

  private ClientHandshake(ClientHandshakeConfig config, String key, byte[] request) {
    this.config = config;
    this.key = key;
    this.expectedAccept = AcceptKey.accept(key);
    this.request = ByteBuffer.wrap(request).asReadOnlyBuffer();
    this.parser = HttpHeadParser.forResponses(config.limits());
  }

  /**
   * Starts a handshake: draws a fresh key and writes the upgrade request.
   *
   * @param uri a {@code ws} or {@code wss} URI without fragment or user info; its host and port go
   *     to {@code Host} (the port only when it is not the scheme's default), its path and query
   *     form the request-target
   * @param config what to offer
   * @param random the source of the 16-byte key
   * @return the handshake, ready to send {@link #request()}
   * @throws IllegalArgumentException when the URI is not a valid WebSocket URI (RFC 6455 §3)
   */
  public static ClientHandshake start(URI uri, ClientHandshakeConfig config, SecureRandom random) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(random, "random");
    Target target = Target.of(uri);
    String key = AcceptKey.newKey(random);
    StringBuilder sb = new StringBuilder(256);
    sb.append("GET ").append(target.requestTarget).append(" HTTP/1.1\r\n");
    sb.append("Host: ").append(target.host).append("\r\n");
    sb.append("Upgrade: websocket\r\n");
    sb.append("Connection: Upgrade\r\n");
    sb.append("Sec-WebSocket-Key: ").append(key).append("\r\n");
    if (config.origin() != null) {
      sb.append("Origin: ").append(config.origin()).append("\r\n");
    }
    if (!config.subprotocols().isEmpty()) {
      sb.append("Sec-WebSocket-Protocol: ")
          .append(String.join(", ", config.subprotocols()))
          .append("\r\n");
    }
    sb.append("Sec-WebSocket-Version: 13\r\n");
    List<ExtensionOffer> offers = config.extensionOffers();
    if (!offers.isEmpty()) {
      sb.append("Sec-WebSocket-Extensions: ").append(ExtensionHeader.format(offers)).append("\r\n");
    }
    HeadersAccess.get().appendTo(config.headers(), sb);
    sb.append("\r\n");
    return new ClientHandshake(config, key, sb.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Returns the {@code Sec-WebSocket-Key} this handshake sent.
   *
   * @return 24 base64 characters
   */
  public String key() {
    return key;
  }

  /**
   * Returns the upgrade request to send.
   *
   * @return a new read-only view of the request bytes, positioned at 0
   */
  public ByteBuffer request() {
    return request.duplicate();
  }

  /**
   * Reads the server's response.
   *
   * @param in received bytes; consumed up to the end of the response head
   * @return the result once the 101 response is complete and valid, or {@code null} when more bytes
   *     are needed
   * @throws HandshakeException when the response is malformed, is not 101, or breaks a rule of
   *     §4.1; the connection must then be closed
   * @throws IllegalStateException when called after a result was returned
   */
  public Result receive(ByteBuffer in) throws HandshakeException {
    if (done) {
      throw new IllegalStateException("the handshake is already complete");
    }
    while (true) {
      HttpHead.Response response;
      try {
        response = parser.parse(in);
      } catch (HttpHeadException e) {
        throw new HandshakeException("malformed handshake response: " + e.getMessage(), e);
      }
      if (response == null) {
        return null;
      }
      int status = response.status();
      if (status >= 100 && status < 200 && status != HttpStatus.SWITCHING_PROTOCOLS) {
        if (++interimResponses > MAX_INTERIM_RESPONSES) {
          throw new HandshakeException(
              response, "more than " + MAX_INTERIM_RESPONSES + " interim 1xx responses");
        }
        continue;
      }
      Result result = validate(response);
      done = true;
      return result;
    }
  }

  /**
   * Checks a response head against this handshake's request (RFC 6455 §4.1, the client's checks 1
   * to 6) and creates the negotiated extensions.
   *
   * @param response the server's response head
   * @return the subprotocol and extensions the server chose
   * @throws HandshakeException naming the rule broken; extensions created before the failure are
   *     closed
   */
  public Result validate(HttpHead.Response response) throws HandshakeException {
    Headers h = response.headers();
    if (response.status() != HttpStatus.SWITCHING_PROTOCOLS) {
      throw new HandshakeException(
          response,
          "server answered "
              + response.status()
              + (response.reason().isEmpty() ? "" : " " + response.reason())
              + " instead of 101 Switching Protocols (RFC 6455 §4.1)");
    }
    List<String> upgrade = h.tokens("Upgrade");
    if (upgrade.size() != 1 || !upgrade.get(0).equalsIgnoreCase("websocket")) {
      throw new HandshakeException(
          response,
          "response Upgrade must be websocket, was "
              + describe(h.all("Upgrade"))
              + " (RFC 6455 §4.1)");
    }
    if (!h.containsToken("Connection", "upgrade")) {
      throw new HandshakeException(
          response,
          "response Connection must include Upgrade, was "
              + describe(h.all("Connection"))
              + " (RFC 6455 §4.1)");
    }
    List<String> accept = h.all("Sec-WebSocket-Accept");
    if (accept.size() != 1 || !accept.get(0).equals(expectedAccept)) {
      throw new HandshakeException(
          response,
          "Sec-WebSocket-Accept must be "
              + expectedAccept
              + " for the key sent, was "
              + describe(accept)
              + " (RFC 6455 §4.1)");
    }
    String subprotocol = subprotocol(response);
    List<Extension> extensions = extensions(response);
    return new Result(response, subprotocol, extensions);
  }

  private String subprotocol(HttpHead.Response response) throws HandshakeException {
    List<String> lines = response.headers().all("Sec-WebSocket-Protocol");
    if (lines.isEmpty()) {
      return null;
    }
    List<String> offered = config.subprotocols();
    if (lines.size() == 1 && offered.contains(lines.get(0))) {
      return lines.get(0);
    }
    throw new HandshakeException(
        response,
        (offered.isEmpty()
                ? "server chose a subprotocol although none was offered: "
                : "server must choose one of the offered subprotocols " + offered + ", chose ")
            + describe(lines)
            + " (RFC 6455 §4.1)");
  }

  private List<Extension> extensions(HttpHead.Response response) throws HandshakeException {
    List<ExtensionOffer> accepted;
    try {
      accepted = ExtensionHeader.parse(response.headers().all("Sec-WebSocket-Extensions"));
    } catch (ExtensionNegotiationException e) {
      throw new HandshakeException(response, e.getMessage(), e);
    }
    if (accepted.isEmpty()) {
      return List.of();
    }
    List<Extension> created = new ArrayList<>(accepted.size());
    Set<String> seen = new HashSet<>();
    int rsvInUse = 0;
    try {
      for (ExtensionOffer element : accepted) {
        ExtensionFactory factory = factoryNamed(element.name());
        if (factory == null) {
          throw new HandshakeException(
              response,
              "server accepted extension "
                  + element.name()
                  + ", which was not offered"
                  + " (RFC 6455 §9.1)");
        }
        if (!seen.add(element.name())) {
          throw new HandshakeException(
              response, "server accepted extension " + element.name() + " twice (RFC 6455 §9.1)");
        }
        Extension extension;
        try {
          extension = factory.clientAccept(element);
        } catch (ExtensionNegotiationException e) {
          throw new HandshakeException(
              response,
              "extension " + element.name() + " refused the server's answer: " + e.getMessage(),
              e);
        }
        created.add(extension);
        if ((extension.rsvBits() & rsvInUse) != 0) {
          throw new HandshakeException(
              response,
              "server accepted extensions that claim the same RSV bits (0x"
                  + Integer.toHexString(extension.rsvBits() & rsvInUse)
                  + ") (RFC 6455 §5.2)");
        }
        rsvInUse |= extension.rsvBits();
      }
    } catch (HandshakeException e) {
      created.forEach(Extension::close);
      throw e;
    }
    return List.copyOf(created);
  }

  private ExtensionFactory factoryNamed(String name) {
    for (ExtensionFactory f : config.extensions()) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  private static String describe(List<String> values) {
    return values.isEmpty() ? "absent" : "\"" + String.join(", ", values) + "\"";
  }

  /**
   * What a successful handshake settled.
   *
   * @param response the server's 101 response head
   * @param subprotocol the subprotocol the server chose, or {@code null}
   * @param extensions the negotiated extensions, in the server's order (the order they apply to
   *     outbound data, RFC 6455 §9.1); the caller closes them with the connection
   */
  public record Result(HttpHead.Response response, String subprotocol, List<Extension> extensions) {
    /**
     * Creates a result.
     *
     * @param response the 101 head
     * @param subprotocol the subprotocol, or {@code null}
     * @param extensions the extensions; copied
     */
    public Result {
      Objects.requireNonNull(response, "response");
      extensions = List.copyOf(extensions);
    }
  }

  /** The parts of a WebSocket URI the request is built from (RFC 6455 §3, §4.1). */
  private record Target(String host, String requestTarget) {
    static Target of(URI uri) {
      Objects.requireNonNull(uri, "uri");
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      int defaultPort =
          switch (scheme) {
            case "ws" -> 80;
            case "wss" -> 443;
            default ->
                throw new IllegalArgumentException(
                    "WebSocket URI scheme must be ws or wss: " + uri + " (RFC 6455 §3)");
          };
      URI ascii = URI.create(uri.toASCIIString());
      if (ascii.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "WebSocket URI must not have a fragment: " + uri + " (RFC 6455 §3)");
      }
      if (ascii.getRawUserInfo() != null) {
        throw new IllegalArgumentException(
            "WebSocket URI must not carry user info: " + uri + " (RFC 6455 §3)");
      }
      String host = ascii.getHost();
      if (host == null || host.isEmpty()) {
        throw new IllegalArgumentException("WebSocket URI has no host: " + uri);
      }
      int port = ascii.getPort();
      String hostField = port < 0 || port == defaultPort ? host : host + ":" + port;
      String path = ascii.getRawPath();
      String target = path == null || path.isEmpty() ? "/" : path;
      if (ascii.getRawQuery() != null) {
        target = target + "?" + ascii.getRawQuery();
      }
      return new Target(hostField, target);
    }
  }
}
