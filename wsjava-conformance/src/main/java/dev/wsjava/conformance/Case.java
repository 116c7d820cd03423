package dev.wsjava.conformance;

import java.time.Duration;
import java.util.Objects;

/**
 * One conformance case: its id (for example {@code 6.4.2}), what it does, what it accepts, and
 * the script both runners play against the peer.
 *
 * @param id the dotted id; the first number is the group
 * @param description what the case sends, for a person
 * @param expect what it accepts from the peer
 * @param script what it does on the connection
 * @param deflate the permessage-deflate the case offers (as client) or answers with (as server),
 *     or {@code null} to negotiate none
 * @param timeout how long the script may take before the case is FAILED
 */
public record Case(
    String id, String description, Expect expect, Script script, DeflateNegotiation deflate,
    Duration timeout) {

  /** The script time a case gets unless it says otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Checks the fields.
   *
   * @param id not null
   * @param description not null
   * @param expect not null
   * @param script not null
   * @param deflate may be null
   * @param timeout positive
   */
  public Case {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(expect, "expect");
    Objects.requireNonNull(script, "script");
    Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * A case without deflate and with the default timeout.
   *
   * @param id the id
   * @param description what it sends
   * @param expect what it accepts
   * @param script what it does
   * @return the case
   */
  public static Case of(String id, String description, Expect expect, Script script) {
    return new Case(id, description, expect, script, null, DEFAULT_TIMEOUT);
  }

  /**
   * Returns the group number, the id's first part.
   *
   * @return for example {@code 6}
   */
  public int group() {
    int dot = id.indexOf('.');
    return Integer.parseInt(dot < 0 ? id : id.substring(0, dot));
  }

  /**
   * Returns the expectation in words.
   *
   * @return the text of {@link Expect#describe()}
   */
  public String expectation() {
    return expect.describe();
  }

  /**
   * Returns a copy with another timeout.
   *
   * @param value the timeout
   * @return the copy
   */
  public Case withTimeout(Duration value) {
    return new Case(id, description, expect, script, deflate, value);
  }

  /**
   * Returns a copy that negotiates permessage-deflate with these parameters both ways.
   *
   * @param value the parameters
   * @return the copy
   */
  public Case withDeflate(DeflateParameters value) {
    return withDeflate(DeflateNegotiation.of(value));
  }

  /**
   * Returns a copy that negotiates permessage-deflate so.
   *
   * @param value the offers and answers
   * @return the copy
   */
  public Case withDeflate(DeflateNegotiation value) {
    return new Case(id, description, expect, script, value, timeout);
  }
}
