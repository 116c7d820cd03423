package dev.wsjava.cluster.redis;

import dev.wsjava.Topics;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link Topics.Backplane} over Redis pub/sub: the nodes that share one Redis share their
 * topics. Each node subscribes to a Redis channel per topic it has subscribers for, receives each
 * message from Redis once and fans it out locally; a message carries the id of the node that
 * published it, and that node ignores its own (it delivered it locally already), so nobody
 * receives a message twice.
 *
 * <pre>{@code
 * Topics topics = Topics.builder()
 *     .backplane(RedisBackplane.builder().uri("redis://127.0.0.1:6379").build())
 *     .build();
 * }</pre>
 *
 * <p><b>Outages.</b> Redis pub/sub delivers at most once. When Redis restarts or the network
 * drops, the node reconnects by itself (after {@link Builder#reconnectDelay}, growing to at most
 * that bound) and subscribes to its channels again. Messages published on other nodes while the
 * connection is down, or before it has subscribed again, are lost for this node: it counts them
 * in {@link #missed()} when the next message of that publisher on that topic arrives (each
 * message carries a sequence number per publisher and topic, in an epoch that begins again
 * when the publisher dropped its counter of that topic). Publications made on this node while it is disconnected reach its own
 * subscribers only, and are counted in {@link #publishFailures()}.
 *
 * <p><b>History.</b> With {@link Builder#history(int)}, every publication is also appended to a
 * Redis stream per topic (key {@code <prefix><topic>}, trimmed to about that many entries with
 * {@code XADD MAXLEN ~}), and the stream's id (such as {@code 1733140000000-0}) is the message's
 * id: subscribers receive it through {@link Topics.Envelope}, and one that comes back, to any
 * node, with the last id it saw gets what it missed ({@link Topics#subscribe(dev.wsjava.WebSocket,
 * String, String)}, read with {@code XRANGE}). Appending and publishing are one Lua script, so
 * the order of ids is the order every node receives; and every node, the publishing one included,
 * delivers a message only once Redis has it. A publication that does not reach Redis reaches
 * nobody (counted in {@link #publishFailures()}).
 *
 * <p>Wire format of a message on channel {@code <prefix><topic>}: one octet (1 = text, 0 =
 * binary), the publisher's 16-octet node id, an 8-octet epoch, an 8-octet sequence number within
 * it, then the payload. With a
 * history, the stream entry holds that message in its field {@code m}, and the channel carries
 * the id, a newline, then the message.
 *
 * <p>Thread-safe.
 */
public final class RedisBackplane implements Topics.Backplane {
  private static final int HEADER = 1 + 16 + 8 + 8;

  /**
   * Sequence counters of topics without subscribers on this node that it keeps; past this many,
   * they are dropped (a later publication starts a new epoch): a node that publishes to many
   * topics it does not subscribe to does not grow without bound.
   */
  static final int MAX_IDLE_COUNTERS = 4096;

  /** A publisher's numbering of one topic; guarded by itself. */
  private static final class Counter {
    final long epoch;
    long seq;
    /** With a history: the last send still waiting for this node's SUBSCRIBE, or null. */
    CompletableFuture<Void> waiting;

    Counter(long epoch) {
      this.epoch = epoch;
    }
  }

  /**
   * Publisher-topic pairs remembered; past this many, the half heard from least recently is
   * forgotten. Every node that ever published to a topic this node still subscribes to has a pair,
   * so without a bound a long-lived topic would keep one for every restart of every node. A
   * forgotten publisher's next message counts as its first: a gap just before it goes uncounted.
   */
  static final int MAX_REMEMBERED = 65_536;

  /** The last message seen of one publisher on one topic, and when (in messages received). */
  private record Seen(long epoch, long seq, long heard) {}

  private final RedisURI uri;
  private final String prefix;
  private final Duration reconnectDelay;
  private final int history;
  /** The SUBSCRIBE of each topic this node has subscribers for, completed once Redis confirmed. */
  private final ConcurrentHashMap<String, CompletableFuture<Void>> subscribed =
      new ConcurrentHashMap<>();
  private final byte[] nodeId = new byte[16];
  private final ConcurrentHashMap<String, Counter> sent = new ConcurrentHashMap<>();
  private final AtomicLong epochs = new AtomicLong();
  private final ConcurrentHashMap<String, Seen> lastSeen = new ConcurrentHashMap<>();
  private long heard; // messages received: the clock of Seen.heard (one receiving thread)
  private final LongAdder received = new LongAdder();
  private final LongAdder missed = new LongAdder();
  private final LongAdder duplicates = new LongAdder();
  private final LongAdder publishFailures = new LongAdder();
  private final LongAdder reconnects = new LongAdder();

  private ClientResources resources;
  private RedisClient client;
  private volatile StatefulRedisPubSubConnection<byte[], byte[]> subscriptions;
  /** The topics this node has subscribers for. */
  private final java.util.Set<String> local = ConcurrentHashMap.newKeySet();
  private volatile StatefulRedisConnection<byte[], byte[]> publisher;
  private volatile Topics topics;
  /** Completed when the publishing connection first drops (tests wait for it). */
  final java.util.concurrent.CompletableFuture<Void> publisherDisconnected =
      new java.util.concurrent.CompletableFuture<>();

  private RedisBackplane(Builder b) {
    this.uri = RedisURI.create(b.uri);
    this.prefix = b.prefix;
    this.reconnectDelay = b.reconnectDelay;
    this.history = b.history;
    UUID id = UUID.randomUUID();
    ByteBuffer.wrap(nodeId).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
  }

  /**
   * Starts building a backplane.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void start(Topics topics) {
    this.topics = topics;
    resources = ClientResources.builder()
        .reconnectDelay(Delay.exponential(
            Duration.ofMillis(20), reconnectDelay, 2, java.util.concurrent.TimeUnit.MILLISECONDS))
        .build();
    client = RedisClient.create(resources, uri);
    client.setOptions(ClientOptions.builder()
        .autoReconnect(true)
        // A command sent while disconnected fails at once instead of waiting in a buffer: pub/sub
        // is at most once, and a late publication would arrive out of order.
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .build());
    client.addListener(new RedisConnectionStateListener() {
      @Override
      public void onRedisConnected(
          io.lettuce.core.RedisChannelHandler<?, ?> connection, java.net.SocketAddress address) {
        // Lettuce resubscribes what Redis confirmed; a topic whose SUBSCRIBE was refused while
        // disconnected is subscribed here.
        if (connection == subscriptions) {
          for (String topic : local) {
            subscribe(topic);
          }
        }
      }

      @Override
      public void onRedisDisconnected(io.lettuce.core.RedisChannelHandler<?, ?> connection) {
        reconnects.increment();
        if (connection == publisher) {
          publisherDisconnected.complete(null);
        }
      }
    });
    subscriptions = client.connectPubSub(ByteArrayCodec.INSTANCE);
    subscriptions.addListener(new RedisPubSubAdapter<>() {
      @Override
      public void message(byte[] channel, byte[] message) {
        receive(channel, message);
      }
    });
    publisher = client.connect(ByteArrayCodec.INSTANCE);
  }

  /** Takes one message of a channel (package-private: tests hand it messages without Redis). */
  void receive(byte[] channel, byte[] message) {
    String id = null;
    int start = 0;
    if (history > 0) {
      int nl = indexOf(message, (byte) '\n');
      if (nl < 0) {
        return; // not ours
      }
      id = new String(message, 0, nl, StandardCharsets.US_ASCII);
      start = nl + 1;
    }
    if (message.length - start < HEADER) {
      return; // not ours
    }
    ByteBuffer m = ByteBuffer.wrap(message, start, message.length - start);
    boolean text = m.get() == 1;
    long idHigh = m.getLong();
    long idLow = m.getLong();
    long epoch = m.getLong();
    long seq = m.getLong();
    ByteBuffer own = ByteBuffer.wrap(nodeId);
    if (id == null && idHigh == own.getLong(0) && idLow == own.getLong(8)) {
      return; // published here, and delivered here already
    }
    String topic = new String(channel, StandardCharsets.UTF_8).substring(prefix.length());
    String from = idHigh + ":" + idLow + ":" + topic;
    long now = ++heard;
    Seen before = lastSeen.get(from);
    if (before == null || epoch > before.epoch()) {
      lastSeen.put(from, new Seen(epoch, seq, now)); // a new epoch numbers from 1 again
      if (before != null && seq > 1) {
        missed.add(seq - 1);
      }
      if (before == null && lastSeen.size() > MAX_REMEMBERED) {
        forgetLeastRecent();
      }
    } else if (epoch == before.epoch()) {
      if (seq <= before.seq()) {
        duplicates.increment(); // a PUBLISH the client sent again after a reconnect
        lastSeen.put(from, new Seen(before.epoch(), before.seq(), now));
        return;
      }
      lastSeen.put(from, new Seen(epoch, seq, now));
      if (seq > before.seq() + 1) {
        missed.add(seq - before.seq() - 1);
      }
    } else {
      // numbered by a counter the publisher dropped as this epoch began; late, not twice
      lastSeen.put(from, new Seen(before.epoch(), before.seq(), now));
    }
    received.increment();
    Topics t = topics;
    if (t != null) {
      if (id != null) {
        t.publishLocal(topic, id, text, m);
      } else {
        t.publishLocal(topic, text, m);
      }
    }
  }

  /** Forgets the half of the publisher-topic pairs heard from least recently. */
  private void forgetLeastRecent() {
    long[] times = lastSeen.values().stream().mapToLong(Seen::heard).sorted().toArray();
    long cut = times[times.length / 2];
    lastSeen.values().removeIf(x -> x.heard() < cut);
  }

  /** How many publisher-topic pairs are remembered (tests check that they are bounded). */
  int remembered() {
    return lastSeen.size();
  }

  private static int indexOf(byte[] a, byte b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public void subscribe(String topic) {
    local.add(topic);
    StatefulRedisPubSubConnection<byte[], byte[]> c = subscriptions;
    if (c != null) {
      CompletableFuture<Void> done = subscribed.computeIfAbsent(topic, k -> new CompletableFuture<>());
      try {
        // Refused while disconnected: see onRedisConnected.
        c.async().subscribe(channel(topic)).whenComplete((ok, e) -> {
          if (e == null) {
            done.complete(null);
          }
        });
      } catch (RuntimeException refused) {
        // subscribed again when the connection is back
      }
    }
  }

  @Override
  public void unsubscribe(String topic) {
    local.remove(topic);
    subscribed.remove(topic);
    try {
      subscriptions.async().unsubscribe(channel(topic));
    } catch (RuntimeException refused) {
      // disconnected: the new connection will not subscribe to it
    }
    String suffix = ":" + topic;
    lastSeen.keySet().removeIf(k -> k.endsWith(suffix)); // what is not received is not missed
    sent.remove(topic); // its next publication starts a new epoch
  }

  /**
   * Appends to the topic's stream, trimmed, and publishes the message behind its new id, in one
   * step: the ids' order is the order of the channel.
   */
  private static final String APPEND_AND_PUBLISH = """
      local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2])
      redis.call('PUBLISH', KEYS[1], id .. '\\n' .. ARGV[2])
      return id
      """;

  @Override
  public boolean keepsHistory() {
    return history > 0;
  }

  @Override
  public CompletableFuture<List<Topics.Backplane.Entry>> history(String topic, String lastId) {
    long[] last = parseId(lastId);
    CompletableFuture<Void> live = subscribed.get(topic);
    if (last == null || live == null) {
      return CompletableFuture.completedFuture(null);
    }
    // From the id it saw (included, to learn that the stream still holds it), once this node
    // receives the live messages: everything after the range arrives live.
    int most = history * 2 + 200; // MAXLEN ~ keeps a little more than asked
    return live.thenCompose(ok -> publisher.async()
            .xrange(channel(topic), Range.create(lastId, "+"), Limit.from(most))
            .toCompletableFuture())
        .thenApply(found -> {
          if (found.isEmpty() || !found.get(0).getId().equals(lastId) || found.size() == most) {
            return null; // trimmed away (or never an id here), or more than a history holds
          }
          List<Topics.Backplane.Entry> missed = new java.util.ArrayList<>(found.size() - 1);
          for (StreamMessage<byte[], byte[]> e : found.subList(1, found.size())) {
            byte[] m = e.getBody().values().iterator().next();
            missed.add(new Topics.Backplane.Entry(
                e.getId(), m[0] == 1, ByteBuffer.wrap(m, HEADER, m.length - HEADER)));
          }
          return missed;
        });
  }

  @Override
  public int compareIds(String a, String b) {
    long[] x = parseId(a);
    long[] y = parseId(b);
    int c = Long.compareUnsigned(x[0], y[0]);
    return c != 0 ? c : Long.compareUnsigned(x[1], y[1]);
  }

  /** A stream id's two numbers, or null when {@code id} is not one. */
  private static long[] parseId(String id) {
    int dash = id.indexOf('-');
    if (dash < 1 || dash == id.length() - 1 || id.length() > 41) {
      return null;
    }
    try {
      return new long[] {
        Long.parseUnsignedLong(id, 0, dash, 10), Long.parseUnsignedLong(id, dash + 1, id.length(), 10)
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public void publish(String topic, boolean text, ByteBuffer payload) {
    Counter counter = sent.get(topic);
    if (counter == null) {
      if (sent.size() >= MAX_IDLE_COUNTERS + local.size()) {
        sent.keySet().removeIf(k -> !local.contains(k));
      }
      counter = sent.computeIfAbsent(topic, k -> new Counter(epochs.incrementAndGet()));
    }
    // Numbered and handed to the connection in one step, so Redis gets them in number order: a
    // receiver takes a number at or below the last it saw for a repeat.
    synchronized (counter) {
      long seq = ++counter.seq;
      ByteBuffer m = ByteBuffer.allocate(HEADER + payload.remaining());
      m.put((byte) (text ? 1 : 0)).put(nodeId).putLong(counter.epoch).putLong(seq).put(payload);
      if (history == 0) {
        send(topic, m.array());
        return;
      }
      // With a history this node delivers its own publications only as they come back on the
      // channel, so one sent before its SUBSCRIBE is confirmed would never reach its own
      // subscribers: it waits (at most SUBSCRIBE_WAIT), and later ones queue behind it in order.
      CompletableFuture<Void> live = subscribed.get(topic);
      CompletableFuture<Void> before = counter.waiting != null && !counter.waiting.isDone()
          ? counter.waiting
          : live != null && !live.isDone()
              ? live.copy().completeOnTimeout(null, SUBSCRIBE_WAIT.toMillis(), TimeUnit.MILLISECONDS)
              : null;
      if (before == null) {
        counter.waiting = null;
        send(topic, m.array());
      } else {
        counter.waiting = before.handle((ok, e) -> null).thenRun(() -> send(topic, m.array()));
      }
    }
  }

  /** How long a publication with a history waits for this node's SUBSCRIBE to its topic. */
  private static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(2);

  /** Hands one numbered publication to Redis; a refusal (disconnected) is counted. */
  private void send(String topic, byte[] m) {
    try {
      CompletableFuture<?> sentNow = history > 0
          ? publisher.async().eval(APPEND_AND_PUBLISH, ScriptOutputType.VALUE,
              new byte[][] {channel(topic)}, Long.toString(history).getBytes(
                  StandardCharsets.US_ASCII), m).toCompletableFuture()
          : publisher.async().publish(channel(topic), m).toCompletableFuture();
      sentNow.whenComplete((n, e) -> {
        if (e != null) {
          publishFailures.increment();
        }
      });
    } catch (RuntimeException rejected) {
      publishFailures.increment();
    }
  }

  private byte[] channel(String topic) {
    return (prefix + topic).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Returns how many messages of other nodes arrived from Redis.
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
    return missed.sum();
  }

  /**
   * Returns how many messages arrived a second time (a publication retried by the Redis client
   * after a reconnect) and were dropped, so that no subscriber sees one twice.
   *
   * @return the count
   */
  public long duplicates() {
    return duplicates.sum();
  }

  /**
   * Returns how many publications of this node did not reach Redis (disconnected).
   *
   * @return the count
   */
  public long publishFailures() {
    return publishFailures.sum();
  }

  /**
   * Returns how many times a connection to Redis dropped (each is followed by reconnecting).
   *
   * @return the count
   */
  public long disconnects() {
    return reconnects.sum();
  }

  /** How many topics this node keeps a sequence counter for (tests check that it is bounded). */
  int counters() {
    return sent.size();
  }

  @Override
  public void close() {
    if (subscriptions != null) {
      subscriptions.close();
    }
    if (publisher != null) {
      publisher.close();
    }
    if (client != null) {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
    if (resources != null) {
      resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /** Configures a {@link RedisBackplane}. Not thread-safe. */
  public static final class Builder {
    private String uri = "redis://127.0.0.1:6379";
    private String prefix = "wsjava:topic:";
    private Duration reconnectDelay = Duration.ofSeconds(1);
    private int history;

    private Builder() {}

    /**
     * Sets the Redis to use; default {@code redis://127.0.0.1:6379}.
     *
     * @param redisUri for example {@code redis://host:6379} or {@code rediss://} for TLS
     * @return this builder
     */
    public Builder uri(String redisUri) {
      this.uri = Objects.requireNonNull(redisUri, "redisUri");
      return this;
    }

    /**
     * Sets the prefix of the Redis channels; default {@code wsjava:topic:}. Nodes that share
     * topics use the same prefix.
     *
     * @param channelPrefix the prefix
     * @return this builder
     */
    public Builder channelPrefix(String channelPrefix) {
      this.prefix = Objects.requireNonNull(channelPrefix, "channelPrefix");
      return this;
    }

    /**
     * Sets the longest wait between attempts to reconnect; default 1 s (the first attempt comes
     * after 20 ms, then the wait doubles).
     *
     * @param max the bound
     * @return this builder
     */
    public Builder reconnectDelay(Duration max) {
      this.reconnectDelay = Objects.requireNonNull(max, "max");
      return this;
    }

    /**
     * Keeps a history of about {@code entries} messages per topic in Redis streams, so that a
     * subscriber that comes back gets what it missed; default 0 (none: pub/sub only). See the
     * class's "History".
     *
     * @param entries at least 0
     * @return this builder
     */
    public Builder history(int entries) {
      if (entries < 0) {
        throw new IllegalArgumentException("history must be at least 0 entries, was " + entries);
      }
      this.history = entries;
      return this;
    }

    /**
     * Builds the backplane; it connects when {@link Topics.Builder#build()} starts it.
     *
     * @return the backplane
     */
    public RedisBackplane build() {
      return new RedisBackplane(this);
    }
  }
}
