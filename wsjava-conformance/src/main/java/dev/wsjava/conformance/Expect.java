package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a case accepts from the peer, grade by grade as the reference suite states it: the
 * messages and pongs the peer may send back ({@link Behaviour}s, tried in order, each with its
 * verdict) and how the connection must close ({@link CloseRule}). Immutable.
 *
 * @param behaviours the acceptable behaviours, most strict first; anything else is FAILED
 * @param close the close rule
 * @param failFast when true, a peer that fails only after the rest of the message was sent gets
 *     NON-STRICT instead of OK (RFC 6455 §8.1 asks to fail as soon as the text is invalid)
 */
public record Expect(List<Behaviour> behaviours, CloseRule close, boolean failFast) {

  /**
   * Checks and copies the parts.
   *
   * @param behaviours at least one
   * @param close not null
   * @param failFast see the record
   */
  public Expect {
    behaviours = List.copyOf(behaviours);
    if (behaviours.isEmpty()) {
      throw new IllegalArgumentException("an expectation needs at least one behaviour");
    }
    Objects.requireNonNull(close, "close");
  }

  /**
   * One acceptable behaviour: exactly these data messages back, in order, and these pongs.
   *
   * @param verdict the verdict when the peer behaves so
   * @param messages the data messages, in order; {@code null} for any
   * @param pongs the pongs
   */
  public record Behaviour(Verdict verdict, List<DataMessage> messages, Pongs pongs) {

    /**
     * Returns whether what the peer sent fits this behaviour.
     *
     * @param got the data messages received
     * @param gotPongs the pong payloads received
     * @return true when it fits
     */
    public boolean matches(List<DataMessage> got, List<byte[]> gotPongs) {
      return (messages == null || messages.equals(got)) && pongs.matches(gotPongs);
    }

    /**
     * Describes the behaviour for a person.
     *
     * @return for example {@code echo of text(5: 48656c6c6f); no pong}
     */
    public String describe() {
      String m = messages == null ? "any messages"
          : messages.isEmpty() ? "no message" : "echo of " + summary(messages);
      return m + "; " + pongs.describe();
    }
  }

  /**
   * The pongs a peer may send back.
   *
   * @param payloads the expected payloads in order (one per ping sent); {@code null} for any
   */
  public record Pongs(List<byte[]> payloads) {
    /** No pong at all. */
    public static final Pongs NONE = new Pongs(List.of());
    /** Any pongs (not judged). */
    public static final Pongs ANY = new Pongs(null);

    /**
     * Exactly one pong per given payload, in order.
     *
     * @param payloads the ping payloads
     * @return the rule
     */
    public static Pongs exactly(byte[]... payloads) {
      return new Pongs(List.of(payloads));
    }

    boolean matches(List<byte[]> got) {
      if (payloads == null) {
        return true;
      }
      if (got.size() != payloads.size()) {
        return false;
      }
      for (int i = 0; i < got.size(); i++) {
        if (!Arrays.equals(got.get(i), payloads.get(i))) {
          return false;
        }
      }
      return true;
    }

    String describe() {
      if (payloads == null) {
        return "any pongs";
      }
      if (payloads.isEmpty()) {
        return "no pong";
      }
      return "pongs of " + payloads.stream().map(p -> DataMessage.hexHead(p, 8) + "/" + p.length)
              .collect(Collectors.joining(", "));
    }
  }

  /**
   * How the connection must close.
   *
   * @param peerFirst true when the peer must close first (it fails the connection), false when
   *     the suite closes first and the peer answers, null when either may
   * @param codes the peer's close code and the verdict for each (1005 stands for a close frame
   *     without a code); {@code null} accepts any code with OK
   * @param onDrop the verdict when the peer closes TCP without a close frame
   */
  public record CloseRule(Boolean peerFirst, Map<Integer, Verdict> codes, Verdict onDrop) {

    /**
     * Copies the code map, keeping its order.
     *
     * @param peerFirst see the record
     * @param codes see the record
     * @param onDrop not null
     */
    public CloseRule {
      codes = codes == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(codes));
      Objects.requireNonNull(onDrop, "onDrop");
    }

    /**
     * The suite closes with 1000 and the peer answers 1000; a drop is FAILED.
     *
     * @return the rule
     */
    public static CloseRule normal() {
      return answer(ok(1000), Verdict.FAILED);
    }

    /**
     * The peer fails the connection: a close with one of these codes, or a TCP drop (§7.1.7
     * lets a failing endpoint skip the close frame).
     *
     * @param codes the acceptable codes
     * @return the rule
     */
    public static CloseRule fail(int... codes) {
      return new CloseRule(true, ok(codes), Verdict.OK);
    }

    /**
     * The suite closes first and the peer answers with one of these codes.
     *
     * @param codes each code and its verdict
     * @param onDrop the verdict for a drop without a close frame
     * @return the rule
     */
    public static CloseRule answer(Map<Integer, Verdict> codes, Verdict onDrop) {
      return new CloseRule(false, codes, onDrop);
    }

    /**
     * Maps each code to OK.
     *
     * @param codes the codes
     * @return an ordered map
     */
    public static Map<Integer, Verdict> ok(int... codes) {
      Map<Integer, Verdict> m = new LinkedHashMap<>();
      for (int c : codes) {
        m.put(c, Verdict.OK);
      }
      return m;
    }

