package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeadersTest {

  private final Headers headers =
      Headers.builder()
          .add("Connection", "keep-alive, Upgrade")
          .add("X-Multi", "a")
          .add("upgrade", "websocket")
          .add("x-multi", " b ,, c ")
          .build();

  @Test
  void namesCompareCaseInsensitivelyAndOrderIsKept() {
    assertThat(headers.first("X-MULTI")).isEqualTo("a");
    assertThat(headers.all("x-Multi")).containsExactly("a", "b ,, c");
    assertThat(headers.count("x-multi")).isEqualTo(2);
    assertThat(headers.contains("UPGRADE")).isTrue();
    assertThat(headers.first("Absent")).isNull();
    assertThat(headers.all("Absent")).isEmpty();
    assertThat(headers.name(2)).isEqualTo("upgrade");
    assertThat(headers.value(3)).isEqualTo("b ,, c");
  }

  @Test
  void tokensSplitListsAcrossLinesTrimmedWithoutEmptyElements() {
    assertThat(headers.tokens("X-Multi")).containsExactly("a", "b", "c");
    assertThat(headers.tokens("connection")).containsExactly("keep-alive", "Upgrade");
    assertThat(headers.tokens("Absent")).isEmpty();
  }

  @Test
  void containsTokenIgnoresCase() {
    assertThat(headers.containsToken("Connection", "upgrade")).isTrue();
    assertThat(headers.containsToken("Connection", "close")).isFalse();
    assertThat(headers.containsToken("Upgrade", "WebSocket")).isTrue();
  }

  @Test
  void containsTokenMatchesWholeTrimmedElementsOnEveryLine() {
    Headers h =
        Headers.builder()
            .add("Connection", "keep-alive,\t Upgrade ")
            .add("connection", " , close")
            .add("Upgrade", "websocketx, h2c")
            .build();
    assertThat(h.containsToken("CONNECTION", "upgrade")).isTrue();
    assertThat(h.containsToken("Connection", "close")).isTrue(); // on the second line
    assertThat(h.containsToken("Connection", "keep")).isFalse(); // part of an element only
    assertThat(h.containsToken("Connection", "")).isFalse(); // empty elements do not count
    assertThat(h.containsToken("Upgrade", "websocket")).isFalse();
    assertThat(h.containsToken("Upgrade", "H2C")).isTrue();
    assertThat(h.containsToken("Origin", "x")).isFalse();
  }

  /** Each row: the lines of one field (separated by |), or nothing for an absent field. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "13", " 13 ", "13,", ",13", "13, ", "8", "13, 13", "13|13", "13|", "|13", "13, 8", "",
        "1", "130", "x13", "<absent>"
      })
  void isOnlyTokenAgreesWithTheTokenList(String lines) {
    Headers.Builder b = Headers.builder().add("Host", "h");
    if (!lines.equals("<absent>")) {
      for (String line : lines.split("\\|", -1)) {
        b.add("Sec-WebSocket-Version", line);
      }
    }
    Headers h = b.build();
    assertThat(h.isOnlyToken("sec-websocket-version", "13"))
        .as("field %s", lines)
        .isEqualTo(h.tokens("Sec-WebSocket-Version").equals(java.util.List.of("13")));
  }

  @Test
  void isOnlyTokenComparesCaseSensitively() {
    Headers h = Headers.builder().add("Content-Length", "abc").build();
    assertThat(h.isOnlyToken("Content-Length", "abc")).isTrue();
    assertThat(h.isOnlyToken("Content-Length", "ABC")).isFalse();
  }

  @Test
  void equalityIgnoresNameCaseButNotValuesOrOrder() {
    Headers a = Headers.builder().add("Host", "x").add("A", "1").build();
    assertThat(a).isEqualTo(Headers.builder().add("host", "x").add("a", "1").build());
    assertThat(a.hashCode())
        .isEqualTo(Headers.builder().add("HOST", "x").add("A", "1").build().hashCode());
    assertThat(a).isNotEqualTo(Headers.builder().add("Host", "X").add("A", "1").build());
    assertThat(a).isNotEqualTo(Headers.builder().add("A", "1").add("Host", "x").build());
  }

  @Test
  void toBuilderAddsToACopy() {
    Headers more = headers.toBuilder().add("Cookie", "k=v").build();
    assertThat(more.size()).isEqualTo(5);
    assertThat(headers.size()).isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\r\nInjected: 1", "a\nb", "a\rb", "a\u0000b", "a\u007fb", "\u20ac"})
  void theBuilderRefusesValuesThatCouldSplitTheHead(String value) {
    assertThatThrownBy(() -> Headers.builder().add("X", value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value of header X holds U+");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Bad Name", "Bad:Name", "N\u00e4me", "a\r\nb"})
  void theBuilderRefusesNamesThatAreNotTokens(String name) {
    assertThatThrownBy(() -> Headers.builder().add(name, "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a token");
  }

  @Test
  void theBuilderKeepsObsTextAndTrimsWhitespace() {
    assertThat(Headers.builder().add("X", "\t caf\u00e9 ").build().first("x"))
        .isEqualTo("caf\u00e9");
  }
}
