package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.ClientHandshake;
import dev.wsjava.handshake.ClientHandshakeConfig;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.handshake.HttpHeadLimits;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

/**
 * The client side of the opening handshake fed an arbitrary response, in random chunks. The key is
 * fixed (16 zero bytes: {@code AAAAAAAAAAAAAAAAAAAAAA==}, accept {@code
 * ICX+Yqv66kxgM0FcWaLWlFLwTAI=}) so that seeds can carry a valid accept value. Input: byte 0 picks
 * the chunking, the rest is the response. Only {@link HandshakeException} may escape.
 */
class ClientHandshakeFuzzTest {
  static final ClientHandshakeConfig CONFIG =
      ClientHandshakeConfig.defaults()
          .withLimits(new HttpHeadLimits(1024, 16))
          .withSubprotocols(List.of("chat", "superchat"))
          .withExtensions(List.of(PerMessageDeflate.defaults()));

  static final URI URI = java.net.URI.create("ws://example.com/chat");

  /** A random source that always gives zeros: the handshake key is then known in advance. */
  static final class ZeroRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    @Override
    public void nextBytes(byte[] bytes) {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void response(byte[] data) {
    ClientHandshake handshake = ClientHandshake.start(URI, CONFIG, new ZeroRandom());
    assertThat(handshake.key()).isEqualTo("AAAAAAAAAAAAAAAAAAAAAA==");
    try {
      for (ByteBuffer in : Chunks.split(data, Math.min(1, data.length), Chunks.at(data, 0))) {
        ClientHandshake.Result result = handshake.receive(in);
        if (result == null) {
          assertThat(in.hasRemaining()).isFalse();
          continue;
        }
        assertThat(result.response().status()).isEqualTo(101);
        if (result.subprotocol() != null) {
          assertThat(result.subprotocol()).isIn("chat", "superchat");
        }
        assertThat(result.extensions().size()).isLessThanOrEqualTo(1);
        result.extensions().forEach(Extension::close);
        return;
      }
    } catch (HandshakeException expected) {
      // a malformed or refused response: the client closes the connection
    }
  }
}
