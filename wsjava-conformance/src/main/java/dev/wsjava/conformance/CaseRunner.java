package dev.wsjava.conformance;

import dev.wsjava.protocol.Role;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/** Plays one case's script on an open connection, closes, and judges: the part both runners share. */
final class CaseRunner {
  private CaseRunner() {}

  /**
   * Runs a case on a connection whose opening handshake is done.
   *
   * @param c the case
   * @param socket the connection
   * @param in its input, positioned after the handshake
   * @param out its output
   * @param role the suite's role
   * @param compression the agreed permessage-deflate, or null
   * @param settings the runner's patience
   * @param startNanos when the case started (before the handshake)
   * @return the result
   * @throws InterruptedException when interrupted
   */
  static Result run(
      Case c, Socket socket, InputStream in, OutputStream out, Role role, Compression compression,
      Settings settings, long startNanos) throws InterruptedException {
    Conversation conversation =
        new Conversation(socket, in, out, role, compression, settings, c.timeout());
    String scriptError = null;
    try {
      c.script().run(conversation);
    } catch (RuntimeException e) {
      scriptError = "the case script itself failed: " + e;
    }
    Observation seen = conversation.finish(c.expect().close());
    Judge.Judgement j = Judge.judge(c.expect(), seen);
    Verdict verdict = j.verdict();
    String reason = j.reason();
    if (scriptError != null) {
      verdict = Verdict.FAILED;
      reason = reason.isEmpty() ? scriptError : scriptError + "; " + reason;
    }
    String closedBy = seen.peerCloseCode() == null && !seen.peerDropped()
        ? (seen.suiteCloseCode() == null ? "none" : "suite")
        : seen.peerClosedFirst() || (seen.peerDropped() && seen.suiteCloseCode() == null)
            ? "peer" : "suite";
    boolean clean = seen.peerCloseCode() != null && seen.suiteCloseCode() != null
        && !seen.tcpLeftOpen() && seen.timeout() == null;
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    return new Result(c.id(), c.description(), c.expectation(), verdict, j.behaviour(), j.close(),
        reason, ms, closedBy, seen.peerCloseCode(), seen.peerCloseReason(),
        seen.suiteCloseCode(), clean, conversation.log(), conversation.logOmitted());
  }
}
