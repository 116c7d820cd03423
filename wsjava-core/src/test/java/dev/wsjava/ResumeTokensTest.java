package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The resume token, the client's offsets and the wait after a 1012, on a clock set by hand. */
class ResumeTokensTest {
  private static final byte[] KEY = "0123456789abcdef-shared-by-nodes".getBytes(StandardCharsets.UTF_8);

  @Test
  void aTokenNamesItsTopicsOnAnyNodeWithTheKeyUntilTheWindowEnds() {
    AtomicLong now = new AtomicLong(1_000_000);
    ResumeTokens issuer = new ResumeTokens(KEY, Duration.ofMinutes(2), now::get);
    ResumeTokens otherNode = new ResumeTokens(KEY.clone(), Duration.ofMinutes(2), now::get);
    String token = issuer.issue(List.of("a", "b c", "ü"));
    assertThat(token).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
    assertThat(otherNode.verify(token)).containsExactly("a", "b c", "ü");
    now.addAndGet(Duration.ofMinutes(2).toMillis());
    assertThat(otherNode.verify(token)).as("at the end of the window").containsExactly("a", "b c", "ü");
    now.incrementAndGet();
    assertThat(otherNode.verify(token)).as("past the window").isNull();
  }

  @Test
  void aTokenChangedOrSignedWithAnotherKeyOrMalformedIsRefused() {
    AtomicLong now = new AtomicLong();
    ResumeTokens nodes = new ResumeTokens(KEY, Duration.ofMinutes(1), now::get);
    ResumeTokens stranger = new ResumeTokens(
        "another key of 16+ bytes".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1), now::get);
    String token = nodes.issue(List.of("room"));
    assertThat(stranger.verify(token)).isNull();
    // The same signature over a payload naming another topic.
    String forged = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString(("1\n" + Long.MAX_VALUE + "\nadmin").getBytes(StandardCharsets.UTF_8))
        + token.substring(token.indexOf('.'));
    assertThat(nodes.verify(forged)).isNull();
    for (String bad : new String[] {null, "", ".", "abc", "a.b", "!!.??", token + "x"}) {
      assertThat(nodes.verify(bad)).as(String.valueOf(bad)).isNull();
    }
    assertThat(nodes.verify("x".repeat(ResumeTokens.MAX_TOKEN_CHARS + 1))).isNull();
  }

  @Test
  void aConnectionInTooManyTopicsOrWithTooLongNamesGetsNoToken() {
    ResumeTokens nodes = new ResumeTokens(KEY, Duration.ofMinutes(1), () -> 0);
    List<String> many = new ArrayList<>();
    for (int i = 0; i < ResumeTokens.MAX_TOPICS; i++) {
      many.add("t" + i);
    }
    assertThat(nodes.verify(nodes.issue(many))).hasSize(ResumeTokens.MAX_TOPICS);
    many.add("one more");
    assertThat(nodes.issue(many)).isNull();
    assertThat(nodes.issue(List.of("x".repeat(ResumeTokens.MAX_TOKEN_CHARS)))).isNull();
    assertThat(nodes.issue(List.of("a\nb"))).isNull();
  }

  @Test
  void theServerReadsTheOffsetsItIsGivenAndIgnoresOtherLines() {
    Map<String, String> offsets =
        ResumeTokens.offsets("5-0 a\n7-1 b c\nnonsense\n -x\n9 \n12 d\n");
    assertThat(offsets).containsExactly(
        Map.entry("a", "5-0"), Map.entry("b c", "7-1"), Map.entry("d", "12"));
    assertThat(ResumeTokens.offsets(null)).isEmpty();
  }

  @Test
  void theClientHidesTokensDropsRepeatsAndPresentsItsOffsets() {
    TopicOffsets client = new TopicOffsets();
    URI base = URI.create("ws://h:1/t?name=x&resume=old&offsets=old");
    assertThat(client.resumeUri(base).getRawQuery()).as("no token yet: asks for one")
        .isEqualTo("name=x&resume=");
    assertThat(client.accept("+ tok.en\n")).isFalse();
    assertThat(client.accept("1712-0 a\none")).isTrue();
    assertThat(client.accept("1712-1 a\ntwo")).isTrue();
    assertThat(client.accept("1712-1 a\ntwo")).as("a repeat").isFalse();
    assertThat(client.accept("999-5 a\nolder")).as("older").isFalse();
    assertThat(client.accept("7 b c\nx")).isTrue();
    assertThat(client.accept("- a\n")).as("the gap signal passes").isTrue();
    assertThat(client.accept("not an envelope")).isTrue();
    assertThat(client.accept(java.nio.ByteBuffer.wrap("8 b c\nbin".getBytes(StandardCharsets.UTF_8))))
        .isTrue();
    assertThat(client.accept(java.nio.ByteBuffer.wrap("8 b c\nbin".getBytes(StandardCharsets.UTF_8))))
        .isFalse();
    URI back = client.resumeUri(base);
    assertThat(back.getRawQuery()).startsWith("name=x&resume=tok.en&offsets=");
    Map<String, List<String>> q = dev.wsjava.internal.http.Request.parseQuery(back.getRawQuery());
    assertThat(ResumeTokens.offsets(q.get("offsets").get(0)))
        .containsExactly(Map.entry("a", "1712-1"), Map.entry("b c", "8"));
  }

  @Test
  void idsCompareAsNumbersPartByPart() {
    assertThat(TopicOffsets.compare("10-0", "9-5")).isPositive();
    assertThat(TopicOffsets.compare("9-5", "9-10")).isNegative();
    assertThat(TopicOffsets.compare("42", "42")).isZero();
    assertThat(TopicOffsets.compare("0042", "42")).isZero();
    assertThat(TopicOffsets.compare("99999999999999999999", "100000000000000000000")).isNegative();
    assertThat(TopicOffsets.compare("abc", "1")).as("never a repeat").isPositive();
  }

  @Test
  void after1012TheFirstWaitIsARandomPartOfTheFirstDelayThenTheBackOff() {
    ReconnectPolicy p = ReconnectPolicy.builder().initialDelay(Duration.ofSeconds(1))
        .jitter(0).build();
    assertThat(p.delay(1, 0.0, true)).isZero();
    assertThat(p.delay(1, 0.25, true)).isEqualTo(Duration.ofMillis(250));
    assertThat(p.delay(1, 0.25, false)).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.delay(2, 0.25, true)).isEqualTo(Duration.ofSeconds(2));
  }
}
