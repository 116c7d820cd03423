package dev.wsjava;

import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.internal.http.Router;
import dev.wsjava.transport.Acceptor;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.HandshakeInfo;
import dev.wsjava.transport.Upgrades;
import dev.wsjava.transport.Verdict;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A server's handshake hook, and the acceptors of its WebSocket routes, which ask it: the one
 * place that turns a {@link HandshakeDecision} into the transport's {@link Verdict}. Set while the
 * server is built; read-only once it runs (its threads start after the builder set it).
 */
final class Hook {
  Function<HandshakeRequest, HandshakeDecision> sync;
  Function<HandshakeRequest, ? extends CompletionStage<HandshakeDecision>> async;
  /** The server's limits and counters; set by {@code start()}. */
  Serving serving;
  /** The server's hook, which a route's asks when it has no hook of its own; null on the server's. */
  private final Hook parent;
  /** The server, for the requests' {@code server()}; set by the builder. */
  ServerRef server;
  /** A route's own connection settings, or null for the server's; set by {@code start()}. */
  ConnectionConfig connectionConfig;

  /** The server's hook. */
  Hook() {
    this(null);
  }

  /**
   * A route's hook: its own decision if one is set, else the server's.
   *
   * @param parent the server's hook
   */
  Hook(Hook parent) {
    this.parent = parent;
  }

  /**
   * The acceptor of a route: makes the request view, asks the hook if there is one, and makes the
   * connection's socket with the attachment.
   */
  Acceptor acceptor(String route, BiFunction<HandshakeRequest, Object, WebSocketImpl> make) {
    Function<String, Map<String, String>> params = Router.pathParams(route);
    return transportInfo -> {
      Serving limits = serving;
      HandshakeInfo info = limits.fromClient(transportInfo);
      Verdict refused = limits.admit(info);
      if (refused != null) {
        return refused;
      }
      HandshakeRequest request =
          HandshakeRequest.of(info, params.apply(info.path())).servedBy(server);
      Function<HandshakeRequest, HandshakeDecision> s = sync;
      Function<HandshakeRequest, ? extends CompletionStage<HandshakeDecision>> a = async;
      if (s == null && a == null && parent != null) { // the route inherits the server's hook
        s = parent.sync;
        a = parent.async;
      }
      ConnectionConfig own = connectionConfig;
      if (s != null) {
        return verdict(s.apply(request), request, info, make, limits, own);
      }
      if (a != null) {
        CompletionStage<HandshakeDecision> stage = a.apply(request);
        if (stage == null) {
          return Upgrades.failed(null);
        }
        return new Verdict.Later(stage.thenApply(d -> verdict(d, request, info, make, limits, own)));
      }
      WebSocketImpl ws = make.apply(request, null);
      request.pack(); // what the open connection keeps
      ws.servedBy(limits, own);
      return new Verdict.Accept(ws, info.subprotocol(), dev.wsjava.Headers.empty());
    };
  }

  private static Verdict verdict(
      HandshakeDecision d,
      HandshakeRequest request,
      HandshakeInfo info,
      BiFunction<HandshakeRequest, Object, WebSocketImpl> make,
      Serving limits,
      ConnectionConfig own) {
    if (d == null) {
      return Upgrades.failed(null);
    }
    if (!d.isAccepted()) {
      limits.counters.rejected(ServerCounters.Reason.APPLICATION);
      Serving.rejected(info, d.status(), "rejected by the handshake hook");
      try {
        return new Verdict.Refuse(
            ServerHandshake.reject(d.status(), "refused by the handshake hook", d.headers(), d.body()));
      } catch (IllegalArgumentException e) {
        return Verdict.refuse(HttpStatus.INTERNAL_SERVER_ERROR, e.getMessage());
      }
    }
    String subprotocol = d.choosesSubprotocol() ? d.chosenSubprotocol() : info.subprotocol();
    WebSocketImpl ws = make.apply(request, d.attachment());
    request.pack(); // what the open connection keeps
    ws.servedBy(limits, own);
    return new Verdict.Accept(ws, subprotocol, d.headers(), d.declinesExtensions());
  }
}
