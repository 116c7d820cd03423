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
    assertThat(ids(kept.after(4))).as("4 was pushed out by 20: all that followed it is kept")
        .containsExactly("9", "12", "20");
    assertThat(kept.after(3)).as("what came between 3 and 4 is not known here").isNull();
  }

  @Test
  void aReadOfTheStreamReachesBackForEveryoneBehindTheConsumersFirst() {
    NatsBackplane.Recent kept = new NatsBackplane.Recent(8);
    assertThat(kept.addOlder(10, List.of(entry(14), entry(17))))
        .as("nothing delivered yet: the consumer brings what follows the read").isTrue();
    kept.add(17, entry(17)); // delivered by the consumer too: kept once
    kept.add(21, entry(21));
    assertThat(ids(kept.after(10))).containsExactly("14", "17", "21");
    assertThat(ids(kept.after(12))).as("a later id, answered from what was read")
        .containsExactly("14", "17", "21");
    assertThat(kept.after(9)).as("older than the read: not known").isNull();
    assertThat(kept.addOlder(5, List.of(entry(7), entry(14), entry(17), entry(21))))
        .as("an older read, overlapping").isTrue();
    assertThat(ids(kept.after(5))).containsExactly("7", "14", "17", "21");
  }

  @Test
  void aReadIsNotKeptWhereItWouldLeaveAHoleOrOverflow() {
    NatsBackplane.Recent kept = new NatsBackplane.Recent(2);
    kept.add(30, entry(30));
    kept.add(31, entry(31));
    kept.add(32, entry(32)); // 30 pushed out
    assertThat(kept.addOlder(20, List.of(entry(25))))
        .as("30 was pushed out: 25 and 31 do not join").isFalse();
    assertThat(kept.after(20)).isNull();
    assertThat(kept.addOlder(20, List.of(entry(25), entry(30), entry(31), entry(32))))
        .as("two kept already and one more is over the capacity").isFalse();
    assertThat(kept.after(20)).isNull();
    assertThat(ids(kept.after(30))).containsExactly("31", "32");
  }

  @Test
  void aReadLongerThanTheRoomLeftKeepsItsNewest() {
    NatsBackplane.Recent kept = new NatsBackplane.Recent(4);
    kept.add(40, entry(40));
    assertThat(kept.addOlder(10, List.of(entry(20), entry(25), entry(30), entry(35), entry(40))))
        .as("room for three of the four older ones").isFalse();
    assertThat(kept.after(10)).as("20 did not fit").isNull();
    assertThat(kept.after(19)).isNull();
    assertThat(ids(kept.after(20))).containsExactly("25", "30", "35", "40");
    kept.add(41, entry(41)); // pushes 25 out
    assertThat(ids(kept.after(25))).containsExactly("30", "35", "40", "41");
    assertThat(kept.after(24)).isNull();
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
