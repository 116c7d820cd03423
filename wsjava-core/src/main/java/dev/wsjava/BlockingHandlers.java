package dev.wsjava;


/** Runs a {@link WebSocketHandler} on a virtual thread per connection, and closes after it. */
final class BlockingHandlers {
  private static final System.Logger LOG = dev.wsjava.events.Loggers.HANDLER;

  private BlockingHandlers() {}

  /** Returns the connection's handler; the code starts once the connection is open. */
  static WebSocketImpl start(
      WebSocketHandler handler, String path, HandshakeRequest request, Object attachment) {
    return new WebSocketImpl(
        path,
        ws ->
            Thread.ofVirtual()
                .name("wsjava-handler " + path)
                .start(() -> run(handler, ws)),
        request,
        attachment);
  }

  private static void run(WebSocketHandler handler, WebSocketImpl ws) {
    try {
      handler.handle(ws);
      if (ws.isOpen()) {
        ws.close(CloseCode.NORMAL, "");
      }
    } catch (WebSocketClosedException closed) {
      // the peer closed while the handler was reading: nothing more to do
    } catch (Exception | Error e) {
      if (ws.isOpen()) {
        ws.close(CloseCode.INTERNAL_ERROR, "internal error");
      }
      LOG.log(System.Logger.Level.WARNING, "WebSocket handler for " + ws.path() + " failed", e);
    }
  }
}
