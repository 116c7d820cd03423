package dev.wsjava.conformance;

/**
 * The verdict on one case, or on one aspect of it (behaviour, close behaviour), in the reference
 * suite's five grades. Ordered by severity: {@link #worse} keeps the more severe of two.
 */
public enum Verdict {
  /** The peer did what the RFC asks, in the strictest reading. */
  OK("OK"),
  /** Only informative: the RFC leaves the behaviour open, and the report shows what happened. */
  INFORMATIONAL("INFORMATIONAL"),
  /** Allowed, but not ideal: for example failing at the end of a message, not at the bad byte. */
  NON_STRICT("NON-STRICT"),
  /** The peer declined an optional feature the case needs (for example a deflate offer). */
  UNIMPLEMENTED("UNIMPLEMENTED"),
  /** The peer broke a rule of the RFC, or did not answer in time. */
  FAILED("FAILED");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  /**
   * Returns the name as reports print it.
   *
   * @return for example {@code NON-STRICT}
   */
  public String label() {
    return label;
  }

  /**
   * Returns the more severe of this verdict and another.
   *
   * @param other the other verdict
   * @return the one later in declaration order
   */
  public Verdict worse(Verdict other) {
    return other.ordinal() > ordinal() ? other : this;
  }
}
