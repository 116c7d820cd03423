package dev.wsjava;

import dev.wsjava.events.WsEvents;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Utf8;
import dev.wsjava.transport.Connection;
import dev.wsjava.WebSocketClosedException;
import dev.wsjava.transport.ConnectionConfig;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.QueueFullException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@link WebSocket} users hold: a transport {@link Connection} plus the delivery style, either a
 * listener or an inbox for {@link #receive()}. It is the connection's {@link ConnectionHandler}.
 */
final class WebSocketImpl implements WebSocket, ConnectionHandler {
  /** Messages an inbox holds before reading from the socket pauses. */
  static final int INBOX_HIGH = 256;
  /** Messages left in the inbox when reading resumes. */
  static final int INBOX_LOW = 64;

  // What an idle server connection holds is counted in bytes (thousands of them wait on a
  // server): the state only pull-style connections use is in Pull, what few connections set is in
  // Extras (made at its first use), so that a listener's connection is 64 bytes.
  private final WebSocketListener listener;
  private final String path;
  /** The inbox and its state; null for a listener's connection. */
  private final Pull pull;
  private volatile Connection connection;
  /** The rarely set state, made by the first setter: see {@link #extras()}; read it acquiring. */
  private Extras extras;
  /**
   * A server's upgrade request: the {@link HandshakeRequest}, or once open (see {@link #onOpen})
   * its packed head alone when no application code saw it and the socket tells the rest; null on
   * a client.
   */
  private volatile Object request;
  // A server's connection: its counters and limits (null on a client).
  private Serving serving;
  private long openedAt; // System.nanoTime() at onOpen, for the close event's duration
  // A server's open connections form a list through these; guarded by Serving's list lock.
  WebSocketImpl prevLive;
  WebSocketImpl nextLive;

  /** What a pull-style connection (no listener) holds beside the facade. */
  private static final class Pull {
    final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    final java.util.function.Consumer<WebSocketImpl> onOpen;
    // Whether reading is paused for a full inbox. The check and the pause (or resume) happen
    // under one monitor, the inbox's: otherwise a resume could slip in before the pause it should
    // undo, and the connection would stay paused for good.
    boolean readPaused;
    MessageStream streaming; // the streamed message being received; I/O thread

    Pull(java.util.function.Consumer<WebSocketImpl> onOpen) {
      this.onOpen = onOpen;
    }
  }

  /**
   * What few connections set: made by the first setter (racing makers agree on one), so that an
   * idle connection of a server without hooks, topics or per-route settings holds none.
   */
  private static final class Extras {
    // The message being sent in fragments, guarded by this object's monitor, which also keeps
    // the fragments of concurrent senders in order.
    Opcode type; // the type of the message being sent, or null between messages
    char heldHighSurrogate; // the last char of a text part, held to be sent with the next
    /** Its topics, once {@link Topics#subscribe} was first called on it; null for most. */
    volatile TopicSubscriber subscriber;
    volatile Object attachment;
    Headers responseHeaders = Headers.empty(); // set before onOpen, which publishes it
    /** The route's own connection settings, or null for the server's. */
    ConnectionConfig routeConfig;
    // The message bucket, when the server limits the message rate, and the state of a streamed
    // message: the I/O thread alone uses them.
    RateLimit.Bucket messages;
    boolean overRate;
    boolean partsUnderway; // a streamed message had its first part, not its last yet
  }

  private static final VarHandle EXTRAS;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      EXTRAS = lookup.findVarHandle(WebSocketImpl.class, "extras", Extras.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The rarely set state, or null while nothing set it. */
  private Extras extrasOrNull() {
    return (Extras) EXTRAS.getAcquire(this);
  }

  /** The rarely set state, made at the first call. */
  private Extras extras() {
    Extras x = extrasOrNull();
    if (x == null) {
      Extras made = new Extras();
      x = (Extras) EXTRAS.compareAndExchange(this, null, made);
      if (x == null) {
        x = made;
      }
    }
    return x;
  }

  /** What the inbox holds after the last message: how the connection closed. */
  private record Closed(WebSocketClosedException cause) {}

  WebSocketImpl(WebSocketListener listener, String path) {
    this(listener, path, null, null, null);
  }

  /** A server-side connection, with its request and the hook's attachment. */
  WebSocketImpl(
      WebSocketListener listener, String path, HandshakeRequest request, Object attachment) {
    this(listener, path, null, request, attachment);
  }

  /** A pull-style connection that runs {@code onOpen} once it is open. */
  WebSocketImpl(
      String path,
      java.util.function.Consumer<WebSocketImpl> onOpen,
      HandshakeRequest request,
      Object attachment) {
    this(null, path, onOpen, request, attachment);
  }

  private WebSocketImpl(
      WebSocketListener listener,
      String path,
      java.util.function.Consumer<WebSocketImpl> onOpen,
      HandshakeRequest request,
      Object attachment) {
    this.listener = listener;
    this.path = path;
    this.pull = listener == null ? new Pull(onOpen) : null;
    this.request = request;
    if (attachment != null) {
      extras().attachment = attachment;
    }
  }

  /**
   * Makes this a server's connection: counted, and limited to the server's message rate. Called
   * once, before the transport has the handler.
   *
   * @param routeConfig the route's own connection settings, or null for the server's
   */
  void servedBy(Serving s, ConnectionConfig routeConfig) {
    serving = s;
    RateLimit.Bucket bucket = s.messageBucket();
    if (bucket != null) {
      extras().messages = bucket;
    }
    if (routeConfig != null) {
      extras().routeConfig = routeConfig;
    }
  }

  /** The route's own connection settings, or null for the server's. */
  @Override
  public ConnectionConfig connectionConfig() {
    Extras x = extrasOrNull();
    return x == null ? null : x.routeConfig;
  }

  @Override
  public void onHandshakeResponse(HttpHead.Response response) {
    Headers h = response.headers();
    if (h.size() > 0 || extrasOrNull() != null) {
      extras().responseHeaders = h;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // ConnectionHandler: events from the I/O thread

  /** A server connection's client: the request's remote address. */
  private SocketAddress client() {
    return request instanceof HandshakeRequest r ? r.remoteAddress() : conn().remoteAddress();
  }

  @Override
  public void onOpen(Connection c) {
    connection = c;
    if (serving != null) {
      if (request instanceof HandshakeRequest r) {
        // What thousands of idle connections keep: the packed head (about 50 bytes), not this
        // 40-byte object beside it; request() makes a view of it from the socket's addresses. (A
        // hook may hold the object it saw: a view is equal to it, not the same object.)
        byte[] folded = r.folded(c.remoteAddress(), c.localAddress(), serving.server);
        if (folded != null) {
          request = folded;
        }
      }
      serving.opened(this, client());
      openedAt = System.nanoTime();
      WsEvents.ConnectionOpened e = new WsEvents.ConnectionOpened();
      if (e.shouldCommit()) {
        e.remote = String.valueOf(client());
        e.path = path;
        e.subprotocol = c.subprotocol();
        e.commit();
      }
    }
    if (listener != null) {
      listener.onOpen(this);
    } else if (pull.onOpen != null) {
      pull.onOpen.accept(this);
    }
  }

  @Override
  public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
    Serving s = serving;
    if (s != null) {
      if (!withinRate(c, s)) {
        return; // dropped: the connection is closing for it
      }
      WsEvents.MessageSize.sample(true, payload.remaining());
    }
    if (listener != null) {
      if (type == Opcode.TEXT) {
        listener.onText(this, utf8(payload));
      } else {
        listener.onBinary(this, payload);
      }
      return;
    }
    Message m =
        type == Opcode.TEXT
            ? new Message.Text(utf8(payload))
            : new Message.Binary(ByteBuffer.allocate(payload.remaining()).put(payload).flip());
    enqueue(c, m);
  }

  /**
   * Takes a message from the connection's rate bucket; the first one over the rate closes the
   * connection with 1008.
   *
   * @return false when the message must be dropped (over the rate, now or before)
   */
  private boolean withinRate(Connection c, Serving s) {
    Extras x = extras; // a plain read: servedBy set the bucket before the I/O thread had this
    if (x != null
        && x.messages != null
        && (x.overRate || x.messages.take(s.messageRate, s.clock.getAsLong()) > 0)) {
      if (!x.overRate) {
        x.overRate = true;
        closeOverRate(c, s);
      }
      return false;
    }
    return true;
  }

  /**
   * Puts a message in the inbox; reading pauses while it is full, or while the memory budget is
   * spent and the inbox holds messages (charged until taken).
   */
  private void enqueue(Connection c, Object m) {
    if (m instanceof Message message) {
      c.chargeHeld(heldBytes(message));
    }
    Pull p = pull;
    p.inbox.add(m);
    synchronized (p.inbox) {
      if (!p.readPaused && p.inbox.size() >= INBOX_HIGH) {
        p.readPaused = true;
        c.pauseReading(true);
      }
    }
  }

  @Override
  public void onMessagePart(Connection c, Opcode type, ByteBuffer chunk, boolean last) {
    Extras x = extras();
    if (!x.partsUnderway) {
      // A streamed message counts against the message rate at its first part.
      Serving sv = serving;
      if (sv != null && !withinRate(c, sv)) {
        return; // dropped, and every part after it: the connection is closing for it
      }
      x.partsUnderway = !last;
    } else if (last) {
      x.partsUnderway = false;
    }
    if (listener != null) {
      listener.onMessagePart(this, type == Opcode.TEXT, chunk, last);
      return;
    }
    Pull p = pull;
    MessageStream s = p.streaming;
    if (s == null) {
      s = p.streaming =
          new MessageStream(
              type == Opcode.TEXT,
              () -> c.pauseReadingForStream(true),
              () -> c.pauseReadingForStream(false));
      enqueue(c, s);
    }
    if (chunk.hasRemaining()) {
      s.offer(chunk); // the connection reads no more until the reader took it
    }
    if (last) {
      s.end();
      p.streaming = null;
    }
  }

  @Override
  public void onPing(Connection c, ByteBuffer payload) {
    if (listener != null) {
      listener.onPing(this, payload);
    }
  }

  @Override
  public void onPong(Connection c, ByteBuffer payload) {
    if (listener != null) {
      listener.onPong(this, payload);
    }
  }

  @Override
  public void onError(Connection c, Throwable error) {
    if (listener != null) {
      listener.onError(this, error);
    }
  }

  @Override
  public void onClose(Connection c, int code, String reason) {
    Extras x = extrasOrNull();
    TopicSubscriber s = x == null ? null : x.subscriber;
    if (s != null) {
      s.connectionClosed();
    }
    if (serving != null) {
      serving.closed(this, c, client());
      WsEvents.ConnectionClosed e = new WsEvents.ConnectionClosed();
      if (e.shouldCommit()) {
        e.remote = String.valueOf(client());
        e.path = path;
        e.code = code;
        e.reason = reason;
        e.openFor = System.nanoTime() - openedAt;
        e.commit();
      }
    }
    if (listener != null) {
      listener.onClose(this, code, reason);
    } else {
      WebSocketClosedException closed = new WebSocketClosedException(code, reason);
      MessageStream m = pull.streaming;
      if (m != null) {
        pull.streaming = null;
        m.fail(closed); // the message being streamed ends here
      }
      pull.inbox.add(new Closed(closed));
    }
  }

  @Override
  public void onWritable(Connection c) {
    if (listener != null) {
      listener.onWritable(this);
    }
  }

  /**
   * The peer sent faster than the server allows: the message is dropped and the connection closed
   * with 1008 (policy violation, RFC 6455 §7.4.1).
   */
  private void closeOverRate(Connection c, Serving s) {
    s.counters.messageRateClosed.increment();
    s.limitHit("message-rate", client());
    c.close(CloseCode.POLICY_VIOLATION, "message rate over " + s.messageRate.count() + " per "
        + java.time.Duration.ofNanos(s.messageRate.windowNanos()));
  }

  private static String utf8(ByteBuffer b) {
    if (b.hasArray()) {
      return new String(b.array(), b.arrayOffset() + b.position(), b.remaining(), StandardCharsets.UTF_8);
    }
    // A direct buffer (a loop's read buffer): its bytes go through this thread's scratch array,
    // so the String and its array are all a message costs (a decoder took a char[] and more).
    // A virtual thread (one connection's) keeps no scratch array.
    int n = b.remaining();
    boolean keep = n <= SCRATCH_MAX && !Thread.currentThread().isVirtual();
    byte[] scratch = keep ? SCRATCH.get() : null;
    if (scratch == null || scratch.length < n) {
      scratch = new byte[keep ? Math.max(n, 1024) : n];
      if (keep) {
        SCRATCH.set(scratch);
      }
    }
    b.get(b.position(), scratch, 0, n);
    return new String(scratch, 0, n, StandardCharsets.UTF_8);
  }

  /** Largest text a thread's decoding scratch array grows to. */
  private static final int SCRATCH_MAX = 16 * 1024;

  private static final ThreadLocal<byte[]> SCRATCH = new ThreadLocal<>();

  // ---------------------------------------------------------------------------------------------
  // WebSocket

  /** The transport's connection, for topics; null until open. */
  Connection connection() {
    return connection;
  }

  private Connection conn() {
    Connection c = connection;
    if (c == null) {
      throw new IllegalStateException("the connection is not open yet");
    }
    return c;
  }

  @Override
  public CompletableFuture<Void> sendText(CharSequence text) {
    if (serving != null) {
      WsEvents.MessageSize.sample(false, text.length());
    }
    return api(conn().sendText(text));
  }

  @Override
  public CompletableFuture<Void> sendBinary(ByteBuffer data) {
    if (serving != null) {
      WsEvents.MessageSize.sample(false, data.remaining());
    }
    return api(conn().sendMessage(Opcode.BINARY, data));
  }

  @Override
  public CompletableFuture<Void> sendBinary(byte[] data) {
    return sendBinary(ByteBuffer.wrap(data));
  }

  @Override
  public CompletableFuture<Void> sendText(CharSequence part, boolean last) {
    Extras f = extras(); // the state of fragmented sends
    synchronized (f) {
      // A surrogate pair may be split between parts: hold a trailing high surrogate back and
      // send it with the next part, so each frame carries whole UTF-8 sequences of whole chars.
      CharSequence text = part;
      if (f.heldHighSurrogate != 0) {
        text = f.heldHighSurrogate + part.toString();
        f.heldHighSurrogate = 0;
      }
      int n = text.length();
      if (!last && n > 0 && Character.isHighSurrogate(text.charAt(n - 1))) {
        f.heldHighSurrogate = text.charAt(n - 1);
        text = text.subSequence(0, n - 1);
      }
      return fragment(Opcode.TEXT, Utf8.encode(text), last);
    }
  }

  @Override
  public CompletableFuture<Void> sendBinary(ByteBuffer part, boolean last) {
    return fragment(Opcode.BINARY, part, last);
  }

  private CompletableFuture<Void> fragment(Opcode type, ByteBuffer part, boolean last) {
    Extras f = extras(); // the state of fragmented sends
    synchronized (f) {
      if (f.type != null && f.type != type) {
        throw new IllegalStateException(
            "a " + f.type + " message is being sent in fragments: finish it first");
      }
      CompletableFuture<Void> sent = api(conn().sendFragment(type, part, last));
      f.type = last ? null : type;
      TopicSubscriber s = subscriber();
      if (last && s != null) {
        s.pump(); // topic messages held back while the fragments went out (RFC 6455 §5.4)
      }
      return sent;
    }
  }

  @Override
  public java.io.OutputStream sendBinaryStream() {
    checkMayBlock();
    return WebSocket.super.sendBinaryStream();
  }

  @Override
  public java.io.Writer sendTextWriter() {
    checkMayBlock();
    return WebSocket.super.sendTextWriter();
  }

  /** A stream's writes wait for the socket, which the I/O thread writes: it must not wait. */
  void checkMayBlock() {
    if (conn().onIoThread()) {
      throw new IllegalStateException(
          "a send stream blocks: write it from another thread than the connection's I/O thread"
              + " (a listener callback's); for example a virtual thread");
    }
  }

  @Override
  public CompletableFuture<Void> sendPing(ByteBuffer data) {
    return api(conn().sendPing(data));
  }

  @Override
  public CompletableFuture<Void> sendPong(ByteBuffer data) {
    return api(conn().sendPong(data));
  }

  @Override
  public CompletableFuture<Void> close(int code, String reason) {
    return conn().close(code, reason);
  }

  @Override
  public void abort() {
    conn().abort();
  }

  @Override
  public Message receive() throws WebSocketClosedException, InterruptedException {
    return (Message) take(inboxOrThrow(false).take());
  }

  @Override
  public Message receive(Duration timeout) throws WebSocketClosedException, InterruptedException {
    Object o = inboxOrThrow(false).poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    return o == null ? null : (Message) take(o);
  }

  @Override
  public MessageStream receiveStream() throws WebSocketClosedException, InterruptedException {
    return (MessageStream) take(inboxOrThrow(true).take());
  }

  private LinkedBlockingQueue<Object> inboxOrThrow(boolean streams) {
    if (pull == null) {
      throw new IllegalStateException(
          "this connection delivers messages to its listener; receive() is for connections made"
              + " without one");
    }
    Connection c = connection;
    if (c != null && c.streamsMessages() != streams) {
      throw new IllegalStateException(
          streams
              ? "this connection delivers whole messages: use receive(), or configure"
                  + " streamMessages(true) for receiveStream()"
              : "this connection streams messages (streamMessages(true)): use receiveStream()");
    }
    return pull.inbox;
  }

  private Object take(Object o) throws WebSocketClosedException {
    if (o instanceof Closed closed) {
      pull.inbox.add(closed); // every later receive() sees the close too
      throw closed.cause();
    }
    if (o instanceof Message m) {
      conn().releaseHeld(heldBytes(m));
    }
    Pull p = pull;
    synchronized (p.inbox) {
      if (p.readPaused && p.inbox.size() <= INBOX_LOW) {
        p.readPaused = false;
        conn().pauseReading(false);
      }
    }
    return o;
  }

  /** What a message in the inbox is charged to the memory budget: its chars, or its bytes. */
  private static long heldBytes(Message m) {
    return m instanceof Message.Text t ? t.text().length() : ((Message.Binary) m).data().capacity();
  }

  @Override
  public boolean isOpen() {
    Connection c = connection;
    return c != null && c.isOpen();
  }

  @Override
  public void pauseReadingUntilSent() {
    conn().pauseReadingUntilSent();
  }

  @Override
  public void pauseReading() {
    conn().pauseReadingForStream(true);
  }

  @Override
  public void resumeReading() {
    conn().pauseReadingForStream(false);
  }

  @Override
  public long queuedBytes() {
    return conn().queuedBytes();
  }

  @Override
  public String subprotocol() {
    return conn().subprotocol();
  }

  @Override
  public List<String> extensions() {
    return conn().extensions();
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public HandshakeRequest request() {
    Object r = request;
    if (r instanceof byte[] packed) {
      Connection c = conn();
      return HandshakeRequest.unfold(packed, c.remoteAddress(), c.localAddress(), serving.server);
    }
    return (HandshakeRequest) r;
  }

  @Override
  public Headers responseHeaders() {
    Extras x = extrasOrNull();
    return x == null ? Headers.empty() : x.responseHeaders;
  }

  @Override
  public Object attachment() {
    Extras x = extrasOrNull();
    return x == null ? null : x.attachment;
  }

  @Override
  public void attach(Object value) {
    if (value != null || extrasOrNull() != null) {
      extras().attachment = value;
    }
  }

  /** Its topics' state, or null before {@link Topics#subscribe} was first called on it. */
  TopicSubscriber subscriber() {
    Extras x = extrasOrNull();
    return x == null ? null : x.subscriber;
  }

  /** Sets its topics' state; by {@link Topics}, under this object's monitor. */
  void subscriber(TopicSubscriber s) {
    extras().subscriber = s;
  }

  @Override
  public SocketAddress remoteAddress() {
    // A server's: the client the request came from, through a PROXY header or trusted proxies.
    return request instanceof HandshakeRequest r ? r.remoteAddress() : conn().remoteAddress();
  }

  @Override
  public CompletableFuture<Void> closeFuture() {
    return conn().closed();
  }

  /**
   * Maps the transport's failures to the API's exception types. The returned future fails with
   * the API exception itself (not wrapped in a {@link CompletionException}), so that {@code
   * handle((ok, e) -> e instanceof SendQueueFullException)} works as documented.
   */
  private CompletableFuture<Void> api(CompletableFuture<Void> f) {
    // A send fails later only with WebSocketClosedException, an API type already: the transport's
    // future is returned as it is, with no second future and callback per message.
    if (f.isDone() && f.isCompletedExceptionally()) {
      return CompletableFuture.failedFuture(map(f.exceptionNow()));
    }
    return f;
  }

  private Throwable map(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof QueueFullException q) {
      if (serving != null) {
        serving.counters.sendQueueFull.increment();
        WsEvents.SendQueueFull event = new WsEvents.SendQueueFull();
        if (event.shouldCommit()) {
          Connection c = connection;
          event.remote = String.valueOf(client());
          event.queued = c == null ? 0 : c.queuedBytes();
          event.commit();
        }
      }
      return new SendQueueFullException(q.getMessage());
    }
    return cause; // a closed connection's sends already fail with WebSocketClosedException
  }

  @Override
  public String toString() {
    Connection c = connection;
    return "WebSocket[" + path + (c == null ? "" : " " + c.remoteAddress()) + "]";
  }
}
