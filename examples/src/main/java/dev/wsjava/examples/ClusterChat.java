package dev.wsjava.examples;

import dev.wsjava.Topics;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import dev.wsjava.cluster.nats.NatsBackplane;
import dev.wsjava.cluster.redis.RedisBackplane;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.WebSocketConfig;

/**
 * A chat room that spans every server started against the same Redis (or NATS): a message sent to
 * any of them reaches the members of all. The room is one topic; each server encodes a message
 * once for its members (deflate is negotiated without context takeover so that one compressed
 * frame serves everyone) and receives the other servers' messages from the engine once.
 *
 * <p>With Redis the room keeps a history of its last 1,000 messages: each message a member
 * receives starts with a line {@code "<id> chat"} ({@link Topics.Envelope#LINE}), and a member
 * that reconnects, to any of the servers, with {@code ?since=<id>} of the last one it saw first
 * receives what it missed, in order, then the live messages; when the id is too old it receives
 * {@code "- chat"} and should reload. NATS keeps no history: a member that comes back with
 * {@code ?since=} always receives {@code "- chat"}.
 *
 * <p>Run two (with {@code redis-server} on 6379):
 *
 * <pre>
 * examples/run ClusterChat 8081 redis://127.0.0.1:6379 &amp;
 * examples/run ClusterChat 8082 redis://127.0.0.1:6379
 * </pre>
 *
 * then connect one client to ws://localhost:8081/chat and one to ws://localhost:8082/chat.
 */
public final class ClusterChat {
  private ClusterChat() {}

  /**
   * Starts one server of the cluster and runs until interrupted.
   *
   * @param args the port (default 8080) and the Redis URI or NATS URL (default
   *     redis://127.0.0.1:6379)
   * @throws Exception when the port is taken
   */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    String engine = args.length > 1 ? args[1] : "redis://127.0.0.1:6379";
    Topics.Backplane backplane = engine.startsWith("nats://")
        ? NatsBackplane.builder().url(engine).build()
        : RedisBackplane.builder().uri(engine).history(1000).build();
    Topics topics = Topics.builder()
        .backplane(backplane)
        .overflow(Topics.Overflow.CLOSE_POLICY_VIOLATION) // a reader far behind is closed, 1008
        .build();
    WebSocketServer server = WebSocketServer.builder()
        .bind("localhost", port)
        .config(WebSocketConfig.builder()
            .deflate(PerMessageDeflate.builder().serverNoContextTakeover(true).build())
            .build())
        .websocket("/chat", new WebSocketListener() {
          @Override public void onOpen(WebSocket ws) {
            String since = ws.request().queryParam("since"); // the last id it saw, if it comes back
            if (since == null) {
              topics.subscribe(ws, "chat");
            } else {
              topics.subscribe(ws, "chat", since);
            }
          }

          @Override public void onText(WebSocket ws, String text) { topics.publishText("chat", text); }
        })
        .start();
    System.out.println("chat at ws://localhost:" + server.port() + "/chat, shared through " + engine);
    Thread.currentThread().join();
  }
}
