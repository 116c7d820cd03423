package dev.wsjava.cluster.nats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a node keeps of a topic to answer a resume without JetStream, and when it must ask. */
class RecentTest {
  static Topics.Backplane.Entry entry(long seq) {
    return new Topics.Backplane.Entry(Long.toString(seq), true,
        ByteBuffer.wrap(("m" + seq).getBytes(StandardCharsets.UTF_8)));
  }

  static List<String> ids(List<Topics.Backplane.Entry> entries) {
    return entries.stream().map(Topics.Backplane.Entry::id).toList();
  }

  @Test
  void answersFromTheOldestKeptOnAndAsksTheStreamForOlder() {
    NatsBackplane.Recent kept = new NatsBackplane.Recent(3);
    assertThat(kept.after(5)).as("nothing kept: the stream knows").isNull();
    for (long seq : new long[] {4, 9, 12, 20}) { // the stream's numbers skip other topics
      kept.add(seq, entry(seq));
    }
    assertThat(ids(kept.after(9))).containsExactly("12", "20");
    assertThat(ids(kept.after(15))).as("a number between two of the topic's").containsExactly("20");
    assertThat(ids(kept.after(20))).as("missed nothing").isEmpty();
    assertThat(ids(kept.after(25))).as("saw more than this node has yet: the rest comes live")
        .isEmpty();
    assertThat(kept.after(4)).as("4 was pushed out by 20: what followed it is not all here")
        .isNull();
    assertThat(kept.after(8)).isNull();
  }

  @Test
  void aRedeliveryIsKeptOnceAndEachAnswerHasItsOwnPayloadPosition() {
    NatsBackplane.Recent kept = new NatsBackplane.Recent(4);
    kept.add(1, entry(1));
    kept.add(2, entry(2));
    kept.add(2, entry(2));
    kept.add(1, entry(1));
    assertThat(ids(kept.after(1))).containsExactly("2");
    kept.after(1).get(0).payload().get(); // a reader moves its own view only
    assertThat(kept.after(1).get(0).payload().remaining()).isEqualTo(2);
  }
}
