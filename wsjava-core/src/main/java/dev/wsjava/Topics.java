package dev.wsjava;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Utf8;
import dev.wsjava.protocol.Utf8Validator;
import dev.wsjava.session.SharedFrameEncoder;
import dev.wsjava.transport.Connection;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * Named topics that server-side WebSockets subscribe to, and a publish that reaches every
 * subscriber (publish/subscribe fan-out).
 *
 * <pre>{@code
 * Topics topics = Topics.builder().build();
 * // in onOpen:   topics.subscribe(ws, "room:1");
 * // anywhere:    topics.publishText("room:1", "hello");
 * }</pre>
 *
 * <p><b>Frame once.</b> A message is encoded once per distinct wire form and the same bytes are
 * queued on every subscriber: all subscribers without extensions share one frame, and all whose
 * permessage-deflate keeps no context ({@code server_no_context_takeover}) and has the same
 * window and level share one compressed frame. A subscriber whose compressor keeps context (the
 * default of RFC 7692) costs one compression of its own per message. For routes that are mostly
 * topics, configure {@code PerMessageDeflate.builder().serverNoContextTakeover(true)}: compression
 * then costs once per message for all subscribers (each message is compressed on its own, a few
 * percent larger for small similar messages), or leave deflate off.
 *
 * <p><b>Threads.</b> A publication is encoded on the publisher's thread and written to each
 * subscriber by that subscriber's own event loop (NIO), so a publisher on a large topic uses every
 * loop; the blocking transport's subscribers are written to by the publisher's thread.
 *
 * <p><b>Order and duplicates.</b> Publications to one topic are ordered (concurrent publishers
 * to one topic take turns), and every subscriber receives them in that order, each at most once.
 * Subscribing twice to a topic is one subscription. Messages of different topics are not ordered
 * against each other.
 *
 * <p><b>Slow subscribers.</b> Each subscriber has a queue of at most {@link
 * Builder#maxQueuedBytes} of topic messages not yet handed to its socket, beside at most {@link
 * #SOCKET_WINDOW} bytes in the socket's own write queue. A publication never waits for a
 * subscriber: the moment a queue passes its bound, the {@link Overflow} policy drops that
 * subscriber's oldest messages (and counts them in {@link #dropped()}) or closes it with 1008 or
 * 1013; a subscriber that does not take its close frame within {@link
 * Builder#overflowCloseTimeout} is reset. The others are not affected.
 *
 * <p><b>Memory.</b> Topic queues are not charged to the server's memory budget ({@link
 * WebSocketConfig.Builder#memoryBudget}), so a room of subscribers that do not read can never
 * make the budget stop reading the publisher or anyone else: the per-subscriber bound is the only
 * limit on them. What they hold is shared: the frames (one per wire form and message) are held
 * once however many queues hold them, and each queued message costs a subscriber one reference.
 * Size {@code maxQueuedBytes} times the number of subscribers as the worst case.
 *
 * <p><b>Lifetime.</b> A connection leaves all its topics when it closes. A connection belongs to
 * one {@code Topics} at a time. Only connections of this library's servers and clients can
 * subscribe; a client's subscriptions work the same but its frames are encoded one by one (a
 * client masks each frame).
 *
 * <p><b>Cluster.</b> With a {@link Backplane} (for example Redis, in the module {@code
 * wsjava-cluster-redis}), a publication reaches the subscribers of every node that shares it.
 *
 * <p>Thread-safe: every method may be called from any thread, including listener callbacks.
 */
public final class Topics implements AutoCloseable {
  /**
   * Bytes a subscriber's socket write queue may hold before its topic messages wait in its own
   * queue (where {@link Overflow#DROP_OLDEST} can still drop them): 64 KiB keeps a socket busy.
   */
  public static final long SOCKET_WINDOW = 64 * 1024;

  /** The default {@link Builder#maxQueuedBytes}: 1 MiB, several seconds of a busy chat. */
  public static final long DEFAULT_MAX_QUEUED_BYTES = 1 << 20;

  /**
   * The default {@link Builder#overflowCloseTimeout}: 2 s. A subscriber closed for its queue gets
   * its close frame behind at most {@link #SOCKET_WINDOW} and a message; one that reads at even
   * 32 KiB/s takes that in time, and one that reads nothing is cut (TCP reset) before it has held
   * its socket and its descriptor for long.
   */
  public static final Duration DEFAULT_OVERFLOW_CLOSE_TIMEOUT = Duration.ofSeconds(2);

  /**
   * How long a subscriber coming back with an id waits for the history by default: long enough
   * for a history read across a busy network, short enough that a client whose node lost its
   * engine hears of the gap before a user would call the page frozen.
   */
  public static final Duration DEFAULT_RECOVERY_TIMEOUT = Duration.ofSeconds(5);

  /** What happens to a subscriber whose queue is full. */
  public enum Overflow {
    /**
     * Drops the subscriber's oldest queued messages until the new one fits, counting each in
     * {@link #dropped()}: right for feeds where only the latest matters.
     */
    DROP_OLDEST,
    /** Closes the subscriber with 1008 (policy violation); its queue is dropped and counted. */
    CLOSE_POLICY_VIOLATION,
    /**
     * Closes the subscriber with 1013 (try again later), telling it to reconnect; its queue is
     * dropped and counted.
     */
    CLOSE_TRY_AGAIN_LATER
  }

  /**
   * Carries publications between the nodes of a cluster. {@link Topics} calls it; an engine (Redis,
   * NATS) implements it in a module of its own. Delivery between nodes is whatever the engine
   * gives: at most once over Redis pub/sub.
   *
   * <p>An implementation must be thread-safe and must not block: {@link #subscribe}, {@link
   * #unsubscribe} and {@link #publish} are called while topic state is locked.
   */
  public interface Backplane extends AutoCloseable {
    /**
     * Starts carrying messages for {@code topics}: messages other nodes publish go to {@link
     * Topics#publishLocal}. Called once, by {@link Builder#build()}.
     *
     * @param topics this node's topics
     */
    void start(Topics topics);

    /**
     * This node has its first subscriber to {@code topic}: receive its messages from now on.
     *
     * @param topic the topic
     */
    void subscribe(String topic);

    /**
     * This node's last subscriber to {@code topic} left: its messages are no longer needed.
     *
     * @param topic the topic
     */
    void unsubscribe(String topic);

    /**
     * Sends a publication made on this node to the other nodes (not back to this one).
     *
     * @param topic the topic
     * @param text whether the payload is a text message (UTF-8) or binary
     * @param payload the message; read only, not kept after the call returns
     */
    void publish(String topic, boolean text, ByteBuffer payload);

    /** Stops: unsubscribes and releases connections. */
    @Override
    void close();

    /**
     * Whether this backplane keeps a history: it gives every publication an id (one order per
     * topic, the same on every node), delivers it to every node including the one that published
     * it through {@link Topics#publishLocal(String, String, boolean, ByteBuffer)}, and can replay
     * what a subscriber missed ({@link #history}). Default false.
     *
     * @return true when it keeps a history
     */
    default boolean keepsHistory() {
      return false;
    }

    /**
     * Reads the publications to {@code topic} after {@code lastId}, for a subscriber that comes
     * back. Called after {@link #subscribe} (or while subscribed): the future must complete only
     * once this node receives the topic's live messages, so that nothing falls between the
     * history and the live stream. Only called when {@link #keepsHistory()}.
     *
     * @param topic the topic
     * @param lastId the id of the last message the subscriber saw, as the client sent it
     * @return the publications after {@code lastId} in order; null when {@code lastId} is not in
     *     the history (too old, or never an id): the subscriber missed messages
     */
    default CompletableFuture<List<Entry>> history(String topic, String lastId) {
      return CompletableFuture.completedFuture(null);
    }

    /**
     * Orders two ids this backplane gave to publications of one topic.
     *
     * @param a an id
     * @param b an id
     * @return negative, zero or positive as {@code a} comes before, is, or comes after {@code b}
     */
    default int compareIds(String a, String b) {
      throw new UnsupportedOperationException("this backplane keeps no history");
    }

    /**
     * One publication read from a history.
     *
     * @param id its id
     * @param text whether the payload is UTF-8 text or binary
     * @param payload the message
     */
    record Entry(String id, boolean text, ByteBuffer payload) {}
  }

  /**
   * How a subscriber learns the id of each message when the backplane keeps a history: what it
   * receives is made from the message and its id once per message, then fanned out frame-once
   * like any other. The default, {@link #LINE}, puts one line before the payload.
   */
  public interface Envelope {
    /**
     * The default: a first line {@code "<id> <topic>\n"} before the payload, in a frame of the
     * message's own type; and the text {@code "- <topic>\n"} for a gap. Ids hold no space, so a
     * client reads the id up to the first space and the topic up to the first newline; so while
     * this envelope carries ids, a topic name holding a newline is refused at subscribe and
     * publish ({@link IllegalArgumentException}).
     */
    Envelope LINE = new Envelope() {
      @Override
      public ByteBuffer message(String topic, String id, ByteBuffer payload) {
        byte[] head = (id + " " + topic + "\n").getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(head.length + payload.remaining())
            .put(head).put(payload.duplicate()).flip();
      }

      @Override
      public String gap(String topic, String lastId) {
        return "- " + topic + "\n";
      }
    };

    /**
     * Makes what subscribers receive for one message.
     *
     * @param topic the topic
     * @param id the message's id
     * @param payload the message (read only; do not keep it)
     * @return the payload of the frame subscribers receive, of the message's type: valid UTF-8
     *     for a text message; a buffer of its own (the topics keep it while subscribers wait)
     */
    ByteBuffer message(String topic, String id, ByteBuffer payload);

    /**
     * Makes the text message a subscriber receives, in place of what it missed, when it cannot be
     * given everything after the id it came back with (too old for the history, or no history).
     *
     * @param topic the topic
     * @param lastId the id it came back with
     * @return the text of the signal
     */
    String gap(String topic, String lastId);

    /**
     * Makes the text message that hands a subscriber its resume token (see {@link
     * Topics#resume(WebSocket)}). The default, for every envelope, is {@code "+ <token>\n"}: no
     * id is {@code "+"}, so a client that reads {@link #LINE} tells it from a message by its
     * first two characters.
     *
     * @param token the token, of URL-safe characters
     * @return the text of the message
     */
    default String resumeToken(String token) {
      return "+ " + token + "\n";
    }
  }

  /** The query parameter that carries the resume token on a reconnect. */
  static final String RESUME_PARAM = "resume";
  /** The query parameter that carries the client's offsets on a reconnect. */
  static final String OFFSETS_PARAM = "offsets";

  private final long maxQueuedBytes;
  private final Overflow overflow;
  private final Backplane backplane;
  private final boolean history;
  private final Envelope envelope;
  private final Duration recoveryTimeout;
  private final Duration overflowCloseTimeout;
  private final BiConsumer<Duration, Runnable> timer;
  private final ResumeTokens resume; // null: no resume tokens
  private final ConcurrentHashMap<String, Topic> topics = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Object, SharedFrameEncoder> encoders = new ConcurrentHashMap<>();
  private final LongAdder published = new LongAdder();
  final LongAdder delivered = new LongAdder();
  final LongAdder dropped = new LongAdder();
  private final AtomicLong framesEncoded = new AtomicLong(); // for tests: frame once

  private Topics(Builder b) {
    this.maxQueuedBytes = b.maxQueuedBytes;
    this.overflow = b.overflow;
    this.backplane = b.backplane;
    this.history = b.backplane != null && b.backplane.keepsHistory();
    this.envelope = b.envelope;
    this.recoveryTimeout = b.recoveryTimeout;
    this.overflowCloseTimeout = b.overflowCloseTimeout;
    this.timer = b.timer;
    this.resume = b.resumeKey == null
        ? null : new ResumeTokens(b.resumeKey, b.resumeWindow, b.millis);
  }

  /**
   * Starts building topics.
   *
   * @return a builder with the defaults
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * One topic: its subscribers, and the lock that orders its publications. A join or a leave
   * changes only what it must: the members of the subscriber's own group (an array copied with
   * one more or one fewer), and the wire forms only when the subscriber brings a new one or was the one that
   * stood for its form; so subscribing N connections costs N array copies, not N regroupings of
   * everyone (which made 10,000 subscribes take seconds, with the loops that accept busy doing it).
   */
  private static final class Topic {
    final ReentrantLock lock = new ReentrantLock();
    /** Copied on change (under the lock and the map's bin lock); publications read it locked. */
    TopicSubscriber[] subscribers = new TopicSubscriber[0];
    /** The subscribers by the thread that writes to them; the group without a loop last. */
    TopicGroup[] groups = new TopicGroup[0];
    /** The distinct shared wire forms among the subscribers, each with one that has it. */
    TopicSubscriber[] forms = new TopicSubscriber[0];

    /** Adds a subscriber; call with the lock held. */
    void add(TopicSubscriber s) {
      subscribers = append(subscribers, s);
      int g = groupOf(s.loop);
      if (g >= 0) {
        groups[g].members = append(groups[g].members, s);
      } else {
        TopicGroup added = new TopicGroup(s.loop, new TopicSubscriber[] {s});
        int at = s.loop == null || groups.length == 0 || groups[groups.length - 1].loop != null
            ? groups.length : groups.length - 1; // before the group without a loop
        TopicGroup[] grown = new TopicGroup[groups.length + 1];
        System.arraycopy(groups, 0, grown, 0, at);
        grown[at] = added;
        System.arraycopy(groups, at, grown, at + 1, groups.length - at);
        groups = grown;
      }
      if (s.form != null && formOf(s.form) < 0) {
        forms = append(forms, s);
      }
    }

    /** Removes a subscriber; false when it was not one. Call with the lock held. */
    boolean remove(TopicSubscriber s) {
      TopicSubscriber[] shrunk = without(subscribers, s);
      if (shrunk == subscribers) {
        return false;
      }
      subscribers = shrunk;
      // What the group was handed before keeps its own members. An emptied group stays (one per
      // loop at most): a member that comes back must not get a new group that overtakes the old.
      TopicGroup group = groups[groupOf(s.loop)];
      group.members = without(group.members, s);
      int f = s.form == null ? -1 : formOf(s.form);
      if (f >= 0 && forms[f] == s) { // it stood for its form: find another, or drop the form
        TopicSubscriber other = null;
        for (TopicSubscriber o : subscribers) {
          if (s.form.equals(o.form)) {
            other = o;
            break;
          }
        }
        if (other != null) {
          forms = forms.clone();
          forms[f] = other;
        } else {
          forms = without(forms, s);
        }
      }
      return true;
    }

    private int groupOf(java.util.concurrent.Executor loop) {
      for (int i = 0; i < groups.length; i++) {
        if (groups[i].loop == loop) {
          return i;
        }
      }
      return -1;
    }

    private int formOf(Object form) {
      for (int i = 0; i < forms.length; i++) {
        if (forms[i].form.equals(form)) {
          return i;
        }
      }
      return -1;
    }

    private static TopicSubscriber[] append(TopicSubscriber[] a, TopicSubscriber s) {
      TopicSubscriber[] grown = Arrays.copyOf(a, a.length + 1);
      grown[a.length] = s;
      return grown;
    }

    /** {@code a} without {@code s}, or {@code a} itself when {@code s} is not in it. */
    private static TopicSubscriber[] without(TopicSubscriber[] a, TopicSubscriber s) {
      for (int i = 0; i < a.length; i++) {
        if (a[i] == s) {
          TopicSubscriber[] shrunk = new TopicSubscriber[a.length - 1];
          System.arraycopy(a, 0, shrunk, 0, i);
          System.arraycopy(a, i + 1, shrunk, i, a.length - i - 1);
          return shrunk;
        }
      }
      return a;
    }
  }

  /**
   * One publication ready for every subscriber: the payload (for those that encode their own) and
   * one frame per shared wire form of the topic, encoded once on the publisher's thread.
   */
  record Prepared(
      TopicSubscriber.Item message, Object[] forms, TopicSubscriber.Item[] frames,
      String topic, String id) {
    TopicSubscriber.Item itemFor(TopicSubscriber s) {
      if (s.form == null) {
        return message;
      }
      for (int i = 0; i < forms.length; i++) {
        if (forms[i].equals(s.form)) {
          return frames[i];
        }
      }
      throw new IllegalStateException("a subscriber's wire form was not prepared: " + s.form);
    }

    /**
     * Queues this message on each of {@code members}.
     *
     * @param flush whether each write starts at once, or waits for the caller's flush
     */
    void deliver(TopicSubscriber[] members, boolean flush) {
      for (TopicSubscriber s : members) {
        s.offer(itemFor(s), topic, id, flush);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Subscriptions

  /**
   * Subscribes a connection to a topic. Nothing happens when it already is, or when it is no
   * longer open.
   *
   * @param ws a connection made by a {@link WebSocketServer} or {@link WebSocketClient}
   * @param topic the topic's name
   * @return true when the connection was not subscribed before and now is
   * @throws IllegalArgumentException when {@code ws} is not this library's, or belongs to other
   *     {@code Topics}; or when the name holds a newline and ids reach subscribers through {@link
   *     Envelope#LINE}
   */
  public boolean subscribe(WebSocket ws, String topic) {
    checkName(topic);
    TopicSubscriber s = subscriberOf(ws);
    if (s != null && s.add(topic) && join(s, topic)) {
      tokenChanged(s);
      return true;
    }
    return false;
  }

  /**
   * Subscribes a connection that comes back to a topic, with the id of the last message it saw
   * (see {@link Envelope}): it first receives, in order, every message published after that one
   * (on any node) and then the live ones, none twice. When that is not possible (the id is older
   * than the backplane's history holds, or not an id, or there is no history) it receives the
   * {@linkplain Envelope#gap gap signal} instead of the missed messages, then the live ones.
   * Messages published meanwhile wait in its queue (bounded as usual; when {@link
   * Overflow#DROP_OLDEST} drops one of them, it gets the gap signal). A history that has not
   * answered within {@link Builder#recoveryTimeout} counts as none.
   *
   * @param ws a connection made by a {@link WebSocketServer} or {@link WebSocketClient}
   * @param topic the topic's name
   * @param lastId the id of the last message it saw
   * @return completed with true when it was given everything it missed, false when it was sent
   *     the gap signal, or was already subscribed, or closed meanwhile
   * @throws IllegalArgumentException when {@code ws} is not this library's, or belongs to other
   *     {@code Topics}
   */
  public CompletableFuture<Boolean> subscribe(WebSocket ws, String topic, String lastId) {
    checkName(topic);
    Objects.requireNonNull(lastId, "lastId");
    TopicSubscriber s = subscriberOf(ws);
    return s == null
        ? CompletableFuture.completedFuture(false) : recover(s, topic, lastId);
  }

  /**
   * Resumes every subscription of a connection that comes back with a resume token, on any node
   * that shares this one's key (see {@link Builder#resume}): the token, in the query parameter
   * {@code resume}, names the topics it was subscribed to; the query parameter {@code offsets}
   * holds, per topic, the first line ({@code "<id> <topic>"}) of the last message it saw there,
   * one per line. Each topic is then subscribed as {@link #subscribe(WebSocket, String, String)}
   * does with that id: the missed messages in order, then the live ones, none twice; a topic
   * without an offset, or whose offset the history no longer holds, gets the gap signal. Call it
   * in {@code onOpen} before subscribing the connection to anything else: a topic it is already
   * subscribed to is not recovered. It then receives a new token.
   *
   * <p>A token that is missing, not signed with this key, or older than the window resumes
   * nothing: the future completes with false at once, and the application subscribes the
   * connection as a new one.
   *
   * @param ws a connection made by a {@link WebSocketServer}
   * @return completed with true when a token was presented and every topic it names got
   *     everything missed; false otherwise
   * @throws IllegalStateException when these topics were built without {@link Builder#resume}
   */
  public CompletableFuture<Boolean> resume(WebSocket ws) {
    if (resume == null) {
      throw new IllegalStateException("resume tokens are off: set Topics.Builder.resume(key, window)");
    }
    HandshakeRequest request = ws.request();
    List<String> names = request == null ? null : resume.verify(request.queryParam(RESUME_PARAM));
    TopicSubscriber s = names == null ? null : subscriberOf(ws);
    if (s == null) {
      return CompletableFuture.completedFuture(false);
    }
    java.util.Map<String, String> offsets = ResumeTokens.offsets(request.queryParam(OFFSETS_PARAM));
    CompletableFuture<Boolean> all = CompletableFuture.completedFuture(true);
    for (String topic : names) {
      all = all.thenCombine(recover(s, topic, offsets.get(topic)), (a, b) -> a && b);
    }
    tokenChanged(s); // even with no topics: the client's next reconnect needs a fresh token
    return all;
  }

  /**
   * Subscribes {@code s} to {@code topic}, first giving it what was published after {@code
   * lastId}; the gap signal when {@code lastId} is null or cannot be served.
   */
  private CompletableFuture<Boolean> recover(TopicSubscriber s, String topic, String lastId) {
    if (!s.add(topic)) {
      return CompletableFuture.completedFuture(false);
    }
    s.hold(topic); // live messages wait until what it missed is queued before them
    if (!join(s, topic)) {
      return CompletableFuture.completedFuture(false);
    }
    tokenChanged(s);
    CompletableFuture<List<Backplane.Entry>> missed = history && lastId != null
        ? within(recoveryTimeout, backplane.history(topic, lastId))
        : CompletableFuture.completedFuture(null);
    return missed.handle((entries, e) -> {
      if (e != null || entries == null) {
        return s.recovered(topic, null, null, null);
      }
      TopicSubscriber.Item[] items = new TopicSubscriber.Item[entries.size()];
      String last = lastId;
      for (int i = 0; i < items.length; i++) {
        Backplane.Entry m = entries.get(i);
        ByteBuffer wrapped = envelope.message(topic, m.id(), m.payload().asReadOnlyBuffer());
        items[i] = new TopicSubscriber.Item(
            wrapped, m.text() ? Opcode.TEXT : Opcode.BINARY, wrapped.remaining());
        last = m.id();
      }
      return s.recovered(topic, items, last, backplane::compareIds);
    });
  }

  /**
   * The subscriptions of {@code s} changed: when it asked for tokens (its handshake request has
   * the query parameter {@code resume}, empty at first), it gets a token that names them, once per turn of
   * its event loop however many changed in that turn (a handler that subscribes to ten topics in
   * {@code onOpen} sends one token), and again every half window while it stays open.
   */
  private void tokenChanged(TopicSubscriber s) {
    if (!s.wantsTokens || !s.markTokenDue()) {
      return;
    }
    if (s.loop != null) {
      s.loop.execute(() -> sendToken(s));
    } else {
      sendToken(s);
    }
  }

  private void sendToken(TopicSubscriber s) {
    List<String> names = s.takeTokenDue();
    if (names == null || !s.isOpen()) {
      return;
    }
    String token = resume.issue(names);
    if (token != null) {
      ByteBuffer text = Utf8.encode(envelope.resumeToken(token));
      s.offer(new TopicSubscriber.Item(text, Opcode.TEXT, text.remaining()));
    }
    if (s.startTokenRefresh()) {
      refreshToken(s);
    }
  }

  private void refreshToken(TopicSubscriber s) {
    timer.accept(resume.window().dividedBy(2), () -> {
      if (s.isOpen()) {
        tokenChanged(s);
        refreshToken(s);
      }
    });
  }

  /**
   * The history's {@code answer}, or null (the gap signal) when it has not come after {@code
   * bound}: a backplane cut off from its engine cannot answer until the engine is back, and the
   * subscriber's live messages wait meanwhile. A late answer is ignored.
   */
  private CompletableFuture<List<Backplane.Entry>> within(
      Duration bound, CompletableFuture<List<Backplane.Entry>> answer) {
    if (answer.isDone()) {
      return answer;
    }
    CompletableFuture<List<Backplane.Entry>> first = new CompletableFuture<>();
    answer.whenComplete((entries, e) -> first.complete(e == null ? entries : null));
    timer.accept(bound, () -> first.complete(null));
    return first;
  }

  /**
   * Rejects a name the {@link Envelope#LINE} envelope cannot carry: its first line ends at the
   * first newline, so a topic holding one would be read as another topic and a payload.
   */
  private void checkName(String topic) {
    Objects.requireNonNull(topic, "topic");
    if (history && envelope == Envelope.LINE && topic.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a topic name holds no newline with Envelope.LINE (its"
          + " first line ends at the first newline); rename the topic or set an envelope of your"
          + " own: " + topic.replace("\n", "\\n"));
    }
  }

  /** The gap signal of {@link Envelope#gap}, as a message the subscriber encodes. */
  TopicSubscriber.Item gapSignal(String topic, String lastId) {
    ByteBuffer text = Utf8.encode(envelope.gap(topic, lastId));
    return new TopicSubscriber.Item(text, Opcode.TEXT, text.remaining());
  }

  /** Adds {@code s} to {@code topic}'s subscribers; false when it closed meanwhile. */
  private boolean join(TopicSubscriber s, String topic) {
    topics.compute(topic, (name, t) -> {
      Topic topicNow = t != null ? t : new Topic();
      topicNow.lock.lock();
      try {
        topicNow.add(s);
      } finally {
        topicNow.lock.unlock();
      }
      if (t == null && backplane != null) {
        backplane.subscribe(name);
      }
      return topicNow;
    });
    if (!s.isOpen()) {
      // It closed while joining: its close may have run before it was in the topic.
      s.remove(topic);
      remove(s, topic);
      return false;
    }
    return true;
  }

  /**
   * Unsubscribes a connection from a topic.
   *
   * @param ws the connection
   * @param topic the topic's name
   * @return true when it was subscribed
   */
  public boolean unsubscribe(WebSocket ws, String topic) {
    TopicSubscriber sub = ws instanceof WebSocketImpl i ? i.subscriber() : null;
    if (sub == null || sub.topics != this || !sub.remove(topic)) {
      return false;
    }
    remove(sub, topic);
    tokenChanged(sub);
    return true;
  }

  /** Takes {@code s} out of {@code topic}'s subscribers; drops the topic when it was the last. */
  void remove(TopicSubscriber s, String topic) {
    topics.computeIfPresent(topic, (name, t) -> {
      t.lock.lock();
      try {
        if (!t.remove(s) || t.subscribers.length > 0) {
          return t;
        }
      } finally {
        t.lock.unlock();
      }
      if (backplane != null) {
        backplane.unsubscribe(name);
      }
      return null;
    });
  }

  private TopicSubscriber subscriberOf(WebSocket ws) {
    if (!(ws instanceof WebSocketImpl impl)) {
      throw new IllegalArgumentException("only a WebSocket made by wsjava can subscribe: " + ws);
    }
    Connection c = impl.connection();
    if (c == null) {
      return null;
    }
    TopicSubscriber s = impl.subscriber();
    if (s == null) {
      synchronized (impl) {
        s = impl.subscriber();
        if (s == null) {
          s = new TopicSubscriber(this, impl, c);
          HandshakeRequest request = impl.request();
          s.wantsTokens = resume != null && request != null
              && request.queryParams().containsKey(RESUME_PARAM);
          impl.subscriber(s);
        }
      }
    }
    if (s.topics != this) {
      throw new IllegalArgumentException("this WebSocket is subscribed through other Topics");
    }
    return s;
  }

  // ---------------------------------------------------------------------------------------------
  // Publishing

  /**
   * Publishes a text message to every subscriber of {@code topic} (on every node, with a
   * backplane). Returns at once: the message is queued, never waited for.
   *
   * @param topic the topic
   * @param text the message
   * @return the subscribers on this node it was handed to; 0 with a
   *     backplane that keeps a history, which delivers it here too once it has given it an id
   * @throws IllegalArgumentException when the text holds an unpaired surrogate
   */
  public int publishText(String topic, CharSequence text) {
    return publish(topic, true, Utf8.encode(text), true);
  }

  /**
   * Publishes a binary message to every subscriber of {@code topic} (on every node, with a
   * backplane).
   *
   * @param topic the topic
   * @param data the message, position to limit; copied before this returns
   * @return the subscribers on this node it was handed to; 0 with a backplane that keeps a
   *     history (see {@link #publishText})
   */
  public int publishBinary(String topic, ByteBuffer data) {
    ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data.duplicate()).flip();
    return publish(topic, false, copy, true);
  }

  /**
   * Publishes to this node's subscribers only: what a {@link Backplane} calls with a message
   * another node published.
   *
   * @param topic the topic
   * @param text whether the payload is UTF-8 text (the caller checked it) or binary
   * @param payload the message; copied before this returns
   * @return the subscribers it was handed to
   */
  public int publishLocal(String topic, boolean text, ByteBuffer payload) {
    ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload.duplicate()).flip();
    return publish(topic, text, copy, false);
  }

  /**
   * Publishes a message that has an id to this node's subscribers only: what a {@link Backplane}
   * that {@linkplain Backplane#keepsHistory() keeps a history} calls with every publication (this
   * node's own too). Subscribers receive it through the {@link Envelope}.
   *
   * @param topic the topic
   * @param id its id, in the backplane's order of the topic
   * @param text whether the payload is UTF-8 text (the caller checked it) or binary
   * @param payload the message; not kept after the call returns
   * @return the subscribers it was handed to
   */
  public int publishLocal(String topic, String id, boolean text, ByteBuffer payload) {
    Objects.requireNonNull(id, "id");
    ByteBuffer wrapped = envelope.message(topic, id, payload.asReadOnlyBuffer());
    if (text && !Utf8Validator.isValid(wrapped.duplicate())) {
      throw new IllegalArgumentException("the envelope made invalid UTF-8 of a text message");
    }
    return publish(topic, text, wrapped, false, id);
  }

  private int publish(String topic, boolean text, ByteBuffer payload, boolean local) {
    return publish(topic, text, payload, local, null);
  }

  private int publish(String topic, boolean text, ByteBuffer payload, boolean local, String id) {
    checkName(topic);
    published.increment();
    Opcode type = text ? Opcode.TEXT : Opcode.BINARY;
    ByteBuffer readOnly = payload.asReadOnlyBuffer();
    Topic t = topics.get(topic);
    int reached = 0;
    if (local && history) {
      // Every node, this one too, delivers it once the backplane has given it its id and place.
      if (t != null) {
        t.lock.lock();
        try {
          backplane.publish(topic, text, readOnly);
        } finally {
          t.lock.unlock();
        }
      } else {
        backplane.publish(topic, text, readOnly);
      }
      return 0;
    }
    if (t != null) {
      t.lock.lock();
      try {
        reached = fanOut(t, type, readOnly, topic, id);
        if (local && backplane != null) {
          backplane.publish(topic, text, readOnly.duplicate());
        }
      } finally {
        t.lock.unlock();
      }
    } else if (local && backplane != null) {
      backplane.publish(topic, text, readOnly.duplicate());
    }
    return reached;
  }

  /**
   * Hands one message to every subscriber, encoded once per wire form here; the writes run on
   * each subscriber's own event loop (one task per loop and message, so a publisher on a large
   * topic uses every loop), or here for subscribers without one. Each loop runs its tasks in
   * order, so each subscriber still gets the topic's messages in publication order.
   *
   * @return the subscribers it was handed to
   */
  private int fanOut(Topic t, Opcode type, ByteBuffer payload, String topic, String id) {
    TopicSubscriber[] withForm = t.forms;
    Object[] forms = new Object[withForm.length];
    TopicSubscriber.Item[] frames = new TopicSubscriber.Item[withForm.length];
    for (int i = 0; i < withForm.length; i++) {
      forms[i] = withForm[i].form;
      ByteBuffer frame = encode(withForm[i], forms[i], type, payload);
      frames[i] = new TopicSubscriber.Item(frame, null, frame.remaining());
    }
    Prepared p = new Prepared(new TopicSubscriber.Item(payload, type, payload.remaining()),
        forms, frames, topic, id);
    for (TopicGroup g : t.groups) {
      g.hand(p);
    }
    return t.subscribers.length;
  }

  private ByteBuffer encode(TopicSubscriber s, Object form, Opcode type, ByteBuffer payload) {
    SharedFrameEncoder encoder = encoders.get(form);
    if (encoder == null) {
      encoder = encoders.computeIfAbsent(form, f -> s.connection.sharedFrameEncoder());
    }
    framesEncoded.incrementAndGet();
    return encoder.encode(type, payload);
  }

  // ---------------------------------------------------------------------------------------------
  // Counters

  /**
   * Returns how many connections on this node are subscribed to {@code topic}.
   *
   * @param topic the topic
   * @return the count, 0 for a topic nobody subscribes to
   */
  public int subscribers(String topic) {
    Topic t = topics.get(topic);
    if (t == null) {
      return 0;
    }
    t.lock.lock();
    try {
      return t.subscribers.length;
    } finally {
      t.lock.unlock();
    }
  }

  /**
   * Returns how many messages were published through this object (including those other nodes
   * published and a backplane delivered here).
   *
   * @return the count since it was built
   */
  public long published() {
    return published.sum();
  }

  /**
   * Returns how many messages were handed to subscribers' sockets to write (one per subscriber
   * per message).
   *
   * @return the count since it was built
   */
  public long delivered() {
    return delivered.sum();
  }

  /**
   * Returns how many messages were dropped for slow subscribers (by {@link Overflow}, or queued
   * when a subscriber was closed).
   *
   * @return the count since it was built
   */
  public long dropped() {
    return dropped.sum();
  }

  /** How many times a frame was encoded for sharing (tests check frame-once with it). */
  long framesEncoded() {
    return framesEncoded.get();
  }

  long maxQueuedBytes() {
    return maxQueuedBytes;
  }

  Overflow overflow() {
    return overflow;
  }

  /** Runs {@code check} once the {@link Builder#overflowCloseTimeout} has passed. */
  void afterOverflowCloseTimeout(Runnable check) {
    timer.accept(overflowCloseTimeout, check);
  }

  /** Closes the backplane, if any; subscriptions stay until their connections close. */
  @Override
  public void close() {
    if (backplane != null) {
      backplane.close();
    }
  }

  /** The close code an {@link Overflow} closes with. */
  static int closeCode(Overflow o) {
    return o == Overflow.CLOSE_POLICY_VIOLATION
        ? CloseCode.POLICY_VIOLATION
        : CloseCode.TRY_AGAIN_LATER;
  }

  /** Configures {@link Topics}. Not thread-safe. */
  public static final class Builder {
    private long maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES;
    private Overflow overflow = Overflow.DROP_OLDEST;
    private Backplane backplane;
    private Envelope envelope = Envelope.LINE;
    private Duration recoveryTimeout = DEFAULT_RECOVERY_TIMEOUT;
    private Duration overflowCloseTimeout = DEFAULT_OVERFLOW_CLOSE_TIMEOUT;
    private BiConsumer<Duration, Runnable> timer = (delay, task) ->
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS).execute(task);
    private byte[] resumeKey;
    private Duration resumeWindow;
    private java.util.function.LongSupplier millis = System::currentTimeMillis;

    private Builder() {}

    /**
     * Gives every subscribed connection that asks for it (its handshake request has the query
     * parameter {@code resume}, empty on its first connection) a resume token, so that one that comes back within
     * {@code window}, to any node that has the same key, resumes all its subscriptions with
     * {@link Topics#resume(WebSocket)} (docs/TOPICS.md, "Resuming every subscription"). A token is
     * sent, as the text of {@link Envelope#resumeToken}, after each turn in which the connection's
     * topics changed and every half window; it names at most 64 topics (a connection in more gets
     * none) and is signed with {@code key} (HMAC-SHA256), so the nodes need no shared state but
     * the key. Default off.
     *
     * @param key at least 16 bytes, the same on every node; copied
     * @param window how long a token stays valid, more than zero; a client that stays away
     *     longer subscribes again as a new one
     * @return this builder
     */
    public Builder resume(byte[] key, Duration window) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(window, "window");
      if (key.length < 16) {
        throw new IllegalArgumentException("a resume key has at least 16 bytes, was " + key.length);
      }
      if (window.isNegative() || window.isZero()) {
        throw new IllegalArgumentException("the resume window must be more than zero: " + window);
      }
      this.resumeKey = key.clone();
      this.resumeWindow = window;
      return this;
    }

    /** The wall clock of the resume tokens, in milliseconds; tests drive it by hand. */
    Builder clock(java.util.function.LongSupplier millis) {
      this.millis = Objects.requireNonNull(millis, "millis");
      return this;
    }

    /**
     * Sets how long a subscriber that comes back with an id (see {@link #subscribe(WebSocket,
     * String, String)}) waits for the backplane's history; default {@link
     * #DEFAULT_RECOVERY_TIMEOUT}. Past it, it receives the gap signal and then the live messages,
     * which were held meanwhile: a backplane cut off from its engine cannot answer until the
     * engine is back, and the subscriber should not wait that long in silence.
     *
     * @param timeout more than zero
     * @return this builder
     */
    public Builder recoveryTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("recoveryTimeout must be more than zero, was " + timeout);
      }
      this.recoveryTimeout = timeout;
      return this;
    }

    /**
     * Sets how long a subscriber closed by {@link Overflow#CLOSE_POLICY_VIOLATION} or {@link
     * Overflow#CLOSE_TRY_AGAIN_LATER} has for its socket to take its close frame (behind at most
     * {@link #SOCKET_WINDOW} and a message) before the connection is reset (SO_LINGER 0, then
     * closed): a peer that does not read could never see a close frame; default {@link
     * #DEFAULT_OVERFLOW_CLOSE_TIMEOUT}.
     *
     * @param timeout more than zero
     * @return this builder
     */
    public Builder overflowCloseTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(
            "overflowCloseTimeout must be more than zero, was " + timeout);
      }
      this.overflowCloseTimeout = timeout;
      return this;
    }

    /** Runs the recovery and overflow-close timeouts; tests fire them by hand. */
    Builder timer(BiConsumer<Duration, Runnable> timer) {
      this.timer = Objects.requireNonNull(timer, "timer");
      return this;
    }

    /**
     * Sets how subscribers receive each message's id when the backplane keeps a history; default
     * {@link Envelope#LINE}. Without a history, messages reach subscribers as they were published.
     *
     * @param envelope the envelope
     * @return this builder
     */
    public Builder envelope(Envelope envelope) {
      this.envelope = Objects.requireNonNull(envelope, "envelope");
      return this;
    }

    /**
     * Sets the most bytes of topic messages one subscriber may have waiting, beyond {@link
     * #SOCKET_WINDOW} in its socket's write queue; default {@link #DEFAULT_MAX_QUEUED_BYTES}.
     *
     * @param bytes at least 1
     * @return this builder
     */
    public Builder maxQueuedBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxQueuedBytes must be at least 1, was " + bytes);
      }
      this.maxQueuedBytes = bytes;
      return this;
    }

    /**
     * Sets what happens to a subscriber whose queue is full; default {@link
     * Overflow#DROP_OLDEST}.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder overflow(Overflow policy) {
      this.overflow = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Shares topics with other nodes through {@code backplane}; default none (this node only).
     * The topics start it when built and close it when closed.
     *
     * @param backplane the engine, for example Redis
     * @return this builder
     */
    public Builder backplane(Backplane backplane) {
      this.backplane = Objects.requireNonNull(backplane, "backplane");
      return this;
    }

    /**
     * Builds the topics (and starts the backplane, if any).
     *
     * @return the topics
     */
    public Topics build() {
      Topics t = new Topics(this);
      if (backplane != null) {
        backplane.start(t);
      }
      return t;
    }
  }
}
