package dev.wsjava.conformance;

import java.util.List;

/**
 * The outcome of one case against one peer, as the reports show it.
 *
 * @param id the case id
 * @param description what the case sends
 * @param expectation what it accepts, in words
 * @param verdict the case's verdict
 * @param behaviour the verdict on messages and pongs
 * @param closeBehaviour the verdict on the close
 * @param reason why, in words; empty when OK
 * @param durationMs how long the case took, handshake included
 * @param closedBy who sent the first close frame or dropped TCP: "peer", "suite" or "none"
 * @param peerCloseCode the peer's close code (1005 for none in the frame), or null without a close
 *     frame
 * @param peerCloseReason the peer's close reason, or null
 * @param suiteCloseCode the suite's close code, or null when it sent none
 * @param clean whether both sides exchanged close frames and TCP closed as §7.1.1 asks
 * @param frames the frames exchanged, both directions, in order (the first few hundred)
 * @param framesOmitted how many more were not recorded
 */
public record Result(
    String id,
    String description,
    String expectation,
    Verdict verdict,
    Verdict behaviour,
    Verdict closeBehaviour,
    String reason,
    long durationMs,
    String closedBy,
    Integer peerCloseCode,
    String peerCloseReason,
    Integer suiteCloseCode,
    boolean clean,
    List<FrameRecord> frames,
    int framesOmitted) {

  /**
   * Copies the frame list.
   *
   * @param id see the record
   * @param description see the record
   * @param expectation see the record
   * @param verdict see the record
   * @param behaviour see the record
   * @param closeBehaviour see the record
   * @param reason see the record
   * @param durationMs see the record
   * @param closedBy see the record
   * @param peerCloseCode see the record
   * @param peerCloseReason see the record
   * @param suiteCloseCode see the record
   * @param clean see the record
   * @param frames see the record
   * @param framesOmitted see the record
   */
  public Result {
    frames = List.copyOf(frames);
  }

  /**
   * A case that did not get to run its script (refused handshake, declined extension...).
   *
   * @param c the case
   * @param verdict FAILED or UNIMPLEMENTED
   * @param reason why
   * @param durationMs how long it took
   * @return the result
   */
  static Result notRun(Case c, Verdict verdict, String reason, long durationMs) {
    return new Result(c.id(), c.description(), c.expectation(), verdict, verdict, verdict, reason,
        durationMs, "none", null, null, null, false, List.of(), 0);
  }

  /**
   * Returns the group number.
   *
   * @return the id's first part
   */
  public int group() {
    int dot = id.indexOf('.');
    return Integer.parseInt(dot < 0 ? id : id.substring(0, dot));
  }

  /**
   * One line for a console: id, verdict, duration and reason.
   *
   * @return the line
   */
  public String line() {
    return String.format("%-10s %-13s %6d ms  %s", id, verdict.label(), durationMs,
        reason.isEmpty() ? description : reason);
  }
}
