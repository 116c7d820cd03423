package dev.wsjava.handshake;

import dev.wsjava.Headers;
import static dev.wsjava.handshake.AcceptKeyTest.SAMPLE_NONCE;
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
import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClientHandshakeTest {

  private static final String STATUS_101 = "HTTP/1.1 101 Switching Protocols\r\n";
  private static final String UPGRADE = "Upgrade: websocket\r\n";
  private static final String CONNECTION = "Connection: Upgrade\r\n";
  private static final String ACCEPT = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n";

  private static final ClientHandshakeConfig RFC_CONFIG =
      ClientHandshakeConfig.defaults()
          .withOrigin("http://example.com")
          .withSubprotocols(List.of("chat", "superchat"));

  private static ClientHandshake start(String uri, ClientHandshakeConfig config) {
    return ClientHandshake.start(
        URI.create(uri), config, new AcceptKeyTest.FixedRandom(SAMPLE_NONCE));
  }

  private static String text(ByteBuffer b) {
    return StandardCharsets.ISO_8859_1.decode(b).toString();
  }

  private static String response(String... lines) {
    return String.join("", lines) + "\r\n";
  }

  // ---- the request ----

  @Test
  void writesTheRfcExampleRequestByteForByte() {
    // RFC 6455 §1.2, with the nonce of §1.3.
    ClientHandshake h = start("ws://server.example.com/chat", RFC_CONFIG);
    assertThat(h.key()).isEqualTo("dGhlIHNhbXBsZSBub25jZQ==");
    assertThat(text(h.request())).isEqualTo(RFC_REQUEST);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "ws://h/,                       h,            /",
    "ws://h,                        h,            /",
    "ws://h:80/a,                   h,            /a",
    "ws://h:443/a,                  h:443,        /a",
    "wss://h:443/a,                 h,            /a",
    "wss://h:80/a,                  h:80,         /a",
    "WS://h:8080/a/b?x=1&y=%20,     h:8080,       /a/b?x=1&y=%20",
    "ws://h?q,                      h,            /?q",
    "ws://[::1]:9000/x,             '[::1]:9000', /x",
    "ws://h/caf\u00e9,              h,            /caf%C3%A9",
  })
  void hostCarriesThePortOnlyWhenItIsNotTheDefault(String uri, String host, String target) {
    String request = text(start(uri, ClientHandshakeConfig.defaults()).request());
    assertThat(request).startsWith("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"http://h/", "ws://h/#frag", "ws://user:pw@h/", "ws:opaque", "ws:///nohost"})
  void aUriThatIsNotAWebSocketUriIsRefused(String uri) {
    assertThatThrownBy(() -> start(uri, ClientHandshakeConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void offersExtensionsAndSendsExtraHeadersAfterTheHandshakeFields() {
    StubExtensionFactory foo =
        new StubExtensionFactory(
            "foo",
            Extension.RSV1,
            new ExtensionOffer("foo", List.of(new ExtensionOffer.Param("a", "1"))),
            new ExtensionOffer("foo", List.of()));
    StubExtensionFactory bar = new StubExtensionFactory("bar", Extension.RSV2);
    ClientHandshakeConfig config =
        ClientHandshakeConfig.defaults()
            .withExtensions(List.<ExtensionFactory>of(foo, bar))
            .withHeaders(
                Headers.builder().add("Cookie", "s=1").add("Authorization", "Bearer t").build());
    String request = text(start("ws://h/", config).request());
    assertThat(request)
        .endsWith(
            "Sec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Extensions: foo; a=1, foo, bar\r\n"
                + "Cookie: s=1\r\n"
                + "Authorization: Bearer t\r\n"
                + "\r\n");
    assertThat(request).doesNotContain("Origin").doesNotContain("Sec-WebSocket-Protocol");
  }

  @Test
  void theConfigRefusesWhatWouldBreakTheRequest() {
    for (String owned :
        List.of(
            "Host",
            "upgrade",
            "Connection",
            "Origin",
            "Sec-WebSocket-Key",
            "sec-websocket-extensions")) {
      assertThatThrownBy(
              () ->
                  ClientHandshakeConfig.defaults()
                      .withHeaders(Headers.builder().add(owned, "x").build()))
          .as(owned)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("written by the handshake itself");
    }
    assertThatThrownBy(() -> ClientHandshakeConfig.defaults().withSubprotocols(List.of("a b")))
        .hasMessageContaining("is not a token");
    assertThatThrownBy(() -> ClientHandshakeConfig.defaults().withSubprotocols(List.of("a", "a")))
        .hasMessageContaining("offered twice");
    assertThatThrownBy(() -> ClientHandshakeConfig.defaults().withOrigin("http://a\r\nX: y"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- the response ----

  @Test
  void acceptsTheRfcExampleResponseAndLeavesTheFirstFrame() throws Exception {
    ClientHandshake h = start("ws://server.example.com/chat", RFC_CONFIG);
    ByteBuffer in =
        ByteBuffer.wrap(
            concat(
                bytes(
                    response(
                        STATUS_101,
                        UPGRADE,
                        CONNECTION,
                        ACCEPT,
                        "Sec-WebSocket-Protocol: chat\r\n")),
                FRAME));
    ClientHandshake.Result r = h.receive(in);
    assertThat(r.subprotocol()).isEqualTo("chat");
    assertThat(r.extensions()).isEmpty();
    assertThat(r.response().status()).isEqualTo(101);
    assertThat(remaining(in)).isEqualTo(FRAME);
    assertThatThrownBy(() -> h.receive(in)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aResponseInPiecesNeedsMoreBytesUntilComplete() throws Exception {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    byte[] wire = bytes(response(STATUS_101, UPGRADE, CONNECTION, ACCEPT));
    for (int i = 0; i < wire.length - 1; i++) {
      assertThat(h.receive(ByteBuffer.wrap(wire, i, 1))).isNull();
    }
    assertThat(h.receive(ByteBuffer.wrap(wire, wire.length - 1, 1))).isNotNull();
  }

  @Test
  void interimResponsesBeforeThe101AreSkipped() throws Exception {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    String wire =
        "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n"
            + response(STATUS_101, UPGRADE, CONNECTION, ACCEPT);
    assertThat(h.receive(ByteBuffer.wrap(bytes(wire)))).isNotNull();

    ClientHandshake flooded =
        start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    String flood =
        "HTTP/1.1 103 Early Hints\r\n\r\n".repeat(ClientHandshake.MAX_INTERIM_RESPONSES + 1);
    assertThatThrownBy(() -> flooded.receive(ByteBuffer.wrap(bytes(flood))))
        .isInstanceOf(HandshakeException.class)
        .hasMessageContaining("more than 8 interim 1xx responses");
  }

  @Test
  void aRejectionCarriesTheStatusAndTheResponseHead() {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    String wire =
        "HTTP/1.1 426 Upgrade Required\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n";
    assertThatThrownBy(() -> h.receive(ByteBuffer.wrap(bytes(wire))))
        .isInstanceOfSatisfying(
            HandshakeException.class,
            e -> {
              assertThat(e.status()).isEqualTo(426);
              assertThat(e.response().headers().first("Sec-WebSocket-Version")).isEqualTo("13");
            })
        .hasMessageContaining("server answered 426 Upgrade Required instead of 101");
  }

  @Test
  void aMalformedResponseHasNoStatus() {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    assertThatThrownBy(
            () -> h.receive(ByteBuffer.wrap(bytes("HTTP/1.1 101 OK\nUpgrade: websocket\n\n"))))
        .isInstanceOfSatisfying(
            HandshakeException.class,
            e -> {
              assertThat(e.status()).isZero();
              assertThat(e.response()).isNull();
              assertThat(e.getCause()).isInstanceOf(HttpHeadException.class);
            })
        .hasMessageContaining("malformed handshake response: bare LF");
  }

  // ---- response rules: one row per rule ----

  static Stream<Arguments> brokenResponses() {
    String proto = "Sec-WebSocket-Protocol: ";
    String ext = "Sec-WebSocket-Extensions: ";
    return Stream.of(
        arguments(
            "403 instead of 101",
            response("HTTP/1.1 403 Forbidden\r\n"),
            403,
            "server answered 403 Forbidden instead of 101"),
        arguments(
            "200 instead of 101",
            response("HTTP/1.1 200 OK\r\n", UPGRADE, CONNECTION, ACCEPT),
            200,
            "server answered 200 OK instead of 101"),
        arguments(
            "missing Upgrade",
            response(STATUS_101, CONNECTION, ACCEPT),
            101,
            "Upgrade must be websocket, was absent"),
        arguments(
            "Upgrade not websocket",
            response(STATUS_101, "Upgrade: h2c\r\n", CONNECTION, ACCEPT),
            101,
            "Upgrade must be websocket, was \"h2c\""),
        arguments(
            "Upgrade with a second protocol",
            response(STATUS_101, "Upgrade: websocket, h2c\r\n", CONNECTION, ACCEPT),
            101,
            "Upgrade must be websocket"),
        arguments(
            "missing Connection",
            response(STATUS_101, UPGRADE, ACCEPT),
            101,
            "Connection must include Upgrade, was absent"),
        arguments(
            "Connection without upgrade",
            response(STATUS_101, UPGRADE, "Connection: keep-alive\r\n", ACCEPT),
            101,
            "Connection must include Upgrade, was \"keep-alive\""),
        arguments(
            "missing accept",
            response(STATUS_101, UPGRADE, CONNECTION),
            101,
            "Sec-WebSocket-Accept must be s3pPLMBiTxaQ9kYGzzhZRbK+xOo= for the key sent, was"
                + " absent"),
        arguments(
            "wrong accept",
            response(
                STATUS_101,
                UPGRADE,
                CONNECTION,
                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo\r\n"),
            101,
            "was \"s3pPLMBiTxaQ9kYGzzhZRbK+xOo\""),
        arguments(
            "accept in another case",
            response(
                STATUS_101,
                UPGRADE,
                CONNECTION,
                "Sec-WebSocket-Accept: S3PPLMBITXAQ9KYGZZHZRBK+XOO=\r\n"),
            101,
            "Sec-WebSocket-Accept must be"),
        arguments(
            "two accept fields",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ACCEPT),
            101,
            "Sec-WebSocket-Accept must be"),
        arguments(
            "subprotocol not offered",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, proto + "mqtt\r\n"),
            101,
            "must choose one of the offered subprotocols [chat, superchat], chose \"mqtt\""),
        arguments(
            "subprotocol list",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, proto + "chat, superchat\r\n"),
            101,
            "must choose one of the offered subprotocols"),
        arguments(
            "two subprotocol fields",
            response(
                STATUS_101, UPGRADE, CONNECTION, ACCEPT, proto + "chat\r\n", proto + "chat\r\n"),
            101,
            "must choose one of the offered subprotocols"),
        arguments(
            "subprotocol in another case",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, proto + "Chat\r\n"),
            101,
            "chose \"Chat\""),
        arguments(
            "extension not offered",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "baz\r\n"),
            101,
            "server accepted extension baz, which was not offered"),
        arguments(
            "extension twice",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "foo\r\n", ext + "foo\r\n"),
            101,
            "server accepted extension foo twice"),
        arguments(
            "extension refused by its factory",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "foo; refuse\r\n"),
            101,
            "extension foo refused the server's answer: foo cannot work with parameter refuse"),
        arguments(
            "malformed extensions",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "foo; a=\r\n"),
            101,
            "malformed Sec-WebSocket-Extensions: parameter a has '=' but no token value"),
        arguments(
            "empty extensions",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "\r\n"),
            101,
            "names no extension"),
        arguments(
            "extensions sharing an RSV bit",
            response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, ext + "foo, same\r\n"),
            101,
            "claim the same RSV bits (0x40)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("brokenResponses")
  void aResponseBreakingARuleFailsTheHandshake(
      String rule, String wire, int status, String message) {
    StubExtensionFactory foo = new StubExtensionFactory("foo", Extension.RSV1);
    StubExtensionFactory same = new StubExtensionFactory("same", Extension.RSV1);
    ClientHandshake h =
        start(
            "ws://server.example.com/chat",
            RFC_CONFIG.withExtensions(List.<ExtensionFactory>of(foo, same)));
    assertThatThrownBy(() -> h.receive(ByteBuffer.wrap(bytes(wire))))
        .isInstanceOfSatisfying(
            HandshakeException.class, e -> assertThat(e.status()).isEqualTo(status))
        .hasMessageContaining(message);
    // Whatever was created before the failure is released.
    assertThat(foo.made).allSatisfy(s -> assertThat(s.closed).isTrue());
    assertThat(same.made).allSatisfy(s -> assertThat(s.closed).isTrue());
  }

  @Test
  void aSubprotocolWhenNoneWasOfferedFails() {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    String wire =
        response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, "Sec-WebSocket-Protocol: chat\r\n");
    assertThatThrownBy(() -> h.receive(ByteBuffer.wrap(bytes(wire))))
        .isInstanceOf(HandshakeException.class)
        .hasMessageContaining("server chose a subprotocol although none was offered: \"chat\"");
  }

  @Test
  void anExtensionWhenNoneWasOfferedFails() {
    ClientHandshake h = start("ws://server.example.com/chat", ClientHandshakeConfig.defaults());
    String wire =
        response(STATUS_101, UPGRADE, CONNECTION, ACCEPT, "Sec-WebSocket-Extensions: foo\r\n");
    assertThatThrownBy(() -> h.receive(ByteBuffer.wrap(bytes(wire))))
        .isInstanceOf(HandshakeException.class)
        .hasMessageContaining("server accepted extension foo, which was not offered");
  }

  @Test
  void caseAndListVariantsOfTheResponseFieldsPass() throws Exception {
    StubExtensionFactory foo = new StubExtensionFactory("foo", Extension.RSV1);
    StubExtensionFactory bar = new StubExtensionFactory("bar", Extension.RSV2);
    ClientHandshake h =
        start(
            "ws://server.example.com/chat",
            RFC_CONFIG.withExtensions(List.<ExtensionFactory>of(foo, bar)));
    String wire =
        response(
            "HTTP/1.1 101 \r\n",
            "upgrade: WebSocket\r\n",
            "CONNECTION: keep-alive, upgrade\r\n",
            "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n",
            "Sec-WebSocket-Extensions: bar\r\n",
            "Sec-WebSocket-Extensions: foo; x=\"1\"\r\n",
            "sec-websocket-protocol: superchat\r\n");
    ClientHandshake.Result r = h.receive(ByteBuffer.wrap(bytes(wire)));
    assertThat(r.subprotocol()).isEqualTo("superchat");
    // The server's order is the order the extensions apply in.
    assertThat(r.extensions()).extracting(Extension::name).containsExactly("bar", "foo");
    assertThat(((StubExtensionFactory.Stub) r.extensions().get(1)).config.params())
        .containsExactly(new ExtensionOffer.Param("x", "1"));
  }

  // ---- client and server together ----

  @Test
  void aClientAndAServerAgreeOnSubprotocolAndExtensions() throws Exception {
    StubExtensionFactory clientFoo = new StubExtensionFactory("foo", Extension.RSV1);
    StubExtensionFactory serverFoo = new StubExtensionFactory("foo", Extension.RSV1);
    ClientHandshake client =
        ClientHandshake.start(
            URI.create("ws://server.example.com:8080/chat?room=1"),
            RFC_CONFIG.withExtensions(List.of(clientFoo)),
            new SecureRandom());
    ServerHandshake server =
        new ServerHandshake(
            ServerHandshakeConfig.defaults()
                .withSubprotocolSelector(offers -> offers.get(offers.size() - 1))
                .withExtensions(List.of(serverFoo)));

    ServerHandshake.Accepted accepted = (ServerHandshake.Accepted) server.receive(client.request());
    assertThat(accepted.request().target()).isEqualTo("/chat?room=1");
    assertThat(accepted.request().headers().first("Host")).isEqualTo("server.example.com:8080");
    ByteBuffer toClient =
        ByteBuffer.wrap(concat(HttpHeadParserTest.remaining(accepted.response()), FRAME));
    ClientHandshake.Result result = client.receive(toClient);

    assertThat(result.subprotocol()).isEqualTo("superchat").isEqualTo(accepted.subprotocol());
    assertThat(result.extensions()).extracting(Extension::name).containsExactly("foo");
    assertThat(accepted.extensions()).extracting(Extension::name).containsExactly("foo");
    assertThat(remaining(toClient)).isEqualTo(FRAME);
  }

  @Test
  void theFactorysRefusalIsTheCause() {
    // The stub refuses a response that carries the parameter "refuse".
    ExtensionFactory refusing = new StubExtensionFactory("foo", Extension.RSV1);
    ClientHandshake h =
        start(
            "ws://server.example.com/chat",
            ClientHandshakeConfig.defaults().withExtensions(List.of(refusing)));
    String wire =
        response(
            STATUS_101, UPGRADE, CONNECTION, ACCEPT, "Sec-WebSocket-Extensions: foo; refuse\r\n");
    assertThatThrownBy(() -> h.receive(ByteBuffer.wrap(bytes(wire))))
        .isInstanceOf(HandshakeException.class)
        .hasCauseInstanceOf(ExtensionNegotiationException.class);
  }
}
