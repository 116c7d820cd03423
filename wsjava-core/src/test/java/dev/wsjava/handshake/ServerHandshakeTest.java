package dev.wsjava.handshake;

import dev.wsjava.Headers;
import static dev.wsjava.handshake.HttpHeadParserTest.FRAME;
import static dev.wsjava.handshake.HttpHeadParserTest.RFC_REQUEST;
import static dev.wsjava.handshake.HttpHeadParserTest.bytes;
import static dev.wsjava.handshake.HttpHeadParserTest.concat;
import static dev.wsjava.handshake.HttpHeadParserTest.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ServerHandshakeTest {

  /** A minimal valid upgrade request; {@code %s} is where rows add or replace fields. */
  private static final String HOST = "Host: server.example.com\r\n";

  private static final String UPGRADE = "Upgrade: websocket\r\n";
  private static final String CONNECTION = "Connection: Upgrade\r\n";
  private static final String KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
  private static final String VERSION = "Sec-WebSocket-Version: 13\r\n";

  private static String request(String requestLine, String... fields) {
    return requestLine + "\r\n" + String.join("", fields) + "\r\n";
  }

  private static String get(String... fields) {
    return request("GET /chat HTTP/1.1", fields);
  }

  private static ServerHandshake.Result decide(String head, ServerHandshakeConfig config) {
    return new ServerHandshake(config).receive(ByteBuffer.wrap(bytes(head)));
  }

  private static String text(ByteBuffer b) {
    return StandardCharsets.ISO_8859_1.decode(b).toString();
  }

  // ---- rejections: one row per rule ----

  static Stream<Arguments> rejectedRequests() {
    return Stream.of(
        arguments(
            "method other than GET",
            request("POST /chat HTTP/1.1", HOST, UPGRADE, CONNECTION, KEY, VERSION),
            405,
            "method must be GET, was POST",
            "Allow: GET\r\n"),
        arguments(
            "no Upgrade: a plain request for a WebSocket route",
            get(HOST, CONNECTION, KEY, VERSION),
            426,
            "request has no Upgrade field",
            "Upgrade: websocket\r\nConnection: Upgrade, close\r\n"),
        arguments(
            "HTTP/1.0",
            request("GET /chat HTTP/1.0", HOST, UPGRADE, CONNECTION, KEY, VERSION),
            400,
            "requires HTTP/1.1 or later, was HTTP/1.0",
            "Connection: close\r\n"),
        arguments(
            "missing Host",
            get(UPGRADE, CONNECTION, KEY, VERSION),
            400,
            "exactly one Host field, had 0",
            ""),
        arguments(
            "duplicate Host",
            get(HOST, HOST, UPGRADE, CONNECTION, KEY, VERSION),
            400,
            "exactly one Host field, had 2",
            ""),
        arguments(
            "Upgrade without websocket",
            get(HOST, "Upgrade: h2c\r\n", CONNECTION, KEY, VERSION),
            400,
            "Upgrade must include websocket, was \"h2c\"",
            ""),
        arguments(
            "missing Connection",
            get(HOST, UPGRADE, KEY, VERSION),
            400,
            "Connection must include Upgrade",
            ""),
        arguments(
            "Connection without upgrade",
            get(HOST, UPGRADE, "Connection: keep-alive, upgrade-insecure\r\n", KEY, VERSION),
            400,
            "Connection must include Upgrade",
            ""),
        arguments(
            "a body announced by Content-Length",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Content-Length: 5\r\n"),
            400,
            "must not carry a body",
            ""),
        arguments(
            "a body announced by Transfer-Encoding",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Transfer-Encoding: chunked\r\n"),
            400,
            "must not carry a body",
            ""),
        arguments(
            "missing version",
            get(HOST, UPGRADE, CONNECTION, KEY),
            426,
            "Sec-WebSocket-Version must be 13, was absent",
            "Sec-WebSocket-Version: 13\r\n"),
        arguments(
            "wrong version",
            get(HOST, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Version: 8\r\n"),
            426,
            "Sec-WebSocket-Version must be 13, was \"8\"",
            "Sec-WebSocket-Version: 13\r\n"),
        arguments(
            "several versions",
            get(HOST, UPGRADE, CONNECTION, KEY, "Sec-WebSocket-Version: 13, 8\r\n"),
            426,
            "Sec-WebSocket-Version must be 13",
            "Sec-WebSocket-Version: 13\r\n"),
        arguments(
            "missing key",
            get(HOST, UPGRADE, CONNECTION, VERSION),
            400,
            "exactly one Sec-WebSocket-Key, had 0",
            ""),
        arguments(
            "duplicate key",
            get(HOST, UPGRADE, CONNECTION, KEY, KEY, VERSION),
            400,
            "exactly one Sec-WebSocket-Key, had 2",
            ""),
        arguments(
            "key of 15 bytes",
            get(HOST, UPGRADE, CONNECTION, "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25j\r\n", VERSION),
            400,
            "Sec-WebSocket-Key must be base64 of 16 bytes (RFC 6455 §4.2.1)",
            ""),
        arguments(
            "key that is not base64",
            get(
                HOST,
                UPGRADE,
                CONNECTION,
                "Sec-WebSocket-Key: not base64 at all!!!!!!\r\n",
                VERSION),
            400,
            "Sec-WebSocket-Key must be base64 of 16 bytes",
            ""),
        arguments(
            "two Origin fields",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Origin: a\r\n", "Origin: b\r\n"),
            400,
            "more than one Origin",
            ""),
        arguments(
            "a subprotocol that is not a token",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Sec-WebSocket-Protocol: chat, a b\r\n"),
            400,
            "Sec-WebSocket-Protocol elements must be tokens, found \"a b\"",
            ""),
        arguments(
            "malformed extensions",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Sec-WebSocket-Extensions: foo;\r\n"),
            400,
            "malformed Sec-WebSocket-Extensions: expected a parameter name",
            ""),
        arguments("malformed head: bare LF", "GET /chat HTTP/1.1\nHost: a\n\n", 400, "bare LF", ""),
        arguments(
            "head over the limit",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Cookie: " + "c".repeat(9000) + "\r\n"),
            431,
            "head larger than the limit of 8192 bytes",
            ""),
        arguments(
            "HTTP/2.0 request line",
            request("GET /chat HTTP/2.0", HOST),
            505,
            "HTTP/2.0 is not supported",
            ""));
  }

  @ParameterizedTest(name = "[{index}] {0} -> {2}")
  @MethodSource("rejectedRequests")
  void aRequestBreakingARuleIsRejected(
      String rule, String head, int status, String reason, String responseFields) {
    ServerHandshake.Result result = decide(head, ServerHandshakeConfig.defaults());
    assertThat(result).isInstanceOf(ServerHandshake.Rejected.class);
    ServerHandshake.Rejected r = (ServerHandshake.Rejected) result;
    assertThat(r.status()).isEqualTo(status);
    assertThat(r.reason()).contains(reason);
    String response = text(r.response());
    assertThat(response)
        .startsWith("HTTP/1.1 " + status + " " + HttpStatus.reasonPhrase(status) + "\r\n");
    assertThat(response).contains(responseFields);
    assertThat(response).containsAnyOf("Connection: close\r\n", "Connection: Upgrade, close\r\n");
    assertThat(response).doesNotContain(reason); // the reason is for logs, not for the peer
  }

  @Test
  void aRefusedOriginIsAnswered403() {
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults().withOriginPolicy("https://good.example"::equals);
    String head = get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Origin: https://evil.example\r\n");
    ServerHandshake.Rejected r = (ServerHandshake.Rejected) decide(head, config);
    assertThat(r.status()).isEqualTo(403);
    assertThat(r.reason()).contains("origin https://evil.example is not allowed");
    String good = get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Origin: https://good.example\r\n");
    assertThat(decide(good, config)).isInstanceOf(ServerHandshake.Accepted.class);
    // No Origin at all: the policy sees null, and this one refuses it.
    assertThat(
            ((ServerHandshake.Rejected)
                    decide(get(HOST, UPGRADE, CONNECTION, KEY, VERSION), config))
                .reason())
        .contains("origin (none)");
  }

  // ---- variants that must pass ----

  static Stream<Arguments> acceptedVariants() {
    return Stream.of(
        arguments(
            "field names in any case",
            get(
                "host: a\r\n",
                "UPGRADE: websocket\r\n",
                "connection: upgrade\r\n",
                "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
                "SEC-WEBSOCKET-VERSION: 13\r\n")),
        arguments(
            "token values in any case",
            get(HOST, "Upgrade: WebSocket\r\n", "Connection: UPGRADE\r\n", KEY, VERSION)),
        arguments(
            "Connection as a list",
            get(HOST, UPGRADE, "Connection: keep-alive, Upgrade\r\n", KEY, VERSION)),
        arguments(
            "Connection over two lines",
            get(
                HOST,
                UPGRADE,
                "Connection: keep-alive\r\n",
                "Connection: Upgrade\r\n",
                KEY,
                VERSION)),
        arguments(
            "Upgrade as a list",
            get(HOST, "Upgrade: h2c, websocket\r\n", CONNECTION, KEY, VERSION)),
        arguments(
            "whitespace around values",
            get(
                HOST,
                "Upgrade:websocket \t\r\n",
                "Connection:\t Upgrade\r\n",
                "Sec-WebSocket-Key:   dGhlIHNhbXBsZSBub25jZQ==  \r\n",
                VERSION)),
        arguments(
            "Content-Length: 0",
            get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Content-Length: 0\r\n")),
        arguments("HTTP/1.2", request("GET / HTTP/1.2", HOST, UPGRADE, CONNECTION, KEY, VERSION)),
        arguments(
            "an absolute-form target",
            request(
                "GET ws://server.example.com/chat HTTP/1.1",
                HOST,
                UPGRADE,
                CONNECTION,
                KEY,
                VERSION)));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("acceptedVariants")
  void aValidRequestIsAcceptedWhateverItsSpelling(String variant, String head) {
    ServerHandshake.Result result = decide(head, ServerHandshakeConfig.defaults());
    assertThat(result).isInstanceOf(ServerHandshake.Accepted.class);
    assertThat(text(result.response()))
        .isEqualTo(
            "HTTP/1.1 101 Switching Protocols\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                + "\r\n");
  }

  // ---- acceptance ----

  @Test
  void answersTheRfcExampleWithTheRfcResponse() {
    // RFC 6455 §1.2 / §1.3: the server picks "chat" from "chat, superchat".
    List<List<String>> offered = new ArrayList<>();
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults()
            .withSubprotocolSelector(
                offers -> {
                  offered.add(offers);
                  return "chat";
                });
    ServerHandshake.Accepted a = (ServerHandshake.Accepted) decide(RFC_REQUEST, config);
    assertThat(text(a.response()))
        .isEqualTo(
            "HTTP/1.1 101 Switching Protocols\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                + "Sec-WebSocket-Protocol: chat\r\n"
                + "\r\n");
    assertThat(offered).containsExactly(List.of("chat", "superchat"));
    assertThat(a.subprotocol()).isEqualTo("chat");
    assertThat(a.extensions()).isEmpty();
    assertThat(a.request().target()).isEqualTo("/chat");
    assertThat(a.request().headers().first("Origin")).isEqualTo("http://example.com");
  }

  @Test
  void theSelectorMayChooseNoneOrAnyOfferedButNothingElse() {
    ServerHandshake.Accepted none =
        (ServerHandshake.Accepted)
            decide(
                RFC_REQUEST, ServerHandshakeConfig.defaults().withSubprotocolSelector(o -> null));
    assertThat(none.subprotocol()).isNull();
    assertThat(text(none.response())).doesNotContain("Sec-WebSocket-Protocol");

    ServerHandshake.Accepted second =
        (ServerHandshake.Accepted)
            decide(
                RFC_REQUEST,
                ServerHandshakeConfig.defaults().withSubprotocolSelector(o -> o.get(1)));
    assertThat(second.subprotocol()).isEqualTo("superchat");

    ServerHandshake.Rejected wrong =
        (ServerHandshake.Rejected)
            decide(
                RFC_REQUEST, ServerHandshakeConfig.defaults().withSubprotocolSelector(o -> "mqtt"));
    assertThat(wrong.status()).isEqualTo(500);
    assertThat(wrong.reason()).contains("chose mqtt, which the client did not offer");
  }

  @Test
  void theSelectorIsNotAskedWhenNothingIsOffered() {
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults()
            .withSubprotocolSelector(
                o -> {
                  throw new AssertionError("called with " + o);
                });
    assertThat(decide(get(HOST, UPGRADE, CONNECTION, KEY, VERSION), config))
        .isInstanceOf(ServerHandshake.Accepted.class);
  }

  @Test
  void extensionsAreNegotiatedInTheClientsOrderWithEachFactorysOffers() {
    StubExtensionFactory foo = new StubExtensionFactory("foo", Extension.RSV1);
    StubExtensionFactory bar = new StubExtensionFactory("bar", Extension.RSV2);
    StubExtensionFactory unused = new StubExtensionFactory("unused", Extension.RSV3);
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults()
            .withExtensions(List.<ExtensionFactory>of(bar, unused, foo));
    String head =
        get(
            HOST,
            UPGRADE,
            CONNECTION,
            KEY,
            VERSION,
            "Sec-WebSocket-Extensions: foo; decline, unknown; x=1\r\n",
            "Sec-WebSocket-Extensions: bar, foo; a=\"2\"\r\n");
    ServerHandshake.Accepted a = (ServerHandshake.Accepted) decide(head, config);

    assertThat(foo.serverCalls).hasSize(1);
    assertThat(foo.serverCalls.get(0))
        .extracting(o -> o.params().get(0).name())
        .containsExactly("decline", "a");
    assertThat(bar.serverCalls).hasSize(1);
    assertThat(unused.serverCalls).isEmpty();
    // foo's first offer comes before bar's, so foo is listed first.
    assertThat(a.extensions()).extracting(Extension::name).containsExactly("foo", "bar");
    assertThat(text(a.response())).contains("Sec-WebSocket-Extensions: foo; a=2, bar\r\n");
  }

  @Test
  void aDeclinedOfferIsLeftOutOfTheResponse() {
    StubExtensionFactory foo = new StubExtensionFactory("foo", Extension.RSV1);
    ServerHandshakeConfig config = ServerHandshakeConfig.defaults().withExtensions(List.of(foo));
    String head =
        get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Sec-WebSocket-Extensions: foo; decline\r\n");
    ServerHandshake.Accepted a = (ServerHandshake.Accepted) decide(head, config);
    assertThat(a.extensions()).isEmpty();
    assertThat(text(a.response())).doesNotContain("Sec-WebSocket-Extensions");
  }

  @Test
  void twoExtensionsClaimingTheSameRsvBitAreNotBothAccepted() {
    StubExtensionFactory first = new StubExtensionFactory("first", Extension.RSV1);
    StubExtensionFactory second = new StubExtensionFactory("second", Extension.RSV1);
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults().withExtensions(List.<ExtensionFactory>of(second, first));
    String head =
        get(HOST, UPGRADE, CONNECTION, KEY, VERSION, "Sec-WebSocket-Extensions: first, second\r\n");
    ServerHandshake.Accepted a = (ServerHandshake.Accepted) decide(head, config);
    assertThat(a.extensions()).extracting(Extension::name).containsExactly("first");
    assertThat(second.made).singleElement().satisfies(s -> assertThat(s.closed).isTrue());
    assertThat(first.made).singleElement().satisfies(s -> assertThat(s.closed).isFalse());
  }

  @Test
  void extraResponseHeadersFollowTheHandshakeFields() {
    ServerHandshakeConfig config =
        ServerHandshakeConfig.defaults()
            .withHeaders(
                Headers.builder().add("Server", "wsjava").add("Set-Cookie", "a=b").build());
    String response = text(decide(RFC_REQUEST, config).response());
    assertThat(response)
        .endsWith(
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                + "Server: wsjava\r\n"
                + "Set-Cookie: a=b\r\n\r\n");
  }

  @Test
  void theConfigRefusesHeadersTheHandshakeOwns() {
    for (String owned :
        List.of("Upgrade", "connection", "Sec-WebSocket-Accept", "Content-Length")) {
      assertThatThrownBy(
              () ->
                  ServerHandshakeConfig.defaults()
                      .withHeaders(Headers.builder().add(owned, "x").build()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("written by the handshake itself");
    }
    StubExtensionFactory a = new StubExtensionFactory("x", 0);
    StubExtensionFactory b = new StubExtensionFactory("x", 0);
    assertThatThrownBy(
            () -> ServerHandshakeConfig.defaults().withExtensions(List.<ExtensionFactory>of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two extension factories named x");
  }

  // ---- feeding bytes ----

  @Test
  void aFrameSentRightAfterTheRequestStaysInTheBuffer() {
    ByteBuffer in = ByteBuffer.wrap(concat(bytes(RFC_REQUEST), FRAME));
    ServerHandshake.Result r = new ServerHandshake(ServerHandshakeConfig.defaults()).receive(in);
    assertThat(r).isInstanceOf(ServerHandshake.Accepted.class);
    assertThat(remaining(in)).isEqualTo(FRAME);
  }

  @Test
  void anIncompleteRequestNeedsMoreBytesAndADecisionIsFinal() {
    ServerHandshake handshake = new ServerHandshake(ServerHandshakeConfig.defaults());
    byte[] wire = bytes(RFC_REQUEST);
    assertThat(handshake.receive(ByteBuffer.wrap(wire, 0, 40))).isNull();
    assertThat(handshake.receive(ByteBuffer.wrap(wire, 40, wire.length - 40)))
        .isInstanceOf(ServerHandshake.Accepted.class);
    assertThatThrownBy(() -> handshake.receive(ByteBuffer.allocate(0)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theResponseViewsAreIndependentAndReadOnly() {
    ServerHandshake.Result r = decide(RFC_REQUEST, ServerHandshakeConfig.defaults());
    ByteBuffer first = r.response();
    first.position(first.limit());
    assertThat(r.response().position()).isZero();
    assertThat(r.response().isReadOnly()).isTrue();
  }

  // ---- plain rejections ----

  @Test
  void aPlainRejectionIsACompleteResponseThatClosesTheConnection() {
    ServerHandshake.Rejected r = ServerHandshake.reject(404, "no route for /x");
    assertThat(text(r.response()))
        .isEqualTo(
            "HTTP/1.1 404 Not Found\r\n"
                + "Connection: close\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 14\r\n"
                + "\r\n"
                + "404 Not Found\n");
    assertThat(r.reason()).isEqualTo("no route for /x");
  }

  @Test
  void aRejectionCarriesExtraFieldsButNotTheOnesItWrites() {
    ServerHandshake.Rejected r =
        ServerHandshake.reject(
            302, "moved", Headers.builder().add("Location", "/elsewhere").build());
    assertThat(text(r.response())).startsWith("HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\n");
    assertThatThrownBy(
            () ->
                ServerHandshake.reject(
                    400, "x", Headers.builder().add("Content-Length", "1").build()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerHandshake.reject(200, "not an error"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
