package dev.wsjava.cluster.redis;

import dev.wsjava.Topics;
import io.lettuce.core.ClientOptions;
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
import java.util.Objects;
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
 * message carries a sequence number per publisher and topic). Publications made on this node while it is disconnected reach its own
 * subscribers only, and are counted in {@link #publishFailures()}.
 *
 * <p>Wire format of a message on channel {@code <prefix><topic>}: one octet (1 = text, 0 =
 * binary), the publisher's 16-octet node id, an 8-octet sequence number, then the payload.
 *
 * <p>Thread-safe.
 */
public final class RedisBackplane implements Topics.Backplane {
  private static final int HEADER = 1 + 16 + 8;

  private final RedisURI uri;
  private final String prefix;
  private final Duration reconnectDelay;
  private final byte[] nodeId = new byte[16];
  private final ConcurrentHashMap<String, AtomicLong> sent = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> lastSeen = new ConcurrentHashMap<>();
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

  private void receive(byte[] channel, byte[] message) {
    if (message.length < HEADER) {
      return; // not ours
    }
    ByteBuffer m = ByteBuffer.wrap(message);
    boolean text = m.get() == 1;
    long idHigh = m.getLong();
    long idLow = m.getLong();
    long seq = m.getLong();
    ByteBuffer own = ByteBuffer.wrap(nodeId);
    if (idHigh == own.getLong(0) && idLow == own.getLong(8)) {
      return; // published here, and delivered here already
    }
    String topic = new String(channel, StandardCharsets.UTF_8).substring(prefix.length());
    String from = idHigh + ":" + idLow + ":" + topic;
    Long before = lastSeen.get(from);
    if (before != null && seq <= before) {
      duplicates.increment(); // a PUBLISH the client sent again after a reconnect
      return;
    }
    lastSeen.put(from, seq);
    if (before != null && seq > before + 1) {
      missed.add(seq - before - 1);
    }
    received.increment();
    Topics t = topics;
    if (t != null) {
      t.publishLocal(topic, text, m);
    }
  }

  @Override
  public void subscribe(String topic) {
    local.add(topic);
    StatefulRedisPubSubConnection<byte[], byte[]> c = subscriptions;
    if (c != null) {
      try {
        c.async().subscribe(channel(topic)); // refused while disconnected: see onRedisConnected
      } catch (RuntimeException refused) {
        // subscribed again when the connection is back
      }
    }
  }

  @Override
  public void unsubscribe(String topic) {
    local.remove(topic);
    try {
      subscriptions.async().unsubscribe(channel(topic));
    } catch (RuntimeException refused) {
      // disconnected: the new connection will not subscribe to it
    }
    String suffix = ":" + topic;
    lastSeen.keySet().removeIf(k -> k.endsWith(suffix)); // what is not received is not missed
  }

  @Override
  public void publish(String topic, boolean text, ByteBuffer payload) {
    AtomicLong counter = sent.computeIfAbsent(topic, k -> new AtomicLong());
    // Numbered and handed to the connection in one step, so Redis gets them in number order: a
    // receiver takes a number at or below the last it saw for a repeat.
    synchronized (counter) {
      long seq = counter.incrementAndGet();
      ByteBuffer m = ByteBuffer.allocate(HEADER + payload.remaining());
      m.put((byte) (text ? 1 : 0)).put(nodeId).putLong(seq).put(payload);
      try {
        publisher.async().publish(channel(topic), m.array()).whenComplete((n, e) -> {
          if (e != null) {
            publishFailures.increment();
          }
        });
      } catch (RuntimeException rejected) {
        publishFailures.increment();
      }
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
     * Builds the backplane; it connects when {@link Topics.Builder#build()} starts it.
     *
     * @return the backplane
     */
    public RedisBackplane build() {
      return new RedisBackplane(this);
    }
  }
}
