package dev.wsjava.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EchoPayloadTest {

  @Test
  void textIsJsonLikeAsciiWithTheSequenceNumberInHex() {
    EchoPayload p = EchoPayload.of(300, true);
    byte[] m = new byte[300];
    p.fill(0x1234abcdL, m);
    String s = new String(m, StandardCharsets.US_ASCII);
    assertThat(s).startsWith("{\"seq\":\"000000001234abcd\",").endsWith("}").hasSize(300);
    assertThat(s.chars().allMatch(c -> c >= 0x20 && c < 0x7f)).isTrue();
  }

  @Test
  void binaryCarriesTheSequenceNumberBigEndianInTheFirstEightBytes() {
    EchoPayload p = EchoPayload.of(64, false);
    byte[] m = new byte[64];
    p.fill(0x0102030405060708L, m);
    assertThat(ByteBuffer.wrap(m).getLong(0)).isEqualTo(0x0102030405060708L);
  }

  @Test
  void copyingInChunksGivesTheSameBytesAsFill() {
    EchoPayload p = EchoPayload.of(1000, false);
    byte[] whole = new byte[1000];
    p.fill(77, whole);
    ByteBuffer chunks = ByteBuffer.allocate(1000);
    for (int off = 0; off < 1000; off += 3) {
      p.copy(77, off, chunks, Math.min(3, 1000 - off));
    }
    assertThat(chunks.array()).isEqualTo(whole);
  }

  @Test
  void anEchoCheckedInChunksPassesAndOneWrongByteAnywhereIsFoundAtItsOffset() {
    EchoPayload p = EchoPayload.of(300, true);
    byte[] m = new byte[300];
    p.fill(5, m);
    assertThat(p.checkWhole(5, ByteBuffer.wrap(m))).isEqualTo(-1);
    for (int bad : new int[] {0, 7, 8, 15, 23, 24, 150, 299}) {
      byte[] copy = m.clone();
      copy[bad] ^= 1;
      assertThat(p.checkWhole(5, ByteBuffer.wrap(copy))).as("byte %d", bad).isEqualTo(bad);
      int found = -1;
      for (int off = 0; off < 300 && found < 0; off += 10) {
        found = p.check(5, off, ByteBuffer.wrap(copy, off, 10), 10);
      }
      assertThat(found).as("chunked, byte %d", bad).isEqualTo(bad);
    }
  }

  @Test
  void anotherMessagesEchoFailsInTheSequenceNumber() {
    EchoPayload p = EchoPayload.of(32, true);
    byte[] m = new byte[32];
    p.fill(1, m);
    assertThat(p.checkWhole(2, ByteBuffer.wrap(m))).isEqualTo(23); // last hex digit of the stamp
  }

  @Test
  void aShortOrLongEchoFailsAtTheShorterLength() {
    EchoPayload p = EchoPayload.of(100, false);
    byte[] exact = new byte[100];
    p.fill(3, exact);
    byte[] m = java.util.Arrays.copyOf(exact, 101);
    assertThat(p.checkWhole(3, ByteBuffer.wrap(m))).isEqualTo(100);
    assertThat(p.checkWhole(3, ByteBuffer.wrap(exact, 0, 99))).isEqualTo(99);
  }
}