    String describe() {
      String who = peerFirst == null ? "either side closes" : peerFirst
          ? "the peer fails the connection" : "the suite closes, the peer answers";
      String c;
      if (codes == null) {
        c = "any code";
      } else {
        Map<Verdict, List<Integer>> byVerdict = new LinkedHashMap<>();
        codes.forEach((code, v) -> byVerdict.computeIfAbsent(v, k -> new ArrayList<>()).add(code));
        c = byVerdict.entrySet().stream()
            .map(e -> "code " + e.getValue().stream().map(CloseRule::codeName)
                .collect(Collectors.joining("/")) + (e.getKey() == Verdict.OK ? ""
                    : " (" + e.getKey().label() + ")"))
            .collect(Collectors.joining(", "));
      }
      String drop = switch (onDrop) {
        case OK -> ", or a TCP drop";
        case FAILED -> "";
        default -> ", TCP drop " + onDrop.label();
      };
      return who + ": " + c + drop;
    }

    static String codeName(int code) {
      return code == 1005 ? "none" : Integer.toString(code);
    }
  }

  /**
   * OK when the peer echoes exactly these messages and sends no pong; the suite then closes
   * normally.
   *
   * @param messages the messages sent, expected back in order
   * @return the expectation
   */
  public static Expect echo(DataMessage... messages) {
    return echo(List.of(messages));
  }

  /**
   * OK when the peer echoes exactly these messages; see {@link #echo(DataMessage...)}.
   *
   * @param messages the messages, in order
   * @return the expectation
   */
  public static Expect echo(List<DataMessage> messages) {
    return new Expect(
        List.of(new Behaviour(Verdict.OK, messages, Pongs.NONE)), CloseRule.normal(), false);
  }

  /**
   * OK when the peer echoes {@code before} and then fails the connection with {@code code} (or
   * drops TCP); NON-STRICT when the failure also lost the echoes of {@code before}.
   *
   * @param code the close code, for example 1002
   * @param before the messages sent before the violation
   * @return the expectation
   */
  public static Expect fail(int code, DataMessage... before) {
    return fail(new int[] {code}, before);
  }

  /**
   * Like {@link #fail(int, DataMessage...)} with several acceptable codes.
   *
   * @param codes the acceptable close codes
   * @param before the messages sent before the violation
   * @return the expectation
   */
  public static Expect fail(int[] codes, DataMessage... before) {
    List<Behaviour> b = new ArrayList<>();
    b.add(new Behaviour(Verdict.OK, List.of(before), Pongs.NONE));
    if (before.length > 0) {
      b.add(new Behaviour(Verdict.NON_STRICT, List.of(), Pongs.NONE));
    }
    return new Expect(b, CloseRule.fail(codes), false);
  }

  /**
   * The suite sends a close itself; OK when the peer echoes {@code before} and answers with one
   * of {@code codes}.
   *
   * @param codes each acceptable answer code and its verdict
   * @param onDrop the verdict for a drop without close frame
   * @param before the messages expected back before the close
   * @return the expectation
   */
  public static Expect answer(Map<Integer, Verdict> codes, Verdict onDrop, DataMessage... before) {
    return new Expect(
        List.of(new Behaviour(Verdict.OK, List.of(before), Pongs.NONE)),
        CloseRule.answer(codes, onDrop), false);
  }

  /**
   * Returns a copy in which every behaviour expects these pongs.
   *
   * @param pongs the pong rule
   * @return the copy
   */
  public Expect pongs(Pongs pongs) {
    return new Expect(
        behaviours.stream().map(b -> new Behaviour(b.verdict, b.messages, pongs)).toList(),
        close, failFast);
  }

  /**
   * Returns a copy with one more acceptable behaviour (tried after the others).
   *
   * @param verdict its verdict
   * @param messages its messages
   * @param pongs its pongs
   * @return the copy
   */
  public Expect or(Verdict verdict, List<DataMessage> messages, Pongs pongs) {
    List<Behaviour> b = new ArrayList<>(behaviours);
    b.add(new Behaviour(verdict, messages, pongs));
    return new Expect(b, close, failFast);
  }

  /**
   * Returns a copy with another close rule.
   *
   * @param rule the rule
   * @return the copy
   */
  public Expect close(CloseRule rule) {
    return new Expect(behaviours, rule, failFast);
  }

  /**
   * Returns a copy judged for failing fast (see the record).
   *
   * @return the copy
   */
  public Expect failingFast() {
    return new Expect(behaviours, close, true);
  }

  /**
   * Describes the expectation for a person, grade by grade.
   *
   * @return for example {@code OK: echo of text(5: 48656c6c6f); no pong. Close: ...}
   */
  public String describe() {
    StringBuilder s = new StringBuilder();
    for (Behaviour b : behaviours) {
      s.append(b.verdict.label()).append(": ").append(b.describe()).append(". ");
    }
    s.append("Close: ").append(close.describe()).append('.');
    if (failFast) {
      s.append(" Failing only after the rest of the message was sent is NON-STRICT.");
    }
    return s.toString();
  }

  static String summary(List<DataMessage> messages) {
    if (messages.size() <= 4) {
      return messages.stream().map(DataMessage::toString).collect(Collectors.joining(", "));
    }
    long bytes = messages.stream().mapToLong(m -> m.payload().length).sum();
    return messages.size() + " messages (" + bytes + " bytes): " + messages.get(0) + ", ...";
  }
}
