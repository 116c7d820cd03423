package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.transport.Acceptor;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a server connection speaks before it is a WebSocket: fed the bytes that arrive, it queues
 * its answers (HTTP responses, a 101 or an error) and reports an accepted upgrade; it keeps its own
 * clock through {@link #deadlineNanos()}. The transport only moves the bytes and keeps the time.
 * Two fronts: {@link HandshakeFront} (every request is an upgrade) and {@link HttpFront} (plain
 * routes beside WebSocket routes); {@code NioServer.newFront} picks one.
 *
 * <p>Not thread-safe: one connection, its loop's thread.
 */
interface UpgradeFront {

  /**
   * Feeds received bytes. All are consumed, except while the front's answers wait to be written: it
   * may then leave the next request in {@code in}, for the transport to feed again once the queue
   * has drained.
   *
   * @param in the bytes
   * @param nowNanos the current {@link System#nanoTime()}
   * @return the upgrade once accepted (its 101 response is then queued), or null
   */
  Upgrade receive(ByteBuffer in, long nowNanos);

  /**
   * The client closed its side: answers already queued are still written, then the socket closes.
   */
  void receiveEnd();

  /**
   * Returns how many bytes of memory the last {@link #receive} waits for (a request body on a spent
   * budget): it left the rest of its input unconsumed, to be fed again once {@link #memory()} has
   * room.
   *
   * @return bytes wanted, or 0
   */
  default long stalledFor() {
    return 0;
  }

  /**
   * Returns the connection's share of the memory budget, which request bodies are charged to.
   *
   * @return the account, or null when the front holds nothing for the budget
   */
  default MemoryBudget.Account memory() {
    return null;
  }

  /**
   * Returns when {@link #onTimeout} is due.
   *
   * @return a {@link System#nanoTime()} value, or {@link Long#MAX_VALUE} for none
   */
  long deadlineNanos();

  /**
   * Acts on an expired deadline (queues an answer, or marks the connection to close).
   *
   * @param nowNanos the current time
   */
  void onTimeout(long nowNanos);

  /**
   * Returns whether the connection must close once the queue is written.
   *
   * @return true after a rejection, a timeout or a request to close
   */
  boolean shouldClose();

  /**
   * Returns the upgrade request this front refused by the rules of RFC 6455 §4.2 or the Origin
   * policy (its answer queued, the connection closing), for the server to count.
   *
   * @return the refusal, or null
   */
  ServerHandshake.Rejected refusal();

  /**
   * Returns whether bytes wait to be written.
   *
   * @return true while the queue is not empty
   */
  boolean hasOutbound();

  /**
   * Puts the queued buffers into {@code dst} for a gathering write.
   *
   * @param dst where to put them
   * @param offset the first index to fill
   * @return how many were put
   */
  int gatherOutbound(ByteBuffer[] dst, int offset);

  /**
   * Reports bytes written from the gathered buffers.
   *
   * @param bytes how many
   */
  void written(long bytes);

  /**
   * Replaces the 101 the front queued for an accepted upgrade, before any of its bytes were
   * written: with a refusal (then {@code close}), or with a 101 the application rebuilt. Answers
   * queued before the upgrade's are still written first. On {@code close} the upgrade's extensions
   * are closed.
   *
   * @param upgrade the accepted upgrade
   * @param response the complete response to send in place of the 101
   * @param close whether the connection closes once it is written (a refusal)
   */
  void answer(Upgrade upgrade, ByteBuffer response, boolean close);

  /**
   * An accepted upgrade.
   *
   * @param accepted the handshake: the request, subprotocol, extensions and 101
   * @param received the bytes that came after the request head: the session's first bytes, valid
   *     until the next call to the front (the transport copies them if it must wait)
   * @param acceptor the route's acceptor, or null for the server's
   */
  record Upgrade(ServerHandshake.Accepted accepted, ByteBuffer received, Acceptor acceptor) {
    /**
     * Returns the negotiated extensions.
     *
     * @return the extensions, which the transport closes if the upgrade goes no further
     */
    List<Extension> extensions() {
      return accepted.extensions();
    }
  }
}
