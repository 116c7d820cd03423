package dev.wsjava.cluster.nats;

import dev.wsjava.Topics;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link Topics.Backplane} over core NATS: the nodes that share one NATS server (or cluster)
 * share their topics. Each node subscribes to a NATS subject per topic it has subscribers for,
 * receives each message once and fans it out locally. The connection is made with {@code noEcho},
 * so NATS does not send a node its own publications back (it delivered them locally already).
 *
 * <pre>{@code
 * Topics topics = Topics.builder()
 *     .backplane(NatsBackplane.builder().url("nats://127.0.0.1:4222").build())
 *     .build();
 * }</pre>
 *
 * <p><b>Outages.</b> Core NATS delivers at most once. When the server restarts or the network
 * drops, the node reconnects by itself (every {@link Builder#reconnectDelay}, without end) and
 * the client subscribes to its subjects again. Messages published on other nodes meanwhile are
 * lost for this node: it counts them in {@link #missed()} when the next message of that
 * publisher on that topic arrives (each message carries a sequence number per publisher and
 * topic). Publications made on this node while it is disconnected reach
 * its own subscribers only, and are counted in {@link #publishFailures()}: they are not handed to
 * the client's buffer while it reconnects, so nothing arrives late and out of order. After a
 * reconnect, a check restarts a connection whose client does not write again (counted in {@link
 * #writerRestarts()}).
 *
 * <p><b>History.</b> By default this backplane keeps none ({@link #keepsHistory()} is false): a
 * subscriber that comes back with the id of the last message it saw receives the gap signal of
 * {@link Topics.Envelope}, exactly as on a single node, and reloads its state. With {@link
 * Builder#history(int)} (JetStream, {@code nats-server -js}) it keeps the last N messages of each
 * topic in one stream, whose sequence numbers are the ids: every node, the publishing one too,
 * receives each topic through an ordered JetStream consumer, so all deliver one order, and a
 * subscriber that comes back gets what it missed from the stream (see docs/TOPICS.md).
 *
 * <p>Subjects: {@code <prefix><topic>}, the topic escaped so that any name is one valid subject
 * token: letters, digits, {@code -} and {@code _} stand for themselves, every other UTF-8 octet is
 * written {@code %XX}, and the empty name is {@code %}. Wire format of a message: one octet (1 =
 * text, 0 = binary), the publisher's 16-octet node id, an 8-octet epoch, an 8-octet sequence
 * number within it, then the payload.
 *
 * <p>Thread-safe.
 */
public final class NatsBackplane implements Topics.Backplane {
  /**
   * How often the client's writer is checked, and how long a flush may take before the writer
   * counts as stuck: a second, far above a PING's round trip, and short beside an outage.
   */
  private static final Duration WRITER_CHECK = Duration.ofSeconds(1);

  private final String url;
  private final String prefix;
  private final Duration reconnectDelay;
  /** The idle heartbeat of the topics' consumers; null: the client library's (5 s). */
  private final Duration consumerHeartbeat;
  private final int history; // 0: core NATS, no history
  private final String stream; // the JetStream stream's name, with a history
  private volatile io.nats.client.JetStream js;
  private volatile io.nats.client.JetStreamManagement jsm;
  /** With a history: what this node receives of each topic it has subscribers for. */
  private final ConcurrentHashMap<String, Feed> feeds = new ConcurrentHashMap<>();
  /** With a history: how many times the stream was read for missed messages (tests count). */
  final LongAdder streamReads = new LongAdder();
  private final Sequences sequences = new Sequences();
  /** The NATS subscription of each topic this node has subscribers for. */
  private final ConcurrentHashMap<String, io.nats.client.Subscription> subjects =
      new ConcurrentHashMap<>();
  private final LongAdder received = new LongAdder();
  private final LongAdder publishFailures = new LongAdder();
  private final LongAdder disconnects = new LongAdder();
  private volatile Connection connection;
  private volatile ScheduledExecutorService watchdog;
  private final LongAdder writerRestarts = new LongAdder();
  private volatile Dispatcher dispatcher;
  private volatile Topics topics;
  /** Completed when the connection first drops (tests wait for it). */
  final CompletableFuture<Void> disconnected = new CompletableFuture<>();

  private NatsBackplane(Builder b) {
    this.url = b.url;
    this.prefix = b.prefix;
    this.reconnectDelay = b.reconnectDelay;
    this.history = b.history;
    this.consumerHeartbeat = b.consumerHeartbeat;
    this.stream = b.prefix.replaceAll("[^A-Za-z0-9_-]", "_") + "history";
  }

  /**
   * Starts building a backplane.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Connects to NATS.
   *
   * @throws UncheckedIOException when the server cannot be reached now (later outages are
   *     reconnected by themselves)
   */
  @Override
  public void start(Topics topics) {
    this.topics = topics;
    Options options = Options.builder()
        .server(url)
        .noEcho()
        .maxReconnects(-1)
        .reconnectWait(reconnectDelay)
        .connectionListener(this::connectionEvent)
        .errorListener(new io.nats.client.ErrorListener() { // the default one prints; we count
          @Override
          public void messageDiscarded(Connection c, io.nats.client.Message m) {
            publishFailures.increment();
          }
        })
        .build();
    try {
      connection = Nats.connect(options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to NATS at " + url + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting to NATS at " + url, e);
    }
    dispatcher = connection.createDispatcher();
    if (history > 0) {
      startStream();
    }
    ScheduledExecutorService w = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "wsjava-nats-watchdog");
      t.setDaemon(true);
      return t;
    });
    watchdog = w;
    w.scheduleWithFixedDelay(this::checkWriter, WRITER_CHECK.toMillis(), WRITER_CHECK.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * Checks that the client still writes, after each reconnect and every {@link #WRITER_CHECK}: a
   * flush (a PING that the server answers) must complete within that time; when it does not, the
   * connection is restarted. jnats 2.25.1 can leave its writer reading the queue of a reconnect that is over (a
   * race between its reconnecting thread and its writer; nats.java issue 1522): the connection
   * then receives but never sends again, and this node would stay cut off from the others.
   */
  private void checkWriter() {
    Connection c = connection;
    if (c == null || c.getStatus() != Connection.Status.CONNECTED) {
      return; // the next reconnect checks again
    }
    try {
      c.flush(WRITER_CHECK);
    } catch (TimeoutException stuck) {
      writerRestarts.increment();
      try {
        c.forceReconnect(); // checked again once reconnected
      } catch (IOException | RuntimeException e) {
        // the client goes on reconnecting by itself
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException closedOrDisconnected) {
      // the next reconnect checks again
    }
  }

  private void connectionEvent(Connection c, ConnectionListener.Events event) {
    if (event == ConnectionListener.Events.DISCONNECTED) {
      disconnects.increment();
      disconnected.complete(null);
    } else if (event == ConnectionListener.Events.RECONNECTED) {
      ScheduledExecutorService w = watchdog;
      if (w != null && !w.isShutdown()) {
        w.execute(this::checkWriter);
      }
    }
  }

  /** Makes (or updates) the stream that keeps the last {@code history} messages of each topic. */
  private void startStream() {
    io.nats.client.api.StreamConfiguration config = io.nats.client.api.StreamConfiguration.builder()
        .name(stream)
        .subjects(prefix + ">")
        .maxMessagesPerSubject(history)
        .storageType(io.nats.client.api.StorageType.File)
        .build();
    try {
      jsm = connection.jetStreamManagement();
      js = connection.jetStream();
      try {
        jsm.addStream(config);
      } catch (io.nats.client.JetStreamApiException exists) {
        jsm.updateStream(config); // made before, perhaps with another bound
      }
    } catch (IOException | io.nats.client.JetStreamApiException e) {
      throw new IllegalStateException("cannot make the JetStream stream " + stream + " on " + url
          + " (is the server started with -js?): " + e.getMessage(), e);
    }
  }

  @Override
  public boolean keepsHistory() {
    return history > 0;
  }

  /**
   * Reads what {@code topic} got after {@code lastId} (a stream sequence number), once this
   * node's consumer of the topic is made: what the stream stores after that point reaches this
   * node live, so nothing falls between. Answered from the latest messages this node keeps of
   * the topic when they reach back to the id; otherwise the stream is read once for the topic,
   * however many subscribers come back with ids at once, and what it gives is kept for them all.
   * Null when the stream no longer holds the message right after {@code lastId} (the first one it
   * holds of the topic is later), or the id is not a number.
   */
  @Override
  public CompletableFuture<List<Topics.Backplane.Entry>> history(String topic, String lastId) {
    long after;
    try {
      after = Long.parseLong(lastId);
    } catch (NumberFormatException e) {
      return CompletableFuture.completedFuture(null);
    }
    Feed feed = feeds.get(topic);
    if (feed == null || after < 0) {
      return CompletableFuture.completedFuture(null);
    }
    return feed.consumer.thenCompose(sub -> feed.missedAfter(after));
  }

  private static final java.util.concurrent.Executor HISTORY_READERS =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("wsjava-nats-history").factory());

  /**
   * With a history: this node's ordered consumer of one topic and the messages it delivered,
   * made when the node's first subscriber to the topic joins and dropped when the last leaves (a
   * later subscriber gets a new one: what an old consumer still delivers goes to its own feed).
   * Thread-safe.
   */
  private final class Feed {
    final String topic;
    final Recent recent = new Recent(Math.min(history, Recent.MOST));
    /**
     * Set when the topic's last subscriber here left: what the consumer still delivers (it is
     * stopped once it is made) is neither kept nor delivered; a later subscriber has a new feed.
     */
    volatile boolean closed;
    /** The consumer, once JetStream has made it; set by {@link #start}. */
    volatile CompletableFuture<io.nats.client.JetStreamSubscription> consumer;
    /** The read of the stream in flight, for ids from {@link #readingAfter} on; guarded by this. */
    private CompletableFuture<Void> reading;
    private long readingAfter;

    Feed(String topic) {
      this.topic = topic;
    }

    /**
     * Makes the consumer off the caller's thread (requests to the server, under locks). It starts
     * right after the stream's last message as it is now, not at "new": an ordered consumer that
     * the client library remakes (a missed heartbeat, a lost consumer) before it delivered
     * anything is remade from its first configuration, and "new" would then skip what was stored
     * in between.
     */
    Feed start() {
      consumer = CompletableFuture.supplyAsync(() -> {
        try {
          long last = jsm.getStreamInfo(stream).getStreamState().getLastSequence();
          io.nats.client.api.ConsumerConfiguration.Builder config =
              io.nats.client.api.ConsumerConfiguration.builder()
                  .deliverPolicy(io.nats.client.api.DeliverPolicy.ByStartSequence)
                  .startSequence(last + 1);
          if (consumerHeartbeat != null) {
            config.idleHeartbeat(consumerHeartbeat);
          }
          return js.subscribe(subject(topic), dispatcher, m -> receiveStored(this, m), false,
              io.nats.client.PushSubscribeOptions.builder().ordered(true)
                  .configuration(config.build()).build());
        } catch (IOException | io.nats.client.JetStreamApiException e) {
          throw new IllegalStateException("cannot consume " + topic + " from " + stream, e);
        }
      }, HISTORY_READERS);
      return this;
    }

    /**
     * What came after {@code after}: from the kept messages when they reach back to it;
     * otherwise one read of the stream from the oldest id asked for, which every subscriber
     * coming back meanwhile with that id or a later one waits for, and which the kept messages
     * then reach back to. A node that was just started keeps nothing older than its consumer, so
     * without this each of thousands of subscribers coming back to it would read the stream on
     * its own (two lookups and an ephemeral consumer each), and many would pass the recovery
     * timeout and get the gap signal. When the read cannot all be kept (more than {@link
     * Recent#MOST} messages) a subscriber whose id is older than what was kept reads the stream
     * on its own.
     */
    CompletableFuture<List<Topics.Backplane.Entry>> missedAfter(long after) {
      List<Topics.Backplane.Entry> known = recent.after(after);
      if (known != null) {
        return CompletableFuture.completedFuture(known);
      }
      CompletableFuture<Void> wait;
      synchronized (this) {
        if (reading == null || readingAfter > after) {
          CompletableFuture<Void> read = new CompletableFuture<>();
          reading = read;
          readingAfter = after;
          HISTORY_READERS.execute(() -> readOnce(read, after));
        }
        wait = reading;
      }
      return wait.thenCompose(read -> {
        List<Topics.Backplane.Entry> now = recent.after(after);
        return now != null
            ? CompletableFuture.completedFuture(now)
            : CompletableFuture.supplyAsync(() -> read(subject(topic), after), HISTORY_READERS);
      });
    }

    private void readOnce(CompletableFuture<Void> done, long after) {
      try {
        List<Topics.Backplane.Entry> missed = read(subject(topic), after);
        if (missed != null) {
          recent.addOlder(after, missed);
        }
      } finally {
        synchronized (this) {
          if (reading == done) {
            reading = null;
          }
        }
        done.complete(null);
      }
    }
  }

  /**
   * Reads from the stream the messages of {@code subject} after {@code after}, up to the last
   * one it holds as the read begins. Null when the stream no longer holds the one right after
   * (the first one it holds is later), or did not answer in time.
   */
  private List<Topics.Backplane.Entry> read(String subject, long after) {
    streamReads.increment();
    try {
      io.nats.client.api.MessageInfo first;
      io.nats.client.api.MessageInfo last;
      try {
        first = jsm.getFirstMessage(stream, subject);
        last = jsm.getLastMessage(stream, subject);
      } catch (io.nats.client.JetStreamApiException none) {
        return null; // the stream holds nothing of the topic: what it missed is gone
      }
      if (first.getSeq() > after) {
        return null; // trimmed past it
      }
      List<Topics.Backplane.Entry> missed = new ArrayList<>();
      if (after >= last.getSeq()) {
        return missed;
      }
      // One ordered consumer from the id on streams what was missed (flow-controlled), instead of
      // a request per message: a hundred clients back at once after a node died each miss many.
      io.nats.client.JetStreamSubscription sub = js.subscribe(subject,
          io.nats.client.PushSubscribeOptions.builder().ordered(true)
              .configuration(io.nats.client.api.ConsumerConfiguration.builder()
                  .deliverPolicy(io.nats.client.api.DeliverPolicy.ByStartSequence)
                  .startSequence(after + 1).build())
              .build());
      try {
        while (true) {
          io.nats.client.Message m = sub.nextMessage(HISTORY_READ);
          if (m == null) {
            return null; // the stream did not send what it holds in time: a gap
          }
          long seq = m.metaData().streamSequence();
          if (seq > last.getSeq()) {
            break; // stored after the read began: it comes live
          }
          byte[] data = m.getData();
          if (data != null && data.length >= 1) {
            missed.add(new Topics.Backplane.Entry(Long.toString(seq), data[0] == 1,
                ByteBuffer.wrap(data, 1, data.length - 1)));
          }
          if (seq == last.getSeq()) {
            break;
          }
        }
      } finally {
        try {
          sub.unsubscribe();
        } catch (IllegalStateException closed) {
          // closing
        }
      }
      return missed;
    } catch (IOException | io.nats.client.JetStreamApiException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** How long a history read waits for the next stored message before it calls it a gap. */
  private static final Duration HISTORY_READ = Duration.ofSeconds(5);

  @Override
  public int compareIds(String a, String b) {
    return Long.compare(Long.parseLong(a), Long.parseLong(b));
  }

  private void receiveStored(Feed feed, io.nats.client.Message m) {
    byte[] data = m.getData();
    if (data == null || data.length < 1 || !m.isJetStream() || feed.closed) {
      return; // not ours, or a consumer being stopped: a later subscriber has its own
    }
    received.increment();
    long seq = m.metaData().streamSequence();
    feed.recent.add(seq, new Topics.Backplane.Entry(Long.toString(seq), data[0] == 1,
        ByteBuffer.wrap(data, 1, data.length - 1)));
    Topics t = topics;
    if (t != null) {
      t.publishLocal(feed.topic, Long.toString(seq), data[0] == 1,
          ByteBuffer.wrap(data, 1, data.length - 1));
    }
  }

  /**
   * The last messages of one topic that this node knows, every one of the topic's messages after
   * a point ({@link #after} answers for ids from there on): those its ordered consumer delivered
   * (an ordered consumer has no gaps), and in front of them what a read of the stream gave for a
   * subscriber coming back ({@link #addOlder}). So a client resuming here gets what it missed
   * without a JetStream request: asking the stream costs two lookups and an ephemeral consumer,
   * which a few thousand clients back at once pay in seconds. Thread-safe (guarded by itself).
   */
  static final class Recent {
    /** At most this many messages a topic (fewer when the history is shorter). */
    static final int MOST = 1024;

    /** Ascending sequence numbers and their messages, in a ring from {@link #head}. */
    private final long[] seqs;
    private final Topics.Backplane.Entry[] entries;
    private int head;
    private int size;
    /**
     * Every message of the topic numbered above this is kept (or still coming from the
     * consumer); MAX_VALUE while nothing is known.
     */
    private long from = Long.MAX_VALUE;
    /** Whether a message the consumer delivered was pushed out (then it no longer reaches back). */
    private boolean dropped;

    Recent(int capacity) {
      seqs = new long[capacity];
      entries = new Topics.Backplane.Entry[capacity];
    }

    private int slot(int i) {
      return (head + i) % seqs.length;
    }

    /** A message the consumer delivered, the newest. */
    synchronized void add(long seq, Topics.Backplane.Entry entry) {
      if (size > 0 && seq <= seqs[slot(size - 1)]) {
        return; // redelivered, or read from the stream already
      }
      if (size == 0 && from == Long.MAX_VALUE) {
        from = seq; // the first one: what came before it is not known here
      }
      if (size == seqs.length) {
        from = seqs[head]; // pushed out: every later one is still kept
        entries[head] = null;
        head = slot(1);
        size--;
        dropped = true;
      }
      seqs[slot(size)] = seq;
      entries[slot(size)] = entry;
      size++;
    }

    /**
     * What a read of the stream gave: every message of the topic after {@code after} up to the
     * topic's last as the read began, the read having begun once the consumer was made (so what
     * the read does not hold, the consumer delivers). Kept in front of what the consumer
     * delivered, unless the consumer's messages no longer reach back to the read's last one (some
     * were pushed out); past the capacity, only the newest of them are kept.
     *
     * @return whether everything after {@code after} is known now
     */
    synchronized boolean addOlder(long after, List<Topics.Backplane.Entry> read) {
      if (after >= from) {
        return true; // known already
      }
      long newestRead = read.isEmpty() ? after : Long.parseLong(read.get(read.size() - 1).id());
      if (dropped && newestRead < from) {
        return false; // between the read and what is kept, some were pushed out
      }
      long oldestKept = size == 0 ? Long.MAX_VALUE : seqs[head];
      for (int i = read.size() - 1; i >= 0; i--) {
        Topics.Backplane.Entry e = read.get(i);
        long seq = Long.parseLong(e.id());
        if (seq <= after) {
          break;
        }
        if (seq >= oldestKept) {
          continue; // delivered by the consumer too: kept already
        }
        if (size == seqs.length) {
          from = seq; // no room: what follows it is kept, not it
          dropped = true;
          return false;
        }
        head = (head - 1 + seqs.length) % seqs.length;
        seqs[head] = seq;
        entries[head] = e;
        size++;
      }
      from = after;
      return true;
    }

    /**
     * What came after {@code after}, in order, when that is known here. Null otherwise (nothing
     * known, or older than what is kept).
     */
    synchronized List<Topics.Backplane.Entry> after(long after) {
      if (after < from) {
        return null;
      }
      List<Topics.Backplane.Entry> missed = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        int k = slot(i);
        if (seqs[k] > after) {
          Topics.Backplane.Entry e = entries[k];
          missed.add(new Topics.Backplane.Entry(e.id(), e.text(), e.payload().duplicate()));
        }
      }
      return missed;
    }
  }

  @Override
  public void subscribe(String topic) {
    if (history > 0) {
      feeds.computeIfAbsent(topic, t -> new Feed(t).start());
      return;
    }
    Dispatcher d = dispatcher;
    // While disconnected the client registers it and subscribes when the connection is back.
    subjects.computeIfAbsent(topic, t -> d.subscribe(subject(t), m -> receive(t, m.getData())));
  }

  @Override
  public void unsubscribe(String topic) {
    Feed feed = feeds.remove(topic);
    if (feed != null) {
      feed.closed = true;
      feed.consumer.thenAccept(sub -> {
        try {
          dispatcher.unsubscribe(sub);
        } catch (IllegalStateException closed) {
          // closing: nothing to stop
        }
      });
      return;
    }
    io.nats.client.Subscription s = subjects.remove(topic);
    if (s != null) {
      try {
        dispatcher.unsubscribe(s);
      } catch (IllegalStateException closed) {
        // closing: nothing to stop
      }
    }
    sequences.forget(topic);
  }

  private void receive(String topic, byte[] message) {
    if (message == null || message.length < 1 + Sequences.HEADER) {
      return; // not ours
    }
    ByteBuffer m = ByteBuffer.wrap(message);
    boolean text = m.get() == 1;
    if (!sequences.accept(topic, m)) {
      return; // its own, or a repeat
    }
    received.increment();
    Topics t = topics;
    if (t != null) {
      t.publishLocal(topic, text, m);
    }
  }

  @Override
  public void publish(String topic, boolean text, ByteBuffer payload) {
    if (history > 0) {
      publishStored(topic, text, payload);
      return;
    }
    sequences.numbered(topic, subjects::containsKey, header -> {
      byte[] m = ByteBuffer.allocate(1 + Sequences.HEADER + payload.remaining())
          .put((byte) (text ? 1 : 0)).put(header).put(payload.duplicate()).array();
      Connection c = connection;
      // Nothing waits in the client's buffer while disconnected: a publication then fails at
      // once (counted) instead of reaching the other nodes late, after newer ones.
      if (c.getStatus() != Connection.Status.CONNECTED) {
        publishFailures.increment();
        return;
      }
      try {
        c.publish(subject(topic), m);
      } catch (IllegalStateException closed) {
        publishFailures.increment();
      }
    });
  }

  /**
   * With a history: stores the message in the stream, which gives it its id and sends it to
   * every node's consumer, this one's too. Not sent while disconnected (counted), as without.
   */
  private void publishStored(String topic, boolean text, ByteBuffer payload) {
    byte[] m = ByteBuffer.allocate(1 + payload.remaining())
        .put((byte) (text ? 1 : 0)).put(payload.duplicate()).array();
    Connection c = connection;
    if (c.getStatus() != Connection.Status.CONNECTED) {
      publishFailures.increment();
      return;
    }
    try {
      js.publishAsync(subject(topic), m).whenComplete((ack, e) -> {
        if (e != null) {
          publishFailures.increment();
        }
      });
    } catch (IllegalStateException closed) {
      publishFailures.increment();
    }
  }

  /** The subject of a topic: {@code prefix} and the topic escaped to one valid token. */
  String subject(String topic) {
    if (topic.isEmpty()) {
      return prefix + "%";
    }
    StringBuilder s = new StringBuilder(prefix.length() + topic.length());
    s.append(prefix);
    for (byte b : topic.getBytes(StandardCharsets.UTF_8)) {
      if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
          || b == '-' || b == '_') {
        s.append((char) b);
      } else {
        s.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return s.toString();
  }

  /**
   * Returns how many messages of other nodes arrived from NATS.
   *
   * @return the count
   */
  public long received() {
    return received.sum();
  }

  /**
   * Returns how many messages of other nodes this node knows it missed (gaps in their sequence
   * numbers, seen when the next message arrives): lost during an outage.
   *
   * @return the count
   */
  public long missed() {
    return sequences.missed();
  }

  /**
   * Returns how many messages arrived a second time and were dropped, so that no subscriber sees
   * one twice.
   *
   * @return the count
   */
  public long duplicates() {
    return sequences.duplicates();
  }

  /**
   * Returns how many publications of this node did not reach NATS (disconnected).
   *
   * @return the count
   */
  public long publishFailures() {
    return publishFailures.sum();
  }

  /**
   * Returns how many times the connection to NATS dropped (each is followed by reconnecting).
   *
   * @return the count
   */
  public long disconnects() {
    return disconnects.sum();
  }

  /**
   * Returns how many times a connection was restarted because its client did not write after a
   * reconnect (see the class's "Outages").
   *
   * @return the count
   */
  public long writerRestarts() {
    return writerRestarts.sum();
  }

  @Override
  public void close() {
    if (watchdog != null) {
      watchdog.shutdownNow();
    }
    Connection c = connection;
    if (c != null) {
      try {
        c.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Configures a {@link NatsBackplane}. Not thread-safe. */
  public static final class Builder {
    private String url = "nats://127.0.0.1:4222";
    private String prefix = "wsjava.topic.";
    private Duration reconnectDelay = Duration.ofSeconds(1);
    private int history;
    private Duration consumerHeartbeat;

    private Builder() {}

    /** For tests: a shorter idle heartbeat, so a lost consumer is noticed and remade sooner. */
    Builder consumerHeartbeat(Duration heartbeat) {
      this.consumerHeartbeat = heartbeat;
      return this;
    }

    /**
     * Keeps about the last {@code messagesPerTopic} messages of each topic in a JetStream stream
     * (the server runs with {@code -js}), so that a subscriber that comes back gets what it
     * missed on any node ({@link Topics#subscribe(dev.wsjava.WebSocket, String, String)}, {@link
     * Topics#resume(dev.wsjava.WebSocket)}); default 0, none (core NATS). The stream is named
     * after the subject prefix ({@code wsjava_topic_history} by default), stored in files, and
     * made or updated when the topics start. Every node that shares the topics sets the same.
     *
     * @param messagesPerTopic 0 (none) or more
     * @return this builder
     */
    public Builder history(int messagesPerTopic) {
      if (messagesPerTopic < 0) {
        throw new IllegalArgumentException("history is 0 or more, not " + messagesPerTopic);
      }
      this.history = messagesPerTopic;
      return this;
    }

    /**
     * Sets the NATS server to use; default {@code nats://127.0.0.1:4222}.
     *
     * @param natsUrl for example {@code nats://host:4222}, {@code nats://user:password@host:4222}
     *     or {@code tls://host:4222}
     * @return this builder
     */
    public Builder url(String natsUrl) {
      this.url = Objects.requireNonNull(natsUrl, "natsUrl");
      return this;
    }

    /**
     * Sets the prefix of the subjects; default {@code wsjava.topic.}. Nodes that share topics use
     * the same prefix.
     *
     * @param subjectPrefix the prefix: tokens of a NATS subject, ending with a dot
     * @return this builder
     * @throws IllegalArgumentException when it does not end with a dot, or holds white space or a
     *     wildcard
     */
    public Builder subjectPrefix(String subjectPrefix) {
      Objects.requireNonNull(subjectPrefix, "subjectPrefix");
      if (!subjectPrefix.endsWith(".") || subjectPrefix.startsWith(".")
          || subjectPrefix.contains("..") || subjectPrefix.matches(".*[\\s*>].*")) {
        throw new IllegalArgumentException(
            "a subject prefix is tokens ending with a dot, without white space, * or >: "
                + subjectPrefix);
      }
      this.prefix = subjectPrefix;
      return this;
    }

    /**
     * Sets the wait between attempts to reconnect; default 1 s.
     *
     * @param wait the wait
     * @return this builder
     */
    public Builder reconnectDelay(Duration wait) {
      this.reconnectDelay = Objects.requireNonNull(wait, "wait");
      return this;
    }

    /**
     * Builds the backplane; it connects when {@link Topics.Builder#build()} starts it.
     *
     * @return the backplane
     */
    public NatsBackplane build() {
      return new NatsBackplane(this);
    }
  }
}
