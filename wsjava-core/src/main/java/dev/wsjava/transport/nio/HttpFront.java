package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.http.HttpConnection;
import dev.wsjava.http.HttpLimits;
import dev.wsjava.http.Router;
import dev.wsjava.http.WebSocketUpgrade;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import java.nio.ByteBuffer;
import java.util.function.Function;

/**
 * The HTTP front: plain routes answered in order over a keep-alive connection and WebSocket routes
 * upgraded, all by the sans-I/O {@link HttpConnection}, whose queue the transport writes straight
 * from its buffers. A WebSocket route's data is its handler factory.
 */
final class HttpFront implements UpgradeFront {
  private final HttpConnection<Function<HandshakeInfo, ConnectionHandler>> http;

  /** Once an upgrade is refused: the error response replacing whatever was queued. */
  private ByteBuffer refusal;

  private boolean refused;

  HttpFront(
      Router<Function<HandshakeInfo, ConnectionHandler>> router, HttpLimits limits, long nowNanos) {
    this.http = new HttpConnection<>(router, limits, nowNanos);
  }

  @Override
  public Upgrade receive(ByteBuffer in, long nowNanos) {
    if (refused) {
      in.position(in.limit());
      return null;
    }
    WebSocketUpgrade<Function<HandshakeInfo, ConnectionHandler>> u = http.receive(in, nowNanos);
    if (u == null) {
      return null;
    }
    in.position(in.limit()); // what followed the head is in the upgrade
    ServerHandshake.Accepted a = u.handshake();
    return new Upgrade(a.request(), a.subprotocol(), a.extensions(), u.received(), u.route());
  }

  @Override
  public void receiveEnd() {
    http.receiveEnd();
  }

  @Override
  public long deadlineNanos() {
    return refused ? Long.MAX_VALUE : http.deadlineNanos();
  }

  @Override
  public void onTimeout(long nowNanos) {
    if (!refused) {
      http.onTimeout(nowNanos);
    }
  }

  @Override
  public boolean shouldClose() {
    return refused || http.shouldClose();
  }

  @Override
  public boolean hasOutbound() {
    return refused ? refusal != null : http.hasOutbound();
  }

  @Override
  public int gatherOutbound(ByteBuffer[] dst, int offset) {
    if (!refused) {
      return http.gatherOutbound(dst, offset);
    }
    if (refusal == null || offset >= dst.length) {
      return 0;
    }
    dst[offset] = refusal;
    return 1;
  }

  @Override
  public void written(long bytes) {
    if (!refused) {
      http.written(bytes);
    } else if (refusal != null && !refusal.hasRemaining()) {
      refusal = null;
    }
  }

  /**
   * Drops the queued 101 (and any answer before it, as the blocking transport does) for the error.
   */
  @Override
  public void refuse(Upgrade upgrade, int status, String reason) {
    upgrade.extensions().forEach(Extension::close);
    ByteBuffer[] gathered = new ByteBuffer[16];
    while (http.hasOutbound()) {
      int n = http.gatherOutbound(gathered, 0);
      long dropped = 0;
      for (int i = 0; i < n; i++) {
        dropped += gathered[i].remaining();
        gathered[i].position(gathered[i].limit());
      }
      http.written(dropped);
    }
    refusal = ServerHandshake.reject(status, reason).response();
    refused = true;
  }
}
