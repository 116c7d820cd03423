package dev.wsjava.cluster.nats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a node counts what it missed of another node's numbered publications. */
class SequencesTest {
  private final Sequences publisher = new Sequences();
  private final Sequences receiver = new Sequences();

  private List<byte[]> publish(String topic, int n) {
    List<byte[]> headers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      publisher.numbered(topic, t -> false, headers::add);
    }
    return headers;
  }

  private boolean receive(String topic, byte[] header) {
    return receiver.accept(topic, ByteBuffer.wrap(header));
  }

  @Test
  void aGapInOnePublishersNumbersIsCountedAsMissed() {
    List<byte[]> h = publish("t", 10);
    assertThat(receive("t", h.get(0))).isTrue();
    assertThat(receive("t", h.get(1))).isTrue();
    assertThat(receive("t", h.get(7))).isTrue(); // 2..6 lost
    assertThat(receiver.missed()).isEqualTo(5);
    assertThat(receive("t", h.get(8))).isTrue();
    assertThat(receiver.missed()).isEqualTo(5);
  }

  @Test
  void aRepeatIsDroppedAndCounted() {
    List<byte[]> h = publish("t", 3);
    assertThat(receive("t", h.get(0))).isTrue();
    assertThat(receive("t", h.get(1))).isTrue();
    assertThat(receive("t", h.get(1))).isFalse();
    assertThat(receive("t", h.get(0))).isFalse();
    assertThat(receiver.duplicates()).isEqualTo(2);
    assertThat(receive("t", h.get(2))).isTrue();
    assertThat(receiver.missed()).isZero();
  }

  @Test
  void aNodeIgnoresItsOwnPublications() {
    List<byte[]> h = publish("t", 1);
    assertThat(publisher.accept("t", ByteBuffer.wrap(h.get(0)))).isFalse();
  }

  @Test
  void topicsAreNumberedApart() {
    List<byte[]> a = publish("a", 3);
    List<byte[]> b = publish("b", 1);
    receive("a", a.get(0));
    receive("b", b.get(0));
    receive("a", a.get(1));
    assertThat(receiver.missed()).isZero();
  }

  @Test
  void aCounterDroppedByThePublisherStartsANewEpochNotAGap() {
    List<byte[]> h = publish("t", 5);
    receive("t", h.get(4));
    publisher.forget("t"); // its last subscriber left: the next publication numbers from 1
    List<byte[]> again = publish("t", 2);
    assertThat(receive("t", again.get(0))).isTrue();
    assertThat(receive("t", again.get(1))).isTrue();
    assertThat(receiver.missed()).isZero();
    assertThat(receive("t", h.get(3))).as("late, from the old epoch").isTrue();
  }

  @Test
  void countersOfTopicsOnlyPublishedToAreBounded() {
    for (int i = 0; i < Sequences.MAX_IDLE_COUNTERS * 2 + 5; i++) {
      publisher.numbered("t" + i, t -> false, h -> {});
    }
    assertThat(publisher.counters()).isLessThanOrEqualTo(Sequences.MAX_IDLE_COUNTERS + 1);
  }

  @Test
  void topicNamesBecomeOneValidSubjectTokenEach() {
    NatsBackplane b = NatsBackplane.builder().build();
    assertThat(b.subject("room-1_a")).isEqualTo("wsjava.topic.room-1_a");
    assertThat(b.subject("a.b c*>")).isEqualTo("wsjava.topic.a%2Eb%20c%2A%3E");
    assertThat(b.subject("%")).isEqualTo("wsjava.topic.%25");
    assertThat(b.subject("")).isEqualTo("wsjava.topic.%");
    assertThat(b.subject("é")).isEqualTo("wsjava.topic.%C3%A9");
  }

  @Test
  void publishersHeardFromLongAgoAreForgottenPastTheBound() {
    // Every publisher that ever published to a topic still subscribed here leaves a pair: as many
    // nodes as the bound and one more (a restart is a new node), then the newest one again.
    List<byte[]> newest = new ArrayList<>();
    for (int i = 0; i <= Sequences.MAX_REMEMBERED; i++) {
      Sequences node = new Sequences();
      List<byte[]> h = new ArrayList<>();
      node.numbered("t", t -> true, h::add);
      node.numbered("t", t -> true, h::add);
      assertThat(receive("t", h.get(0))).isTrue();
      newest = h;
    }
    assertThat(receiver.remembered()).isBetween(Sequences.MAX_REMEMBERED / 2, Sequences.MAX_REMEMBERED);
    // The one heard from last is remembered: its repeat is still caught, its next is no gap.
    assertThat(receive("t", newest.get(0))).isFalse();
    assertThat(receive("t", newest.get(1))).isTrue();
    assertThat(receiver.missed()).isZero();
    assertThat(receiver.duplicates()).isEqualTo(1);
  }
}
