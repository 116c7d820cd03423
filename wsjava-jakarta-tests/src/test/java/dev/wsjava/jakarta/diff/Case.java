package dev.wsjava.jakarta.diff;

/**
 * One differential case: a script run against every container, which returns a normalised
 * transcript of what it observed. Documented expectations are in {@link Expectations}.
 *
 * @param id short id ("S01" server side, "C01" client side)
 * @param section the Jakarta WebSocket 2.2 section (or RFC 6455 section, "RFC6455 x.y") it checks
 * @param title what it checks, in a few words
 * @param script the scripted client
 */
record Case(String id, String section, String title, Script script) {
  /** A scripted client run against one server. */
  @FunctionalInterface
  interface Script {
    String run(Probe probe) throws Exception;
  }

  static Case of(String id, String section, String title, Script script) {
    return new Case(id, section, title, script);
  }
}
