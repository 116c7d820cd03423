package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import dev.wsjava.transport.Acceptor;
import java.nio.ByteBuffer;

/**
 * The front that knows only the upgrade (RFC 6455 §4.2): the first request on any path must be a
 * handshake, complete before the handshake deadline; one handler factory serves every path.
 */
final class HandshakeFront implements ServerFront {
  /** 408 Request Timeout (RFC 9110 §15.5.9). */
  private static final int REQUEST_TIMEOUT = 408;

  private final ServerHandshake handshake;
  private final Acceptor handlers;
  private final long deadlineNanos;

  HandshakeFront(
      ServerHandshakeConfig config,
      Acceptor handlers,
      long deadlineNanos) {
    this.handshake = new ServerHandshake(config);
    this.handlers = handlers;
    this.deadlineNanos = deadlineNanos;
  }

  @Override
  public Step receive(ByteBuffer in, long nowNanos) {
    return switch (handshake.receive(in)) {
      case null -> null;
      case ServerHandshake.Accepted accepted ->
          new Upgrade(accepted, handlers, accepted.response(), ServerFront.copyOf(in));
      case ServerHandshake.Rejected rejected -> new Respond(rejected.response(), true, rejected);
    };
  }

  @Override
  public long deadlineNanos() {
    return deadlineNanos;
  }

  @Override
  public Respond timeout(long nowNanos) {
    return new Respond(
        ServerHandshake.reject(REQUEST_TIMEOUT, "no complete request in time").response(),
        true,
        null); // no request was read: a timeout, not a refusal
  }
}
