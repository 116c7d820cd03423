package dev.wsjava.cli;

import dev.wsjava.CloseCode;
import dev.wsjava.SendQueueFullException;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code /echo} route: sends every message straight back, text as text and binary as binary.
 * A client that sends faster than it reads its echoes is slowed down, not cut off: once {@link
 * #HIGH_WATER} bytes of echoes wait, reading stops until they are written ({@link
 * WebSocket#pauseReadingUntilSent()}), so TCP pushes back on the client's sends and it gets every
 * echo once it reads. The server's send queue must hold a largest message beyond the high-water
 * mark (see {@link ServeCommand}); if a send is refused anyway the client is closed with 1008
 * rather than have an echo dropped silently. {@code connect --echo} extends it to learn how the
 * connection closed.
 */
class EchoListener implements WebSocketListener {
  /** Echo bytes waiting to be written from which reading pauses until they are. */
  static final long HIGH_WATER = 256 * 1024;

  @Override
  public void onText(WebSocket ws, String text) {
    echoed(ws, ws.sendText(text));
  }

  @Override
  public void onBinary(WebSocket ws, ByteBuffer data) {
    echoed(ws, ws.sendBinary(data));
  }

  private static void echoed(WebSocket ws, CompletableFuture<Void> sent) {
    if (!sent.isDone() && ws.queuedBytes() >= HIGH_WATER) {
      ws.pauseReadingUntilSent();
    }
    sent.whenComplete(
        (ok, e) -> {
          if (Futures.cause(e) instanceof SendQueueFullException && ws.isOpen()) {
            ws.close(CloseCode.POLICY_VIOLATION, "send queue full: read your echoes");
          }
        });
  }
}
