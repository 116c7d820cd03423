package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadException;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.HttpHeadParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP head parser, for requests and responses, fed in random chunks with small limits. Input:
 * byte 0 picks requests or responses (bit 0), byte 1 the chunking, the rest is the stream (heads
 * may follow one another). The parser returns exactly the heads {@link HeadRules} finds, one after
 * the other, and then fails with exactly the status it gives the first bad head (400, 414, 431,
 * 505); it never holds more than its head limit.
 */
class HttpHeadParserFuzzTest {
  static final HttpHeadLimits LIMITS = new HttpHeadLimits(512, 8);

  @FuzzTest(maxDuration = "30s")
  void heads(byte[] data) {
    boolean requests = (Chunks.at(data, 0) & 1) == 0;
    int from = Math.min(2, data.length);
    String stream = new String(data, from, data.length - from, StandardCharsets.ISO_8859_1);
    List<HeadRules.Head> expected = new ArrayList<>();
    HeadRules.Outcome last;
    int at = 0;
    while (true) {
      last = HeadRules.judge(stream, at, requests, LIMITS);
      if (last.head() == null) {
        break;
      }
      expected.add(last.head());
      at = last.head().end();
    }
    HttpHeadParser<? extends HttpHead> parser =
        requests ? HttpHeadParser.forRequests(LIMITS) : HttpHeadParser.forResponses(LIMITS);
    int heads = 0;
    for (ByteBuffer in : Chunks.split(data, from, Chunks.at(data, 1))) {
      while (in.hasRemaining()) {
        HttpHead head;
        try {
          head = parser.parse(in);
        } catch (HttpHeadException e) {
          assertThat(heads).as("heads before the failure").isEqualTo(expected.size());
          assertThat(e.status()).as(last.why() + ": " + e.getMessage()).isEqualTo(last.status());
          assertThat(parser.bufferedBytes()).isZero();
          return; // the connection would be closed
        }
        assertThat(parser.bufferedBytes()).isLessThanOrEqualTo(LIMITS.maxHeadSize());
        if (head == null) {
          assertThat(in.hasRemaining()).isFalse();
          break;
        }
        assertThat(heads).as("more heads than the stream holds").isLessThan(expected.size());
        HeadRules.Head want = expected.get(heads++);
        assertThat(head.headers().size()).isEqualTo(want.fields().size());
        for (int i = 0; i < want.fields().size(); i++) {
          assertThat(head.headers().name(i)).isEqualTo(want.fields().get(i)[0]);
          assertThat(head.headers().value(i)).isEqualTo(want.fields().get(i)[1]);
        }
        switch (head) {
          case HttpHead.Request r -> assertThat(r.method()).isEqualTo(want.method());
          case HttpHead.Response r -> assertThat(r.status()).isEqualTo(want.status());
        }
      }
    }
    assertThat(heads).as("heads read").isEqualTo(expected.size());
    assertThat(last.status()).as("no failure, so the stream ends in an incomplete head: "
        + last.why()).isZero();
  }
}
