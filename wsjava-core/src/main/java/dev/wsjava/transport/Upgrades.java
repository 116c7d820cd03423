package dev.wsjava.transport;

import dev.wsjava.events.Loggers;
import dev.wsjava.extension.Extension;
import dev.wsjava.events.WsEvents;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The steps both server transports take between an accepted handshake and the 101: ask the
 * route's {@link Acceptor}, wait for a {@link Verdict.Later} within the handshake timeout, and turn
 * the verdict into the bytes to answer. Stateless.
 */
public final class Upgrades {
  private Upgrades() {}

  /**
   * What to do with an upgrade once decided.
   *
   * @param handler the connection's handler, or null when refused
   * @param subprotocol the subprotocol of the connection
   * @param replacement the response replacing the 101 the handshake queued, or null when that 101
   *     stands (the usual case: nothing to rebuild)
   * @param status 101, or the status of the refusal
   * @param reason why refused, for logs; null when served
   * @param declinesExtensions true when the connection runs with no extension: the caller closes
   *     the negotiated ones
   */
  public record Answer(
      ConnectionHandler handler,
      String subprotocol,
      ByteBuffer replacement,
      int status,
      String reason,
      boolean declinesExtensions) {

    /**
     * Returns whether the connection is refused.
     *
     * @return true when there is no handler
     */
    public boolean refused() {
      return handler == null;
    }
  }

  /**
   * Asks the acceptor; one that throws or returns nothing is a 500.
   *
   * @param acceptor the route's acceptor
   * @param info the handshake
   * @return its verdict
   */
  public static Verdict decide(Acceptor acceptor, HandshakeInfo info) {
    try {
      Verdict v = acceptor.decide(info);
      return v != null ? v : failed(null);
    } catch (RuntimeException e) {
      return failed(e);
    }
  }

  /**
   * The verdict for a decision that failed.
   *
   * @param cause what the hook threw, or null when it gave nothing
   * @return a 500 refusal
   */
  public static Verdict failed(Throwable cause) {
    Loggers.SERVER.log(System.Logger.Level.WARNING, "a handshake hook failed; answered 500", cause);
    rejectedEvent(HttpStatus.INTERNAL_SERVER_ERROR, "the handshake hook failed");
    return Verdict.refuse(
        HttpStatus.INTERNAL_SERVER_ERROR,
        cause == null ? "the handshake hook gave no decision" : "the handshake hook failed: " + cause);
  }

  /**
   * The verdict for a decision that took longer than the handshake timeout.
   *
   * @return a 503 refusal
   */
  public static Verdict late() {
    Loggers.SERVER.log(System.Logger.Level.WARNING, "a handshake hook did not decide in time; answered 503");
    rejectedEvent(HttpStatus.SERVICE_UNAVAILABLE, "the handshake hook did not decide in time");
    return Verdict.refuse(
        HttpStatus.SERVICE_UNAVAILABLE, "the handshake hook did not decide within the timeout");
  }

  private static void rejectedEvent(int status, String reason) {
    WsEvents.HandshakeRejected e = new WsEvents.HandshakeRejected();
    if (e.shouldCommit()) {
      e.status = status;
      e.reason = reason;
      e.commit();
    }
  }

  /**
   * Waits for a later verdict on the calling (virtual) thread.
   *
   * @param later the pending decision
   * @param timeoutNanos how long to wait
   * @return the verdict, {@link #late()} after the timeout, {@link #failed} when the stage failed
   */
  public static Verdict await(Verdict.Later later, long timeoutNanos) {
    CompletableFuture<Verdict> f = new CompletableFuture<>();
    later.stage().whenComplete((v, e) -> {
      if (e != null) {
        f.completeExceptionally(e);
      } else {
        f.complete(v);
      }
    });
    try {
      return settled(f.get(timeoutNanos, TimeUnit.NANOSECONDS), null);
    } catch (TimeoutException e) {
      return late();
    } catch (ExecutionException e) {
      return failed(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return late();
    }
  }

  /**
   * Returns a completed stage's verdict as one that can be answered: a failure, nothing, or
   * another {@link Verdict.Later} are a 500.
   *
   * @param v what the stage completed with
   * @param error what it failed with, or null
   * @return an {@link Verdict.Accept} or a {@link Verdict.Refuse}
   */
  public static Verdict settled(Verdict v, Throwable error) {
    if (error != null || v == null || v instanceof Verdict.Later) {
      return failed(error);
    }
    return v;
  }

  /**
   * Returns the settings an accepted connection runs with: its route's own, else the server's.
   *
   * @param answer an accepted answer
   * @param server the server's settings
   * @return the settings to make the connection with
   */
  public static ConnectionConfig config(Answer answer, ConnectionConfig server) {
    ConnectionConfig own = answer.handler().connectionConfig();
    return own != null ? own : server;
  }

  /**
   * The extensions a served connection runs with: the negotiated ones, or none when the answer
   * declines them, which are then closed here.
   *
   * @param answer a served answer
   * @param negotiated the handshake's extensions
   * @return the extensions to hand to the connection
   */
  public static List<Extension> extensions(Answer answer, List<Extension> negotiated) {
    if (!answer.declinesExtensions()) {
      return negotiated;
    }
    negotiated.forEach(Extension::close);
    return List.of();
  }

  /**
   * Turns a decided verdict into the answer for the accepted handshake: the 101 stands, is rebuilt
   * with the verdict's subprotocol and fields, or is replaced by the refusal. A subprotocol the
   * client did not offer, or a field the handshake owns, is a 500.
   *
   * @param verdict an {@link Verdict.Accept} or a {@link Verdict.Refuse}
   * @param handshake the accepted handshake
   * @return the answer
   * @throws IllegalArgumentException for a {@link Verdict.Later}
   */
  public static Answer answer(Verdict verdict, ServerHandshake.Accepted handshake) {
    return switch (verdict) {
      case Verdict.Refuse r ->
          new Answer(null, null, r.rejected().response(), r.rejected().status(), r.rejected().reason(), false);
      case Verdict.Accept a -> {
        boolean decline = a.declinesExtensions() && !handshake.extensions().isEmpty();
        if (Objects.equals(a.subprotocol(), handshake.subprotocol()) && a.headers().isEmpty() && !decline) {
          yield new Answer(a.handler(), a.subprotocol(), null, 101, null, false);
        }
        try {
          ServerHandshake.Accepted changed = handshake.with(a.subprotocol(), a.headers(), decline);
          yield new Answer(a.handler(), a.subprotocol(), changed.response(), 101, null, decline);
        } catch (IllegalArgumentException e) {
          yield answer(Verdict.refuse(HttpStatus.INTERNAL_SERVER_ERROR, e.getMessage()), handshake);
        }
      }
      case Verdict.Later l -> throw new IllegalArgumentException("wait for a later verdict first");
    };
  }
}
