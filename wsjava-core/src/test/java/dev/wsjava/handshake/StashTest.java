package dev.wsjava.handshake;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StashTest {
  @Test
  void whatIsGivenIsTakenOnceAndAnEmptyStashGivesNothing() {
    Stash<byte[]> stash = new Stash<>();
    assertThat(stash.take()).isNull();
    byte[] kept = new byte[8];
    stash.give(kept);
    assertThat(stash.take()).isSameAs(kept);
    assertThat(stash.take()).as("taken: a concurrent taker must make its own").isNull();
  }
}
