package dev.wsjava;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
  /** The event loop that writes to the connection, or null: the publisher's thread does. */
  final java.util.concurrent.Executor loop;
  private final WebSocketImpl ws;
  private final Set<String> names = new HashSet<>(4); // guarded by this
  private ArrayDeque<Item> backlog; // made when the socket's window first fills
  private long backlogBytes; // queued and held: what the bound applies to (not the memory budget)
  private boolean waitingForDrain;
  private boolean fragmenting; // the application is sending a fragmented message: wait for its end
  private boolean gone; // closed: takes nothing more
  private boolean pumping; // pump() is running on the thread that holds this monitor
  /** It asked for resume tokens; set before the subscriber is published to other threads. */
  boolean wantsTokens;
  private boolean tokenDue; // a resume token is to be sent (Topics#tokenChanged)
  private boolean tokenRefreshing; // its refresh timer runs
  /** Live messages of topics it is catching up on, by topic; null while it catches up on none. */
  private HashMap<String, Held> holding;
  /**
   * Per topic, the id of the last message a recovery gave from the history: a live message of
   * that topic at or before it arrives late and was given already. Dropped at the first live
   * message after it (the live ones come in id order). Null while there is none.
   */
  private HashMap<String, String> givenUpTo;
  private Comparator<String> idOrder;

  /** Live messages held while a subscriber catches up on what it missed ({@link #hold}). */
  private static final class Held {
    final ArrayList<Item> items = new ArrayList<>();
    final ArrayList<String> ids = new ArrayList<>();
    boolean dropped; // one was dropped for the queue's bound: the subscriber gets the gap signal
  }

  TopicSubscriber(Topics topics, WebSocketImpl ws, Connection connection) {
    this.topics = topics;
    this.ws = ws;
    this.connection = connection;
    this.form = connection.sharedFrameForm();
    this.loop = connection.fanOutExecutor();
  }

  synchronized boolean add(String topic) {
    return !gone && names.add(topic);
  }

  synchronized boolean remove(String topic) {
    return names.remove(topic);
  }

  /** A resume token is due (topics changed); false when one already is. */
  synchronized boolean markTokenDue() {
    if (tokenDue || gone) {
      return false;
    }
    tokenDue = true;
    return true;
  }

  /** The topics for the token that is due, or null when none is; it is no longer due. */
  synchronized java.util.List<String> takeTokenDue() {
    if (!tokenDue || gone) {
      return null;
    }
    tokenDue = false;
    return new ArrayList<>(names);
  }

  /** True the first time: the token's refresh is to be started. */
  synchronized boolean startTokenRefresh() {
    boolean first = !tokenRefreshing;
    tokenRefreshing = true;
    return first;
  }

  boolean isOpen() {
    return connection.isOpen();
  }

  /**
   * Holds the live messages of {@code topic} from now on, until {@link #recovered} queues what the
   * subscriber missed before them.
   */
  synchronized void hold(String topic) {
    if (holding == null) {
      holding = new HashMap<>(4);
    }
    holding.put(topic, new Held());
  }

  /**
   * Ends {@link #hold}: queues what was missed, or the gap signal when {@code missed} is null or a
   * held message was dropped, then the held live messages after {@code last} (all of them after a
   * gap signal).
   *
   * @param missed the missed messages in order, or null for a gap
   * @param last the id of the last missed message (or the one it came back with when none)
   * @param order orders ids
   * @return true when it was given everything it missed
   */
  synchronized boolean recovered(
      String topic, Item[] missed, String last, Comparator<String> order) {
    Held held = holding == null ? null : holding.remove(topic);
    if (holding != null && holding.isEmpty()) {
      holding = null;
    }
    if (held == null || gone) {
      return false;
    }
    backlogBytes -= heldBytes(held);
    boolean whole = missed != null && !held.dropped;
    if (whole) {
      for (Item item : missed) {
        offer(item);
      }
      if (missed.length > 0) {
        if (givenUpTo == null) {
          givenUpTo = new HashMap<>(4);
        }
        givenUpTo.put(topic, last);
        idOrder = order;
      }
    } else {
      offer(topics.gapSignal(topic, last));
    }
    for (int i = 0; i < held.items.size(); i++) {
      if (!whole || order.compare(held.ids.get(i), last) > 0) {
        offer(held.items.get(i));
      }
    }
    return whole;
  }

  private static long heldBytes(Held held) {
    long n = 0;
    for (Item item : held.items) {
      n += item.size();
    }
    return n;
  }

  /**
   * Takes a message of {@code topic}: held while the subscriber catches up on that topic, else
   * {@link #offer(Item)}.
   *
   * @param flush whether the socket's write starts at once, or waits for the caller's {@link
   *     Connection#flushQueued()}
   * @param id the message's id, or null when it has none (no history: never held)
   * @return false when the subscriber is gone (closed)
   */
  synchronized boolean offer(Item item, String topic, String id, boolean flush) {
    if (id == null) {
      return offer(item, flush);
    }
    if (givenUpTo != null) {
      String upTo = givenUpTo.get(topic);
      if (upTo != null) {
        if (idOrder.compare(id, upTo) <= 0) {
          return true; // the recovery gave it from the history already
        }
        givenUpTo.remove(topic);
        if (givenUpTo.isEmpty()) {
          givenUpTo = null;
        }
      }
    }
    Held held;
    if (holding == null || (held = holding.get(topic)) == null) {
      return offer(item, flush);
    }
    if (gone) {
      return false;
    }
    held.items.add(item);
    held.ids.add(id);
    backlogBytes += item.size();
    if (backlogBytes > topics.maxQueuedBytes()) {
      if (topics.overflow() != Topics.Overflow.DROP_OLDEST) {
        overflowClose();
        return false;
      }
      while (backlogBytes > topics.maxQueuedBytes() && held.items.size() > 1) {
        backlogBytes -= held.items.remove(0).size();
        held.ids.remove(0);
        held.dropped = true;
        topics.dropped.increment();
      }
    }
    return true;
  }

  /**
   * Takes a message: to the socket if it has room and nothing waits here, else into the queue,
   * where the overflow policy applies.
   *
   * @return false when the subscriber is gone (closed)
   */
  synchronized boolean offer(Item item) {
    return offer(item, true);
  }

  /**
   * {@link #offer(Item)}, with the socket's write started at once or left to the caller's {@link
   * Connection#flushQueued()}.
   */
  private boolean offer(Item item, boolean flush) {
    if (gone) {
      return false;
    }
    if (backlog == null || backlog.isEmpty()) {
      int r = connection.offer(item.bytes(), item.type(), Topics.SOCKET_WINDOW, flush);
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
      int r = connection.offer(item.bytes(), item.type(), Topics.SOCKET_WINDOW, true);
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

  /**
   * Closes a subscriber whose queue passed its bound, at once: its queue is dropped, its close
   * frame (1008 or 1013) goes out behind what its socket already holds (at most {@link
   * Topics#SOCKET_WINDOW} and a message), and if that has not been written to the socket within
   * {@link Topics.Builder#overflowCloseTimeout} (a peer that does not read), the connection is
   * reset: a close frame could not reach it, and an orderly close would leave the bytes it does
   * not read in the kernel for minutes.
   */
  private void overflowClose() {
    dropAll();
    int code = Topics.closeCode(topics.overflow());
    // Not on the publisher's thread: a blocking transport may wait to write the close frame.
    Thread.ofVirtual().name("wsjava-topic-close").start(() ->
        ws.close(code, "subscriber too slow: topic queue over " + topics.maxQueuedBytes() + " bytes"));
    topics.afterOverflowCloseTimeout(() -> {
      if (!connection.drained().isDone()) { // done: written, or the socket is closed
        connection.reset();
      }
    });
  }

  /** Takes nothing more and drops (and counts) what waits, held messages included. */
  private void dropAll() {
    gone = true;
    if (backlog != null) {
      topics.dropped.add(backlog.size());
    }
    if (holding != null) {
      for (Held held : holding.values()) {
        topics.dropped.add(held.items.size());
      }
    }
    backlog = null;
    holding = null;
    backlogBytes = 0;
  }

  /** The connection closed: leaves every topic; what waits is dropped. */
  void connectionClosed() {
    String[] left;
    synchronized (this) {
      gone = true;
      left = names.toArray(new String[0]);
      names.clear();
      dropAll();
    }
    for (String topic : left) {
      topics.remove(this, topic);
    }
  }
}
