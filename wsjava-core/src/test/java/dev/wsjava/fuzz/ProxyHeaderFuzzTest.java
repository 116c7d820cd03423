package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.internal.proxyprotocol.ProxyHeader;
import dev.wsjava.internal.proxyprotocol.ProxyHeaderException;
import java.nio.ByteBuffer;

/**
 * The PROXY protocol header parser on any first bytes: only {@link ProxyHeaderException} may
 * escape; "need more" consumes nothing and never holds more than the bounds allow; a header
 * consumes at most its bound, parses the same from exactly its own bytes, and is incomplete (not
 * refused) on every shorter prefix of them.
 */
class ProxyHeaderFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse(byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(data);
    ProxyHeader header;
    try {
      header = ProxyHeader.parse(in);
    } catch (ProxyHeaderException e) {
      assertThat(in.position()).isZero();
      return;
    }
    if (header == null) {
      assertThat(in.position()).isZero();
      assertThat(data.length).isLessThan(ProxyHeader.V2_MAX);
      if (data.length > 0 && data[0] == 'P') {
        assertThat(data.length).isLessThan(ProxyHeader.V1_MAX);
      }
      return;
    }
    int used = in.position();
    assertThat(used).isLessThanOrEqualTo(header.version() == 1 ? ProxyHeader.V1_MAX : ProxyHeader.V2_MAX);
    assertThat(header.source() == null).isEqualTo(header.destination() == null);
    try {
      assertThat(ProxyHeader.parse(ByteBuffer.wrap(data, 0, used))).isEqualTo(header);
      for (int cut = 0; cut < used; cut++) {
        assertThat(ProxyHeader.parse(ByteBuffer.wrap(data, 0, cut))).as("prefix " + cut).isNull();
      }
    } catch (ProxyHeaderException e) {
      throw new AssertionError("refused a part of a header it accepted", e);
    }
  }
}
