package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.ByteBuffer;

/** The upgrade alone: {@link ServerHandshake} reads one request and accepts or rejects it. */
final class HandshakeFront implements UpgradeFront {
  private final ServerHandshake handshake;
  private ByteBuffer output;
  private boolean mustClose;

  HandshakeFront(ServerHandshakeConfig config) {
    this.handshake = new ServerHandshake(config);
  }

  @Override
  public Upgrade receive(ByteBuffer in) {
    if (mustClose) {
      in.position(in.limit()); // after a rejection the rest is not read
      return null;
    }
    ServerHandshake.Result result = handshake.receive(in);
    if (result instanceof ServerHandshake.Accepted a) {
      return new Upgrade(a.request(), a.response(), a.subprotocol(), a.extensions());
    }
    if (result instanceof ServerHandshake.Rejected r) {
      output = r.response();
      mustClose = true;
    }
    return null;
  }

  @Override
  public ByteBuffer output() {
    ByteBuffer b = output;
    output = null;
    return b;
  }

  @Override
  public boolean mustClose() {
    return mustClose;
  }

  @Override
  public void refuse(Upgrade upgrade, int status, String reason) {
    upgrade.extensions().forEach(Extension::close);
    output = ServerHandshake.reject(status, reason).response();
    mustClose = true;
  }
}
