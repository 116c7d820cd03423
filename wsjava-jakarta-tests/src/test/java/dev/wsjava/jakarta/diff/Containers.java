package dev.wsjava.jakarta.diff;

import java.util.List;

/** The containers under comparison, references first. */
final class Containers {
  private Containers() {}

  static List<Container> all() {
    return List.of(new TomcatContainer(), new JettyContainer(), new WsjavaContainer());
  }
}
