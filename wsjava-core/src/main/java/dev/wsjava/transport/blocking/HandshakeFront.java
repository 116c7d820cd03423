package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.ByteBuffer;

/** The front that knows only the upgrade: every request is a handshake (RFC 6455 §4.2). */
final class HandshakeFront implements ServerFront {
  /** 408 Request Timeout (RFC 9110 §15.5.9). */
  private static final int REQUEST_TIMEOUT = 408;

  private final ServerHandshake handshake;

  HandshakeFront(ServerHandshakeConfig config) {
    this.handshake = new ServerHandshake(config);
  }

  @Override
  public Step receive(ByteBuffer in) {
    return switch (handshake.receive(in)) {
      case null -> null;
      case ServerHandshake.Accepted accepted -> new Upgrade(accepted);
      case ServerHandshake.Rejected rejected -> new Respond(rejected.response(), true);
    };
  }

  @Override
  public Respond timeout() {
    return new Respond(
        ServerHandshake.reject(REQUEST_TIMEOUT, "no complete request in time").response(), true);
  }
}
