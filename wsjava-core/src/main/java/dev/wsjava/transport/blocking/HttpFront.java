package dev.wsjava.transport.blocking;

import dev.wsjava.internal.http.HttpConnection;
import dev.wsjava.internal.http.HttpLimits;
import dev.wsjava.internal.http.Router;
import dev.wsjava.internal.http.WebSocketUpgrade;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.Acceptor;
import java.nio.ByteBuffer;

/**
 * The HTTP front: plain routes answered in order over a keep-alive connection, WebSocket routes
 * upgraded, all by the sans-I/O {@link HttpConnection}. Everything it queues is taken at once, so
 * the transport writes each batch of answers before it reads on.
 */
final class HttpFront implements ServerFront {
  private final HttpConnection<Acceptor> http;
  private final ByteBuffer[] gathered = new ByteBuffer[16];

  private final MemoryBudget.Account memory;

  HttpFront(
      Router<Acceptor> router, HttpLimits limits, long nowNanos, MemoryBudget.Account memory) {
    this.http = new HttpConnection<>(router, limits, nowNanos);
    this.memory = memory;
    http.chargeMemoryTo(memory::charge, memory::release);
  }

  @Override
  public MemoryBudget.Account memory() {
    return memory;
  }

  @Override
  public long stalledFor() {
    return http.stalledFor();
  }

  @Override
  public Step receive(ByteBuffer in, long nowNanos) {
    WebSocketUpgrade<Acceptor> upgrade =
        http.receive(in, nowNanos);
    ByteBuffer response = takeOutbound();
    if (upgrade != null) {
      return new Upgrade(
          upgrade.handshake(), upgrade.route(), response, ServerFront.copyOf(upgrade.received()));
    }
    if (response.hasRemaining() || http.shouldClose()) {
      return new Respond(response, http.shouldClose(), http.refusal());
    }
    return null;
  }

  @Override
  public long deadlineNanos() {
    return http.deadlineNanos();
  }

  @Override
  public Respond timeout(long nowNanos) {
    http.onTimeout(nowNanos);
    return new Respond(takeOutbound(), http.shouldClose(), null);
  }

  /** Takes every queued byte into one buffer, so one write sends a batch of pipelined answers. */
  private ByteBuffer takeOutbound() {
    ByteBuffer all = ByteBuffer.allocate((int) http.outboundBytes());
    while (http.hasOutbound()) {
      int n = http.gatherOutbound(gathered, 0);
      long taken = 0;
      for (int i = 0; i < n; i++) {
        taken += gathered[i].remaining();
        all.put(gathered[i]);
        gathered[i] = null;
      }
      http.written(taken);
    }
    return all.flip();
  }
}
