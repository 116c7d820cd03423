package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compares what the peer did ({@link Observation}) with what the case accepts ({@link Expect})
 * and gives the verdicts: one for the behaviour (messages, pongs, protocol violations), one for
 * the close, and the worse of the two for the case, with the reason in words. Stateless and
 * thread-safe.
 */
public final class Judge {
  private Judge() {}

  /**
   * The verdicts on one case.
   *
   * @param verdict the case's verdict, the worse of the two below
   * @param behaviour the verdict on the messages and pongs the peer sent
   * @param close the verdict on how the connection closed
   * @param reason why, in words; empty when everything is OK
   */
  public record Judgement(Verdict verdict, Verdict behaviour, Verdict close, String reason) {}

  /**
   * Judges one case.
   *
   * @param expect what the case accepts
   * @param seen what happened
   * @return the verdicts
   */
  public static Judgement judge(Expect expect, Observation seen) {
    List<String> reasons = new ArrayList<>();
    Verdict behaviour = behaviour(expect, seen, reasons);
    Verdict close = close(expect.close(), seen, reasons);
    if (behaviour == Verdict.INFORMATIONAL) {
      reasons.add(closing(seen));
    }
    return new Judgement(behaviour.worse(close), behaviour, close, String.join("; ", reasons));
  }

  private static Verdict behaviour(Expect expect, Observation seen, List<String> reasons) {
    if (!seen.violations().isEmpty()) {
      reasons.add("the peer broke the protocol: " + String.join("; ", seen.violations()));
      return Verdict.FAILED;
    }
    String got = (seen.messages().isEmpty() ? "no message" : "echo of "
        + Expect.summary(seen.messages())) + "; " + pongs(seen.pongs());
    if (seen.timeout() != null && seen.peerCloseCode() != null && !seen.peerClosedFirst()) {
      // The script waited in vain and the peer then answered the suite's close as if all were
      // well: whatever it sent, it left out what the case waited for, which the reference suite
      // grades as events that differ from every expected outcome.
      reasons.add("the peer did not send " + seen.timeout() + ", and then answered the suite's"
          + " close; it sent " + got);
      return Verdict.FAILED;
    }
    for (Expect.Behaviour b : expect.behaviours()) {
      if (b.matches(seen.messages(), seen.pongs())) {
        if (b.verdict() != Verdict.OK) {
          reasons.add(b.verdict().label() + ": the peer sent " + got);
        }
        if (expect.failFast() && seen.failedLate() && b.verdict() == Verdict.OK) {
          reasons.add("the peer failed only after the rest of the message was sent, not at"
              + " the first invalid byte");
          return Verdict.NON_STRICT;
        }
        return b.verdict();
      }
    }
    reasons.add("expected " + expect.behaviours().get(0).describe() + ", got " + got
        + (seen.timeout() == null ? "" : " (timed out waiting for " + seen.timeout() + ")"));
    return Verdict.FAILED;
  }

  private static String pongs(List<byte[]> pongs) {
    return pongs.isEmpty() ? "no pong" : pongs.size() + " pong(s) of "
        + pongs.stream().map(p -> DataMessage.hexHead(p, 8) + "/" + p.length)
            .collect(Collectors.joining(", "));
  }

  private static Verdict close(Expect.CloseRule rule, Observation seen, List<String> reasons) {
    Verdict v;
    if (seen.peerCloseCode() != null) {
      int code = seen.peerCloseCode();
      String named = Expect.CloseRule.codeName(code);
      if (Boolean.FALSE.equals(rule.peerFirst()) && seen.peerClosedFirst()) {
        reasons.add("the peer closed first (code " + named + reason(seen) + ")");
        return Verdict.FAILED;
      }
      v = rule.codes() == null ? Verdict.OK : rule.codes().getOrDefault(code, Verdict.FAILED);
      if (v != Verdict.OK) {
        reasons.add("the peer closed with code " + named + reason(seen) + ", expected "
            + rule.describe());
      }
    } else if (seen.peerDropped()) {
      v = rule.onDrop();
      if (v != Verdict.OK) {
        reasons.add("the peer dropped TCP without a close frame; expected " + rule.describe());
      }
    } else {
      reasons.add("no close from the peer"
          + (seen.timeout() == null ? "" : ": timed out waiting for " + seen.timeout())
          + "; expected " + rule.describe());
      return Verdict.FAILED;
    }
    if (v == Verdict.OK && seen.tcpLeftOpen()) {
      reasons.add("the server did not close TCP after the closing handshake (RFC 6455 §7.1.1:"
          + " the server should close it first)");
      return Verdict.NON_STRICT;
    }
    return v;
  }

  private static String closing(Observation seen) {
    if (seen.peerCloseCode() != null) {
      return (seen.peerClosedFirst() ? "the peer closed first with code "
          : "the peer answered the suite's close with code ")
          + Expect.CloseRule.codeName(seen.peerCloseCode()) + reason(seen);
    }
    return seen.peerDropped() ? "the peer dropped TCP without a close frame" : "no close";
  }

  private static String reason(Observation seen) {
    String r = seen.peerCloseReason();
    return r == null || r.isEmpty() ? "" : " \"" + r + "\"";
  }
}
