package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadsTest {

  @ParameterizedTest
  @ValueSource(ints = {8, 9, 100, 65536})
  void aBinaryMessageCarriesItsSequenceNumberAndMatchesItself(int size) {
    Payloads p = new Payloads(size, false, 1);
    byte[] m = new byte[size];
    p.fill(m, 3, 41);
    assertThat(p.sequence(ByteBuffer.wrap(m), -7)).isEqualTo(41);
    assertThat(p.mismatch(ByteBuffer.wrap(m), 3, 41)).isEqualTo(-1);
    assertThat(p.mismatch(ByteBuffer.wrap(m).asReadOnlyBuffer(), 3, 41)).isEqualTo(-1);
  }

  @Test
  void messagesDifferBetweenSequenceNumbersAndConnections() {
    Payloads p = new Payloads(1000, false, 1);
    byte[] a = new byte[1000];
    byte[] b = new byte[1000];
    byte[] c = new byte[1000];
    p.fill(a, 0, 1);
    p.fill(b, 0, 2);
    p.fill(c, 1, 1);
    assertThat(a).isNotEqualTo(b).isNotEqualTo(c);
    assertThat(p.mismatch(ByteBuffer.wrap(b), 0, 1)).isGreaterThanOrEqualTo(Payloads.BINARY_HEADER);
  }

  @Test
  void aFlippedByteIsFoundWhereItIs() {
    Payloads p = new Payloads(300, false, 1);
    byte[] m = new byte[300];
    p.fill(m, 0, 5);
    m[299] ^= 1;
    assertThat(p.mismatch(ByteBuffer.wrap(m), 0, 5)).isEqualTo(299);
    assertThat(p.expectedAt(0, 5, 299)).isEqualTo((m[299] ^ 1) & 0xff);
  }

  @Test
  void textIsPrintableAsciiNumberedInHex() {
    Payloads p = new Payloads(40, true, 1);
    byte[] m = new byte[40];
    p.fill(m, 2, 0x1234abcdL);
    String text = new String(m, StandardCharsets.US_ASCII);
    assertThat(text).startsWith("000000001234abcd");
    assertThat(text.chars()).allMatch(ch -> ch >= 0x20 && ch <= 0x7e);
    assertThat(p.sequence(text, -7)).isEqualTo(0x1234abcdL);
    assertThat(p.mismatch(text, 2, 0x1234abcdL)).isEqualTo(-1);
    assertThat(p.sequence("000000001234ABCD" + text.substring(16), -7)).isEqualTo(-1);
    assertThat(p.sequence("zz" + text.substring(2), -7)).isEqualTo(-1);
  }

  @Test
  void shortMessagesCarryNoNumberAndAreCheckedAgainstTheExpectedOne() {
    Payloads p = new Payloads(5, false, 1);
    assertThat(p.numbered()).isFalse();
    byte[] m = new byte[5];
    p.fill(m, 0, 9);
    assertThat(p.sequence(ByteBuffer.wrap(m), 9)).isEqualTo(9);
    assertThat(p.mismatch(ByteBuffer.wrap(m), 0, 9)).isEqualTo(-1);
    Payloads empty = new Payloads(0, true, 1);
    assertThat(empty.mismatch("", 0, 0)).isEqualTo(-1);
  }
}
