package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.handshake.ServerHandshakeConfig;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The upgrade alone: {@link ServerHandshake} reads one request and accepts or rejects it, within
 * the handshake timeout counted from the connection's start (so it covers TLS too). On timeout the
 * connection closes without an answer.
 */
final class HandshakeFront implements UpgradeFront {
  private final ServerHandshake handshake;
  private final long deadline;
  private ByteBuffer output;
  private ServerHandshake.Rejected refusal;
  private boolean shouldClose;
  private boolean upgraded;

  HandshakeFront(ServerHandshakeConfig config, Duration timeout, long nowNanos) {
    this.handshake = new ServerHandshake(config);
    this.deadline = nowNanos + timeout.toNanos();
  }

  @Override
  public Upgrade receive(ByteBuffer in, long nowNanos) {
    if (shouldClose || upgraded) {
      in.position(in.limit()); // nothing more is read here
      return null;
    }
    ServerHandshake.Result result = handshake.receive(in);
    if (result == null) {
      return null;
    }
    output = result.response();
    if (result instanceof ServerHandshake.Accepted a) {
      upgraded = true;
      ByteBuffer received = in.slice();
      in.position(in.limit());
      return new Upgrade(a, received, null);
    }
    refusal = (ServerHandshake.Rejected) result;
    shouldClose = true;
    in.position(in.limit());
    return null;
  }

  @Override
  public ServerHandshake.Rejected refusal() {
    return refusal;
  }

  @Override
  public void receiveEnd() {
    shouldClose = true;
  }

  @Override
  public long deadlineNanos() {
    return upgraded || shouldClose ? Long.MAX_VALUE : deadline;
  }

  @Override
  public void onTimeout(long nowNanos) {
    if (nowNanos - deadlineNanos() >= 0) {
      shouldClose = true;
    }
  }

  @Override
  public boolean shouldClose() {
    return shouldClose;
  }

  @Override
  public boolean hasOutbound() {
    return output != null;
  }

  @Override
  public int gatherOutbound(ByteBuffer[] dst, int offset) {
    if (output == null || offset >= dst.length) {
      return 0;
    }
    dst[offset] = output;
    return 1;
  }

  @Override
  public void written(long bytes) {
    if (output != null && !output.hasRemaining()) {
      output = null;
    }
  }

  @Override
  public void answer(Upgrade upgrade, ByteBuffer response, boolean close) {
    if (close) {
      upgrade.extensions().forEach(Extension::close);
      upgraded = false;
      shouldClose = true;
    }
    output = response;
  }
}
