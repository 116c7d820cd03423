package dev.wsjava.handshake;

import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.ExtensionOffer.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExtensionHeaderTest {

  private static final String TCHARS =
      "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  private static ExtensionOffer offer(String name, Param... params) {
    return new ExtensionOffer(name, List.of(params));
  }

  private static Param p(String name, String value) {
    return new Param(name, value);
  }

  @Test
  void parsesTheRfc7692ExampleOffer() throws Exception {
    assertThat(
            ExtensionHeader.parse(
                List.of("permessage-deflate; client_max_window_bits; server_max_window_bits=10")))
        .containsExactly(
            offer(
                "permessage-deflate",
                p("client_max_window_bits", null),
                p("server_max_window_bits", "10")));
  }

  @Test
  void repeatedLinesAndACommaListGiveTheSameOffers() throws Exception {
    // RFC 6455 §9.1: "foo" + "bar; baz=2" on two lines equals "foo, bar; baz=2" on one.
    List<ExtensionOffer> twoLines = ExtensionHeader.parse(List.of("foo", "bar; baz=2"));
    List<ExtensionOffer> oneLine = ExtensionHeader.parse(List.of("foo, bar; baz=2"));
    assertThat(twoLines)
        .isEqualTo(oneLine)
        .containsExactly(offer("foo"), offer("bar", p("baz", "2")));
  }

  @Test
  void quotedValuesAreUnquotedAndEscapesRemoved() throws Exception {
    assertThat(ExtensionHeader.parse(List.of("x; a=\"10\"; b=\"t\\ok\\en\"")))
        .containsExactly(offer("x", p("a", "10"), p("b", "token")));
  }

  @Test
  void whitespaceIsAllowedAroundSeparators() throws Exception {
    assertThat(ExtensionHeader.parse(List.of(" \tfoo \t; a \t= \t1 ;b= \"2\"\t,\tbar \t")))
        .containsExactly(offer("foo", p("a", "1"), p("b", "2")), offer("bar"));
  }

  @Test
  void emptyListElementsAreSkipped() throws Exception {
    // RFC 7230 §7: a recipient accepts empty elements in a list.
    assertThat(ExtensionHeader.parse(List.of(", a, , b ,", "")))
        .containsExactly(offer("a"), offer("b"));
  }

  @Test
  void duplicateParametersAreKeptForTheExtensionToJudge() throws Exception {
    assertThat(ExtensionHeader.parse(List.of("x; a=1; a=2")))
        .containsExactly(offer("x", p("a", "1"), p("a", "2")));
  }

  @Test
  void anAbsentFieldIsNoOffer() throws Exception {
    assertThat(ExtensionHeader.parse(List.of())).isEmpty();
  }

  @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "''                    | names no extension",
        "' , ,'                | names no extension",
        "'; a=1'               | expected an extension name",
        "'foo; '               | expected a parameter name after ';'",
        "'foo; =1'             | expected a parameter name after ';'",
        "'foo; a='             | parameter a has '=' but no token value",
        "'foo; a= ,bar'        | parameter a has '=' but no token value",
        "'foo; a=\"1'          | unterminated quoted string in parameter a",
        "'foo; a=\"1\\'        | unterminated quoted string in parameter a",
        "'foo; a=\"\"'         | quoted value of parameter a must be a token",
        "'foo; a=\"1 2\"'      | quoted value of parameter a must be a token",
        "'foo; a=\"x,y\"'      | quoted value of parameter a must be a token",
        "'fo/o'                | expected ';' or ','",
        "'foo bar'             | expected ';' or ','",
        "'foo; a=1 2'          | expected ';' or ','",
        "'foo; a=1=2'          | expected ';' or ','",
        "'foo; a[1]'           | expected ';' or ','",
        "'f\u00e9e'            | expected ';' or ','",
      })
  void malformedFieldsFailWithWhatIsWrong(String value, String message) {
    String v = value.substring(1, value.length() - 1); // strip the guarding quotes
    assertThatThrownBy(() -> ExtensionHeader.parse(List.of(v)))
        .isInstanceOf(ExtensionNegotiationException.class)
        .hasMessageContaining(message);
  }

  @Test
  void aMalformedSecondLineFailsTheWholeField() {
    assertThatThrownBy(() -> ExtensionHeader.parse(List.of("foo", "bar;")))
        .isInstanceOf(ExtensionNegotiationException.class)
        .hasMessageContaining("index 4 of \"bar;\"");
  }

  @Test
  void formatWritesTokensBareAndSeparatesWithSemicolonAndComma() {
    assertThat(
            ExtensionHeader.format(
                List.of(
                    offer("permessage-deflate", p("client_max_window_bits", null)),
                    offer("x", p("a", "1")))))
        .isEqualTo("permessage-deflate; client_max_window_bits, x; a=1");
  }

  @Test
  void formatQuotesOnlyValuesThatAreNotTokens() {
    assertThat(ExtensionHeader.format(List.of(offer("x", p("a", "1 \"2\"\\"), p("b", "")))))
        .isEqualTo("x; a=\"1 \\\"2\\\"\\\\\"; b=\"\"");
  }

  @Test
  void formatRefusesWhatCannotBeWritten() {
    assertThatThrownBy(() -> ExtensionHeader.format(List.of(offer("bad name"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a token");
    assertThatThrownBy(() -> ExtensionHeader.format(List.of(offer("x", p("a", "1\r\n2")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("U+000D");
  }

  // Randomized round trips: a fixed seed per case, so a failure names the seed that reproduces it.

  private static final int CASES = 2000;

  @Test
  void formatThenParseGivesBackRandomOffers() throws Exception {
    for (int seed = 0; seed < CASES; seed++) {
      List<ExtensionOffer> offers = randomOffers(new Random(seed));
      String formatted = ExtensionHeader.format(offers);
      assertThat(ExtensionHeader.parse(List.of(formatted)))
          .as("seed %d: %s", seed, formatted)
          .isEqualTo(offers);
    }
  }

  @Test
  void quotingEveryCharacterOfATokenValueChangesNothing() throws Exception {
    // Each value becomes a quoted-string with every character escaped, with whitespace around
    // the separators and one header line per offer: the parse must not see a difference.
    for (int seed = 0; seed < CASES; seed++) {
      List<ExtensionOffer> offers = randomOffers(new Random(seed));
      List<String> lines = new ArrayList<>();
      for (ExtensionOffer o : offers) {
        StringBuilder sb = new StringBuilder(o.name());
        for (Param param : o.params()) {
          sb.append(" ;\t").append(param.name());
          if (param.value() != null) {
            sb.append(" = \"");
            param.value().chars().forEach(c -> sb.append('\\').append((char) c));
            sb.append('"');
          }
        }
        lines.add(sb.toString());
      }
      assertThat(ExtensionHeader.parse(lines)).as("seed %d: %s", seed, lines).isEqualTo(offers);
    }
  }

  private static List<ExtensionOffer> randomOffers(Random r) {
    List<ExtensionOffer> offers = new ArrayList<>();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      List<Param> params = new ArrayList<>();
      int m = r.nextInt(5);
      for (int j = 0; j < m; j++) {
        params.add(p(randomToken(r), r.nextInt(3) == 0 ? null : randomToken(r)));
      }
      offers.add(new ExtensionOffer(randomToken(r), params));
    }
    return offers;
  }

  private static String randomToken(Random r) {
    char[] c = new char[1 + r.nextInt(12)];
    for (int i = 0; i < c.length; i++) {
      c[i] = TCHARS.charAt(r.nextInt(TCHARS.length()));
    }
    return new String(c);
  }
}
