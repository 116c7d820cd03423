package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The server side of the opening handshake fed an arbitrary request, in random chunks. Input: byte
 * 0 picks the chunking, the rest is the request. Nothing may be thrown: every bad request is a
 * {@link ServerHandshake.Rejected} with an error status, every good one an {@link
 * ServerHandshake.Accepted}.
 */
class ServerHandshakeFuzzTest {
  static final ServerHandshakeConfig CONFIG =
      ServerHandshakeConfig.defaults()
          .withLimits(new HttpHeadLimits(1024, 16))
          .withExtensions(List.of(PerMessageDeflate.defaults()))
          .withSubprotocolSelector(offered -> offered.contains("chat") ? "chat" : null);

  @FuzzTest(maxDuration = "30s")
  void request(byte[] data) {
    ServerHandshake handshake = new ServerHandshake(CONFIG);
    for (ByteBuffer in : Chunks.split(data, Math.min(1, data.length), Chunks.at(data, 0))) {
      ServerHandshake.Result result = handshake.receive(in);
      if (result == null) {
        assertThat(in.hasRemaining()).isFalse();
        continue;
      }
      switch (result) {
        case ServerHandshake.Accepted a -> {
          assertThat(a.response().remaining()).isPositive();
          a.extensions().forEach(Extension::close);
        }
        case ServerHandshake.Rejected r -> {
          assertThat(r.status()).isBetween(300, 599);
          assertThat(r.response().remaining()).isPositive();
        }
      }
      return;
    }
  }
}
