package dev.wsjava;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * One connection's side of {@link Topics}: the topics it is in and its queue of topic messages
 * not yet handed to its socket. Messages go straight to the socket's write queue while that holds
 * less than {@link Topics#SOCKET_WINDOW}; past it they wait here, bounded by {@link
 * Topics.Builder#maxQueuedBytes}, and move on as the socket drains ({@link Connection#drained()}).
 *
 * <p>Thread-safe: guarded by its own monitor. Lock order: a topic's lock, then this, then the
 * connection's.
 */
final class TopicSubscriber {
  /**
   * A message for this subscriber: an encoded frame shared with others ({@code type} null), or a
   * payload the connection encodes itself.
   */
  record Item(java.nio.ByteBuffer bytes, Opcode type, int size) {}

  final Topics topics;
  final Connection connection;
  /** The wire form ({@link Connection#sharedFrameForm()}), or null: encodes its own frames. */
  final Object form;
  private final WebSocketImpl ws;
  private final Set<String> names = new HashSet<>(4); // guarded by this
  private ArrayDeque<Item> backlog; // made when the socket's window first fills
  private long backlogBytes;
  private boolean waitingForDrain;
  private boolean fragmenting; // the application is sending a fragmented message: wait for its end
  private boolean gone; // closed: takes nothing more
  private boolean pumping; // pump() is running on the thread that holds this monitor

  TopicSubscriber(Topics topics, WebSocketImpl ws, Connection connection) {
    this.topics = topics;
    this.ws = ws;
    this.connection = connection;
    this.form = connection.sharedFrameForm();
  }

  synchronized boolean add(String topic) {
    return !gone && names.add(topic);
  }

  synchronized boolean remove(String topic) {
    return names.remove(topic);
  }

  boolean isOpen() {
    return connection.isOpen();
  }

  /**
   * Takes a message: to the socket if it has room and nothing waits here, else into the queue,
   * where the overflow policy applies.
   *
   * @return false when the subscriber is gone (closed)
   */
  synchronized boolean offer(Item item) {
    if (gone) {
      return false;
    }
    if (backlog == null || backlog.isEmpty()) {
      int r = connection.offer(item.bytes(), item.type(), Topics.SOCKET_WINDOW);
      if (r == Connection.OFFERED) {
        topics.delivered.increment();
        return true;
      }
      if (r == Connection.OFFER_NOT_OPEN || gone) {
        return false;
      }
      fragmenting = r == Connection.OFFER_FRAGMENTING;
    }
    if (backlog == null) {
      backlog = new ArrayDeque<>();
    }
    backlog.addLast(item);
    backlogBytes += item.size();
    if (backlogBytes > topics.maxQueuedBytes()) {
      if (topics.overflow() == Topics.Overflow.DROP_OLDEST) {
        // The newest stays even when it alone is past the bound: a subscriber always gets the latest.
        while (backlogBytes > topics.maxQueuedBytes() && backlog.size() > 1) {
          backlogBytes -= backlog.pollFirst().size();
          topics.dropped.increment();
        }
      } else {
        overflowClose();
        return false;
      }
    }
    awaitDrain();
    return true;
  }

  /** Moves waiting messages to the socket while it has room. */
  synchronized void pump() {
    waitingForDrain = false;
    fragmenting = false;
    if (pumping) {
      // Re-entered from the loop below (a flush on this thread completed a drain): that loop
      // goes on, and must not see an item taken from under it.
      return;
    }
    pumping = true;
    try {
      pumpLoop();
    } finally {
      pumping = false;
    }
  }

  private void pumpLoop() {
    if (gone || backlog == null) {
      return;
    }
    while (backlog != null && !backlog.isEmpty()) {
      Item item = backlog.peekFirst();
      int r = connection.offer(item.bytes(), item.type(), Topics.SOCKET_WINDOW);
      if (r == Connection.OFFER_NOT_OPEN || backlog == null) {
        return; // closed, perhaps from within the offer
      }
      if (r != Connection.OFFERED) {
        fragmenting = r == Connection.OFFER_FRAGMENTING;
        awaitDrain();
        return;
      }
      backlog.pollFirst();
      backlogBytes -= item.size();
      topics.delivered.increment();
    }
  }

  /**
   * Pumps again once the socket's queue drains. While the application sends a message in
   * fragments, its final fragment pumps instead ({@link WebSocketImpl}).
   */
  private void awaitDrain() {
    if (!waitingForDrain && !fragmenting && !backlog.isEmpty()) {
      waitingForDrain = true;
      connection.drained().whenComplete((ok, e) -> {
        if (e == null) {
          pump();
        }
      });
    }
  }

  private void overflowClose() {
    gone = true;
    topics.dropped.add(backlog.size());
    backlog = null;
    backlogBytes = 0;
    int code = Topics.closeCode(topics.overflow());
    // Not on the publisher's thread: a blocking transport may wait to write the close frame.
    Thread.ofVirtual().name("wsjava-topic-close").start(() ->
        ws.close(code, "subscriber too slow: topic queue over " + topics.maxQueuedBytes() + " bytes"));
  }

  /** The connection closed: leaves every topic; what waits is dropped. */
  void connectionClosed() {
    String[] left;
    synchronized (this) {
      gone = true;
      left = names.toArray(new String[0]);
      names.clear();
      if (backlog != null) {
        topics.dropped.add(backlog.size());
      }
      backlog = null;
      backlogBytes = 0;
    }
    for (String topic : left) {
      topics.remove(this, topic);
    }
  }
}
