package dev.wsjava.transport;

import java.util.function.Function;

/**
 * Decides an upgrade the handshake accepted, before anything is written back: the server calls it
 * once per upgrade, on the connection's I/O thread, with everything known about the request and the
 * peer. What it returns is a {@link Verdict}: serve with a handler (possibly with another
 * subprotocol and more 101 fields), refuse with a complete response, or decide later. Must be
 * thread-safe: one acceptor serves every connection of a route.
 */
@FunctionalInterface
public interface Acceptor {

  /**
   * Decides.
   *
   * @param info the request, the negotiation and the peer
   * @return the verdict; a thrown exception is answered 500
   */
  Verdict decide(HandshakeInfo info);

  /**
   * Adapts a plain handler factory: a handler accepts as negotiated, {@code null} is answered 404.
   *
   * @param factory given the handshake, the connection's handler or null
   * @return the acceptor
   */
  static Acceptor of(Function<HandshakeInfo, ConnectionHandler> factory) {
    return info -> {
      ConnectionHandler h = factory.apply(info);
      return h == null
          ? Verdict.refuse(404, "no handler for " + info.target())
          : new Verdict.Accept(h, info.subprotocol(), dev.wsjava.Headers.empty());
    };
  }
}
