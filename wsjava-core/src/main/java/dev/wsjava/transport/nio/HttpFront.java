package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.internal.http.HttpConnection;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import dev.wsjava.internal.http.WebSocketUpgrade;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.Acceptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP front: plain routes answered in order over a keep-alive connection and WebSocket routes
 * upgraded, all by the sans-I/O {@link HttpConnection}, whose queue the transport writes straight
 * from its buffers. A WebSocket route's data is its {@link Acceptor}.
 */
final class HttpFront implements UpgradeFront {
  private final HttpConnection<Acceptor> http;
  private final MemoryBudget.Account memory;

  /**
   * Once the application answered an upgrade in its own way: what is left to write (the answers
   * queued before the upgrade, then its answer), taken over from the connection's queue.
   */
  private List<ByteBuffer> answers;

  private boolean closeAfter;

  HttpFront(Router<Acceptor> router, HttpLimits limits, long nowNanos, MemoryBudget.Account memory) {
    this.http = new HttpConnection<>(router, limits, nowNanos);
    this.memory = memory;
    http.chargeMemoryTo(memory::charge, memory::release);
  }

  @Override
  public long stalledFor() {
    return answers != null ? 0 : http.stalledFor();
  }

  @Override
  public MemoryBudget.Account memory() {
    return memory;
  }

  @Override
  public Upgrade receive(ByteBuffer in, long nowNanos) {
    if (answers != null) {
      in.position(in.limit());
      return null;
    }
    WebSocketUpgrade<Acceptor> u = http.receive(in, nowNanos);
    if (u == null) {
      return null;
    }
    in.position(in.limit()); // what followed the head is in the upgrade
    return new Upgrade(u.handshake(), u.received(), u.route());
  }

  @Override
  public void receiveEnd() {
    http.receiveEnd();
  }

  @Override
  public long deadlineNanos() {
    return answers != null ? Long.MAX_VALUE : http.deadlineNanos();
  }

  @Override
  public void onTimeout(long nowNanos) {
    if (answers == null) {
      http.onTimeout(nowNanos);
    }
  }

  @Override
  public boolean shouldClose() {
    return answers != null ? closeAfter : http.shouldClose();
  }

  @Override
  public ServerHandshake.Rejected refusal() {
    return http.refusal();
  }

  @Override
  public boolean hasOutbound() {
    return answers != null ? !answers.isEmpty() : http.hasOutbound();
  }

  @Override
  public int gatherOutbound(ByteBuffer[] dst, int offset) {
    if (answers == null) {
      return http.gatherOutbound(dst, offset);
    }
    int n = Math.min(answers.size(), dst.length - offset);
    for (int i = 0; i < n; i++) {
      dst[offset + i] = answers.get(i);
    }
    return Math.max(n, 0);
  }

  @Override
  public void written(long bytes) {
    if (answers == null) {
      http.written(bytes);
    } else {
      answers.removeIf(b -> !b.hasRemaining()); // the writer advanced them
    }
  }

  /**
   * Takes the connection's queue over, drops its last answer (the upgrade's 101: nothing is
   * queued after it) and puts the application's answer in its place.
   */
  @Override
  public void answer(Upgrade upgrade, ByteBuffer response, boolean close) {
    if (close) {
      upgrade.extensions().forEach(Extension::close);
    }
    List<ByteBuffer> taken = new ArrayList<>();
    ByteBuffer[] gathered = new ByteBuffer[16];
    while (http.hasOutbound()) {
      int n = http.gatherOutbound(gathered, 0);
      long moved = 0;
      for (int i = 0; i < n; i++) {
        taken.add(gathered[i].duplicate());
        moved += gathered[i].remaining();
        gathered[i].position(gathered[i].limit());
        gathered[i] = null;
      }
      http.written(moved);
    }
    if (!taken.isEmpty()) {
      taken.remove(taken.size() - 1);
    }
    taken.add(response);
    answers = taken;
    closeAfter = close;
  }
}
