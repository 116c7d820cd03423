package dev.wsjava;

/** The close codes an application uses most, re-exported from {@link dev.wsjava.protocol.CloseCode}. */
public final class CloseCodes {
  /** 1000: normal closure. */
  public static final int NORMAL = dev.wsjava.protocol.CloseCode.NORMAL;
  /** 1001: going away (server shutdown, page left). */
  public static final int GOING_AWAY = dev.wsjava.protocol.CloseCode.GOING_AWAY;
  /** 1008: policy violation. */
  public static final int POLICY_VIOLATION = dev.wsjava.protocol.CloseCode.POLICY_VIOLATION;
  /** 1011: internal error. */
  public static final int INTERNAL_ERROR = dev.wsjava.protocol.CloseCode.INTERNAL_ERROR;

  private CloseCodes() {}
}
