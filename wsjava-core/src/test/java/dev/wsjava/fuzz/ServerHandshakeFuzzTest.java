package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

/**
 * The server side of the opening handshake fed an arbitrary request, in random chunks. Input: byte
 * 0 picks the chunking, the rest is the request. Nothing may be thrown; the answer is the one
 * {@link RequestRules} derives from the request: a 101 with the accept value computed here for a
 * valid upgrade, else exactly the status for the first rule broken (400, 403, 405 with {@code
 * Allow}, 414, 426 with {@code Upgrade} or {@code Sec-WebSocket-Version}, 431, 505), and nothing
 * while the head is incomplete.
 */
class ServerHandshakeFuzzTest {
  static final ServerHandshakeConfig CONFIG =
      ServerHandshakeConfig.defaults()
          .withLimits(new HttpHeadLimits(1024, 16))
          .withExtensions(List.of(PerMessageDeflate.defaults()))
          .withSubprotocolSelector(offered -> offered.contains("chat") ? "chat" : null)
          .withOriginPolicy(origin -> origin == null || !origin.contains("evil"));

  @FuzzTest(maxDuration = "30s")
  void request(byte[] data) throws Exception {
    int from = Math.min(1, data.length);
    RequestRules.Answer expected =
        RequestRules.judge(data, from, CONFIG.limits(), CONFIG.originPolicy());
    ServerHandshake handshake = new ServerHandshake(CONFIG);
    ServerHandshake.Result result = null;
    for (ByteBuffer in : Chunks.split(data, from, Chunks.at(data, 0))) {
      result = handshake.receive(in);
      if (result != null) {
        break;
      }
      assertThat(in.hasRemaining()).isFalse();
    }
    if (result == null) {
      assertThat(expected).as("no answer yet").isEqualTo(RequestRules.Answer.INCOMPLETE);
      return;
    }
    String response = StandardCharsets.ISO_8859_1.decode(result.response()).toString();
    assertThat(response).as(expected.why()).startsWith("HTTP/1.1 " + expected.status() + " ");
    switch (result) {
      case ServerHandshake.Accepted a -> {
        a.extensions().forEach(Extension::close);
        String key = a.request().headers().first("Sec-WebSocket-Key");
        byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(
            (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
        assertThat(response)
            .contains("\r\nSec-WebSocket-Accept: " + Base64.getEncoder().encodeToString(sha1) + "\r\n");
        assertThat(a.subprotocol())
            .isEqualTo(a.request().headers().tokens("Sec-WebSocket-Protocol").contains("chat")
                ? "chat" : null);
      }
      case ServerHandshake.Rejected r -> {
        assertThat(r.status()).isEqualTo(expected.status());
        if (expected.field() != null) {
          assertThat(response).contains("\r\n" + expected.field() + "\r\n");
        }
      }
    }
  }
}
