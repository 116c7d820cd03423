package dev.wsjava.events;

/**
 * wsjava's {@link System.Logger}s, one per component, so that an operator can turn each up or
 * down by name:
 *
 * <ul>
 *   <li>{@code dev.wsjava.server}: start and stop with the counters, refused upgrades (DEBUG);
 *       failing or late handshake hooks (WARNING);
 *   <li>{@code dev.wsjava.limits}: limits against abuse hit (DEBUG: one line per hit);
 *   <li>{@code dev.wsjava.handler}: application handlers that threw (WARNING);
 *   <li>{@code dev.wsjava.nio}: the NIO transport's loops and acceptor;
 *   <li>{@code dev.wsjava.client}: the client side.
 * </ul>
 */
public final class Loggers {
  private Loggers() {}

  /** Server lifecycle and handshake decisions. */
  public static final System.Logger SERVER = System.getLogger("dev.wsjava.server");

  /** Limits against abuse. */
  public static final System.Logger LIMITS = System.getLogger("dev.wsjava.limits");

  /** Application handlers. */
  public static final System.Logger HANDLER = System.getLogger("dev.wsjava.handler");

  /** The NIO transport. */
  public static final System.Logger NIO = System.getLogger("dev.wsjava.nio");

  /** The client side. */
  public static final System.Logger CLIENT = System.getLogger("dev.wsjava.client");
}
