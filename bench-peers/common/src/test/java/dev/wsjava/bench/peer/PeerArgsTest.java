package dev.wsjava.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PeerArgsTest {

  @Test
  void aBarePortListensOnLoopbackWithoutDeflateOrTls() {
    PeerArgs a = PeerArgs.parse(new String[] {"8080"});
    assertThat(a).isEqualTo(new PeerArgs(8080, "127.0.0.1", PeerArgs.NO_DEFLATE, false, null));
    assertThat(a.deflate()).isFalse();
  }

  @Test
  void everyOptionIsTaken() {
    PeerArgs a = PeerArgs.parse(new String[] {"9000", "--host", "10.241.28.1", "--deflate", "6",
        "--one-loop", "--tls", "/tmp/tls"});
    assertThat(a).isEqualTo(new PeerArgs(9000, "10.241.28.1", 6, true, Path.of("/tmp/tls")));
    assertThat(a.deflate()).isTrue();
  }

  @Test
  void aLevelOutsideZlibsAndUnknownOptionsAreRefused() {
    assertThatThrownBy(() -> PeerArgs.parse(new String[] {"1", "--deflate", "10"}))
        .hasMessageContaining("zlib level 0-9");
    assertThatThrownBy(() -> PeerArgs.parse(new String[] {"1", "--deflate"}))
        .hasMessageContaining("--deflate needs a value");
    assertThatThrownBy(() -> PeerArgs.parse(new String[] {"1", "--fast"}))
        .hasMessageContaining("unknown argument --fast");
  }
}
