package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadException;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.HttpHeadParser;
import java.nio.ByteBuffer;

/**
 * The HTTP head parser, for requests and responses, fed in random chunks with small limits. Input:
 * byte 0 picks requests or responses (bit 0), byte 1 the chunking, the rest is the stream (heads
 * may follow one another). Only {@link HttpHeadException} may escape, with a 4xx/5xx status, and the
 * parser never holds more than its head limit.
 */
class HttpHeadParserFuzzTest {
  static final HttpHeadLimits LIMITS = new HttpHeadLimits(512, 8);

  @FuzzTest(maxDuration = "30s")
  void heads(byte[] data) {
    boolean requests = (Chunks.at(data, 0) & 1) == 0;
    HttpHeadParser<? extends HttpHead> parser =
        requests ? HttpHeadParser.forRequests(LIMITS) : HttpHeadParser.forResponses(LIMITS);
    for (ByteBuffer in : Chunks.split(data, Math.min(2, data.length), Chunks.at(data, 1))) {
      while (in.hasRemaining()) {
        HttpHead head;
        try {
          head = parser.parse(in);
        } catch (HttpHeadException e) {
          assertThat(e.status()).isBetween(400, 599);
          assertThat(parser.bufferedBytes()).isZero();
          return; // the connection would be closed
        }
        assertThat(parser.bufferedBytes()).isLessThanOrEqualTo(LIMITS.maxHeadSize());
        if (head == null) {
          assertThat(in.hasRemaining()).isFalse();
          break;
        }
        assertThat(head.headers().size()).isLessThanOrEqualTo(LIMITS.maxHeaderCount());
        if (head instanceof HttpHead.Response r) {
          assertThat(r.status()).isBetween(100, 999);
        }
      }
    }
  }
}
