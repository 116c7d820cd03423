package dev.wsjava.internal.http;

import static dev.wsjava.internal.http.HttpWire.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The accepted framings; the refused ones are answered byte for byte in HttpConnectionTest. */
class BodyLengthTest {

  private static long lengthOf(String fields, int max) throws Exception {
    return BodyLength.of(request("POST / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n").head(), max);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no framing field         | ''                                    | 0",
        "a length                 | Content-Length: 42\\r\\n              | 42",
        "leading zeros            | Content-Length: 0042\\r\\n            | 42",
        "zero                     | Content-Length: 0\\r\\n               | 0",
        "the same value repeated  | Content-Length: 7, 7\\r\\nContent-Length: 7\\r\\n | 7",
        "the limit exactly        | Content-Length: 100\\r\\n             | 100",
        "chunked in any case      | Transfer-Encoding: Chunked\\r\\n      | -1",
      })
  void acceptedFramings(String name, String fields, long expected) throws Exception {
    assertThat(lengthOf(fields.replace("\\r\\n", "\r\n"), 100)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"101", "4294967296", "18446744073709551616"})
  void aLengthOverTheLimitIs413(String value) {
    assertThatThrownBy(() -> lengthOf("Content-Length: " + value + "\r\n", 100))
        .isInstanceOfSatisfying(RequestException.class, e -> assertThat(e.status()).isEqualTo(413));
  }
}
