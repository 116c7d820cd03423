package dev.wsjava.cli;

import dev.wsjava.CloseCodes;
import dev.wsjava.SendQueueFullException;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code /echo} route: sends every message straight back, text as text and binary as binary.
 * A client that sends faster than it reads its echoes fills its send queue; it is closed with 1008
 * rather than have echoes dropped silently. {@code connect --echo} extends it to learn how the
 * connection closed.
 */
class EchoListener implements WebSocketListener {
  @Override
  public void onText(WebSocket ws, String text) {
    closeWhenFull(ws, ws.sendText(text));
  }

  @Override
  public void onBinary(WebSocket ws, ByteBuffer data) {
    closeWhenFull(ws, ws.sendBinary(data));
  }

  private static void closeWhenFull(WebSocket ws, CompletableFuture<Void> sent) {
    sent.whenComplete(
        (ok, e) -> {
          if (Futures.cause(e) instanceof SendQueueFullException && ws.isOpen()) {
            ws.close(CloseCodes.POLICY_VIOLATION, "send queue full: read your echoes");
          }
        });
  }
}
