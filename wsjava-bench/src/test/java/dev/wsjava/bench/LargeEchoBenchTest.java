package dev.wsjava.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark measures what it says: every operation echoes the whole message, again and again. */
class LargeEchoBenchTest {
  @ParameterizedTest
  @ValueSource(ints = {65536, 1048576})
  void eachOperationEchoesOneWholeMessage(int size) {
    LargeEchoBench b = new LargeEchoBench();
    b.size = size;
    b.setup();
    for (int i = 0; i < 3; i++) {
      assertThat(b.echo()).isEqualTo(size);
      assertThat(b.server.hasOutbound()).isFalse();
    }
    assertThat(b.server.outboundTotal()).as("three frames of size + 4 or 10 header bytes")
        .isEqualTo(3L * (size + (size > 65535 ? 10 : 4)));
  }
}
