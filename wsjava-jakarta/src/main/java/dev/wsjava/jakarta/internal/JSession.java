package dev.wsjava.jakarta.internal;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Jakarta {@link Session} over one wsjava {@link WebSocket}, and the wsjava listener of that
 * socket: it turns the socket's events into the endpoint's calls. Events come on the connection's
 * I/O thread, one at a time; streamed handlers ({@code Reader}, {@code InputStream}, stream
 * decoders) run on a virtual thread of their own while the I/O thread feeds them piece by piece.
 *
 * <p>Thread safety: the Session methods may be called from any thread; the listener methods are
 * the connection's.
 */
final class JSession implements Session, WebSocketListener {
  private static final System.Logger LOG = System.getLogger("dev.wsjava.jakarta");
  private static final AtomicLong IDS = new AtomicLong();
  /** Buffers of the assembly kept between messages up to this size; larger ones are dropped. */
  private static final int KEEP_ASSEMBLY = 64 * 1024;

  /** Depth of calls into endpoint code on this thread: a blocking send made there must not wait. */
  private static final ThreadLocal<int[]> IN_CALLBACK = ThreadLocal.withInitial(() -> new int[1]);

  final Endpoint endpoint;
  private final EndpointConfig config;
  private final WebSocketContainer container;
  private final Set<Session> openSessions;
  private final String id = Long.toHexString(IDS.incrementAndGet());
  private final URI requestUri;
  private final Map<String, String> pathParams;
  private final String queryString;
  private final Map<String, List<String>> parameterMap;
  private final Principal principal;
  private final Map<String, Object> userProperties;
  private final List<Codecs.DecoderType> decoderTypes;
  private final List<Codecs.EncoderType> encoderTypes;
  private final boolean secure;
  private volatile List<Extension> negotiatedExtensions; // made on first use from the socket's

  volatile WebSocket ws;
  volatile Codecs codecs;
  private final BasicRemote basic = new BasicRemote(this);
  private final AsyncRemote async = new AsyncRemote(this);

  // Handlers: replaced whole when one is added or removed (rare), read on the I/O thread.
  private volatile Sink text;
  private volatile Sink binary;
  private volatile Sink pong;

  private volatile int maxText;
  private volatile int maxBinary;
  private volatile long maxIdle;
  private volatile boolean closing;
  /**
   * The code this session closed with because the endpoint or its input failed (1011, 1009,
   * 1003), else 0: later messages are dropped, and onClose is told this code whatever the peer's
   * answer carries.
   */
  private volatile int failedWith;
  /**
   * Whether a message is being sent in parts (a partial send without {@code last}, or a send
   * stream or writer not yet closed): a part that is first and last goes out as a whole message.
   */
  volatile boolean sendingParts;
  /**
   * Chars or bytes sent from callbacks since {@link Sends#queued} last looked at the outbound
   * queue. A heuristic: a lost update between the I/O thread and a streamed handler's thread only
   * moves the next look.
   */
  int queuedSinceLook;

  /**
   * The idle timeout set after open ({@link #setMaxIdleTimeout}), watched here since the
   * connection's own is fixed when it opens: null until then, so that a session nobody changes
   * pays one volatile read per message and nothing else.
   */
  private volatile java.util.concurrent.ScheduledFuture<?> idleCheck;
  private volatile long lastReceived; // System.nanoTime() of the last message or part received

  // Receiving, on the I/O thread.
  private Sink current; // the sink of the message under way (streamed mode)
  private boolean currentText;
  private boolean tooBig; // the message under way broke its limit: its parts are dropped
  private byte[] assembly = new byte[0];
  private int assemblyLength;
  private byte[] held; // a partial handler's last piece, held until we know whether it ends the message
  private int heldLength;
  private boolean heldAny;
  private ByteBuffer heldView; // held as a ByteBuffer partial handler sees it, reused while held is
  private PieceStream stream;
  private volatile jakarta.websocket.ClientEndpointConfig.Configurator afterResponse;

  JSession(
      Endpoint endpoint,
      EndpointConfig config,
      WebSocketContainer container,
      Set<Session> openSessions,
      URI requestUri,
      Map<String, String> pathParams,
      Map<String, List<String>> parameterMap,
      Principal principal,
      Map<String, Object> userProperties,
      List<Codecs.DecoderType> decoderTypes,
      List<Codecs.EncoderType> encoderTypes,
      boolean secure,
      int maxText,
      int maxBinary,
      long maxIdle) {
    this.endpoint = endpoint;
    this.config = config;
    this.container = container;
    this.openSessions = openSessions;
    this.requestUri = requestUri;
    this.pathParams = Map.copyOf(pathParams);
    this.queryString = requestUri.getRawQuery();
    this.parameterMap = parameterMap;
    this.principal = principal;
    this.userProperties = userProperties;
    this.decoderTypes = decoderTypes;
    this.encoderTypes = encoderTypes;
    this.secure = secure;
    this.maxText = maxText;
    this.maxBinary = maxBinary;
    this.maxIdle = maxIdle;
  }

  EndpointConfig endpointConfig() {
    return config;
  }

  Codecs codecs() {
    return codecs;
  }

  /** A client's session: the configurator sees the 101's fields before the endpoint opens. */
  void afterResponse(jakarta.websocket.ClientEndpointConfig.Configurator configurator) {
    afterResponse = configurator;
  }

  static boolean inCallback() {
    return IN_CALLBACK.get()[0] > 0;
  }

  // -------------------------------------------------------------------------------------------
  // The wsjava listener

  @Override
  public void onOpen(WebSocket socket) {
    ws = socket;
    int[] depth = IN_CALLBACK.get();
    depth[0]++;
    try {
      jakarta.websocket.ClientEndpointConfig.Configurator after = afterResponse;
      if (after != null) {
        after.afterResponse(new Handshakes.Response(Handshakes.headerMap(socket.responseHeaders())));
      }
      codecs = new Codecs(decoderTypes, encoderTypes, config);
      openSessions.add(this);
      endpoint.onOpen(this, config);
    } catch (Throwable t) {
      failed(t);
    } finally {
      depth[0]--;
    }
  }

  @Override
  public void onText(WebSocket socket, String message) {
    if (idleCheck != null) {
      lastReceived = System.nanoTime();
    }
    Sink s = text;
    if (s == null) {
      noHandler(true);
      return;
    }
    long max = limit(s, maxText);
    if (max >= 0 && message.length() > max) {
      tooBig(message.length(), max);
      return;
    }
    switch (s.raw) {
      case STRING -> deliver(s, message, true);
      case STRING_PARTIAL -> deliver(s, message, true);
      default -> deliver(s, new StringReader(message), true); // READER, the message already whole
    }
  }

  @Override
  public void onBinary(WebSocket socket, ByteBuffer data) {
    if (idleCheck != null) {
      lastReceived = System.nanoTime();
    }
    Sink s = binary;
    if (s == null) {
      noHandler(false);
      return;
    }
    long max = limit(s, maxBinary);
    if (max >= 0 && data.remaining() > max) {
      tooBig(data.remaining(), max);
      return;
    }
    switch (s.raw) {
      case BUFFER, BUFFER_PARTIAL -> deliver(s, data, true);
      case BYTES, BYTES_PARTIAL -> {
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        deliver(s, copy, true);
      }
      default -> {
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        deliver(s, new ByteArrayInputStream(copy), true);
      }
    }
  }

  @Override
  public void onMessagePart(WebSocket socket, boolean isText, ByteBuffer part, boolean last) {
    if (idleCheck != null) {
      lastReceived = System.nanoTime();
    }
    if (current == null && !tooBig) {
      Sink s = isText ? text : binary;
      if (s == null) {
        noHandler(isText);
        tooBig = !last; // drop the rest of this message
        return;
      }
      current = s;
      currentText = isText;
      assemblyLength = 0;
      heldAny = false;
      if (s.raw.stream) {
        PieceStream in = new PieceStream(socket);
        stream = in;
        Object raw = s.raw == Sink.Raw.READER ? new InputStreamReader(in, StandardCharsets.UTF_8) : in;
        Thread.ofVirtual().name("wsjava-jakarta stream " + id).start(() -> runStream(s, raw, in));
      }
    }
    if (tooBig) {
      if (last) {
        tooBig = false;
      }
      return;
    }
    Sink s = current;
    if (s.raw.stream) {
      stream.offer(part, last); // the end keeps reading paused until the handler returns
      if (last) {
        stream = null;
        current = null;
      }
      return;
    }
    if (s.raw.partial) {
      partial(s, part, last);
    } else {
      whole(s, part, last);
    }
    if (last) {
      current = null;
    }
  }

  /** Streamed form: the handler reads on its own thread; reading resumes when it returns. */
  private void runStream(Sink s, Object raw, PieceStream in) {
    try {
      deliverOnThisThread(s, raw, true);
    } finally {
      in.finish(); // the next message may start
    }
  }

  /** A whole message taken in pieces: assembled up to its limit, then handed over. */
  private void whole(Sink s, ByteBuffer part, boolean last) {
    int n = part.remaining();
    long max = limit(s, currentText ? maxText : maxBinary);
    if (max >= 0 && (long) assemblyLength + n > max) {
      tooBig = !last;
      current = null;
      tooBig((long) assemblyLength + n, max);
      return;
    }
    if (assemblyLength + n > assembly.length) {
      assembly = Arrays.copyOf(assembly, Math.max(assemblyLength + n, Math.min(2 * assembly.length + 256, Integer.MAX_VALUE - 8)));
    }
    part.get(assembly, assemblyLength, n);
    assemblyLength += n;
    if (!last) {
      return;
    }
    int length = assemblyLength;
    assemblyLength = 0;
    switch (s.raw) {
      case STRING -> deliver(s, new String(assembly, 0, length, StandardCharsets.UTF_8), true);
      case BUFFER -> deliver(s, ByteBuffer.wrap(assembly, 0, length), true);
      default -> deliver(s, Arrays.copyOf(assembly, length), true); // BYTES
    }
    if (assembly.length > KEEP_ASSEMBLY) {
      assembly = new byte[0];
    }
  }

  /**
   * A partial handler: each piece goes out once the next one shows whether it ends the message
   * (the connection's piece that ends a message may be empty). Text pieces are cut at a character
   * boundary; a split character goes with the next. A message that comes as one piece (in one
   * frame and one read) goes out as it is, without being held.
   */
  private void partial(Sink s, ByteBuffer part, boolean last) {
    if (last && !heldAny) {
      switch (s.raw) {
        case STRING_PARTIAL -> deliver(s, utf8(part), true);
        case BYTES_PARTIAL -> {
          byte[] copy = new byte[part.remaining()];
          part.get(copy);
          deliver(s, copy, true);
        }
        default -> deliver(s, part, true); // valid during the call, as whole ByteBuffer messages are
      }
      return;
    }
    int n = part.remaining();
    if (n > 0) {
      if (heldAny) {
        int cut = currentText ? Utf8.boundary(held, heldLength) : heldLength;
        deliverPart(s, held, cut, false);
        int carry = heldLength - cut;
        System.arraycopy(held, cut, held, 0, carry);
        heldLength = carry;
      } else {
        heldLength = 0;
      }
      if (held == null || heldLength + n > held.length) {
        held = Arrays.copyOf(held == null ? new byte[0] : held, heldLength + n);
      }
      part.get(held, heldLength, n);
      heldLength += n;
      heldAny = true;
    }
    if (last) {
      deliverPart(s, held == null ? new byte[0] : held, heldAny ? heldLength : 0, true);
      heldAny = false;
      heldLength = 0;
    }
  }

  /**
   * Decodes a piece that holds whole characters (the connection checked its UTF-8). A direct
   * buffer's bytes go through {@link #held}, free while nothing is held, so that the String is all
   * the piece costs.
   */
  private String utf8(ByteBuffer part) {
    int n = part.remaining();
    if (part.hasArray()) {
      return new String(part.array(), part.arrayOffset() + part.position(), n, StandardCharsets.UTF_8);
    }
    if (held == null || held.length < n) {
      held = new byte[n];
    }
    part.get(held, 0, n);
    return new String(held, 0, n, StandardCharsets.UTF_8);
  }

  private void deliverPart(Sink s, byte[] bytes, int length, boolean last) {
    switch (s.raw) {
      case STRING_PARTIAL -> deliver(s, new String(bytes, 0, length, StandardCharsets.UTF_8), last);
      case BYTES_PARTIAL -> deliver(s, Arrays.copyOf(bytes, length), last);
      default -> deliver(s, view(bytes, length), last);
    }
  }

  /**
   * The held bytes as the ByteBuffer a partial handler takes: a view, valid during the call as the
   * connection's own buffers are (whole ByteBuffer messages are handed over the same way), and
   * reused for the next part instead of copied and wrapped anew for each message.
   */
  private ByteBuffer view(byte[] bytes, int length) {
    ByteBuffer v = heldView;
    if (v == null || v.array() != bytes) {
      v = ByteBuffer.wrap(bytes);
      heldView = bytes == held ? v : null;
    }
    v.clear().limit(length);
    return v;
  }

  @Override
  public void onPong(WebSocket socket, ByteBuffer data) {
    if (idleCheck != null) {
      lastReceived = System.nanoTime();
    }
    Sink s = pong;
    if (s != null) {
      ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
      deliver(s, (jakarta.websocket.PongMessage) () -> copy, true);
    }
  }

  @Override
  public void onError(WebSocket socket, Throwable error) {
    callOnError(error);
  }

  @Override
  public void onClose(WebSocket socket, int code, String reason) {
    openSessions.remove(this);
    java.util.concurrent.ScheduledFuture<?> check = idleCheck;
    if (check != null) {
      check.cancel(false);
    }
    PieceStream in = stream;
    if (in != null) {
      stream = null;
      in.fail(new IOException("the connection closed inside the message (" + code + ")"));
    }
    int[] depth = IN_CALLBACK.get();
    depth[0]++;
    int failure = failedWith;
    if (failure != 0) {
      code = failure;
      reason = FAILURE_REASONS.getOrDefault(failure, reason);
    }
    try {
      endpoint.onClose(this, new CloseReason(CloseReason.CloseCodes.getCloseCode(code), reason));
    } catch (Throwable t) {
      LOG.log(System.Logger.Level.WARNING, "onClose of " + endpoint.getClass().getName() + " failed", t);
    } finally {
      depth[0]--;
      Codecs c = codecs;
      if (c != null) {
        c.destroy();
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Delivery

  private void deliver(Sink s, Object raw, boolean last) {
    deliverOnThisThread(s, raw, last);
  }

  private void deliverOnThisThread(Sink s, Object raw, boolean last) {
    if (failedWith != 0) {
      return; // the session failed and is closing: the endpoint gets no more messages (§5.2.2)
    }
    int[] depth = IN_CALLBACK.get();
    depth[0]++; // a blocking send from here (the return value's too) must not wait
    try {
      Object argument;
      try {
        argument = convert(s, raw);
      } catch (DecodeException e) {
        callOnError(e);
        return;
      }
      Object result;
      try {
        result = s.invoker.invoke(argument, last);
      } catch (DecodeException e) {
        callOnError(e); // a @PathParam that does not convert (§4.3): as a decoder's failure
        return;
      } catch (Throwable t) {
        failed(t);
        return;
      }
      if (result != null) {
        try {
          basic.sendObject(result);
        } catch (Exception e) {
          callOnError(e);
        }
      }
    } catch (IOException e) {
      callOnError(e);
    } finally {
      depth[0]--;
    }
  }

  private Object convert(Sink s, Object raw) throws DecodeException, IOException {
    if (s.primitive != null) {
      return Sink.parsePrimitive(s.primitive, (String) raw);
    }
    if (s.decoders == null) {
      return raw;
    }
    return switch (s.raw) {
      case STRING -> Codecs.decodeText(s.decoders, (String) raw);
      case BUFFER -> Codecs.decodeBinary(s.decoders, (ByteBuffer) raw);
      case READER -> Codecs.decodeReader(s.decoders[0], (java.io.Reader) raw);
      default -> Codecs.decodeStream(s.decoders[0], (java.io.InputStream) raw);
    };
  }

  private static long limit(Sink s, int sessionMax) {
    return s.maxMessageSize >= 0 ? s.maxMessageSize : sessionMax;
  }

  /** A message too big for its handler: 1009 (RFC 6455 §7.4.1), and onError says why. */
  private void tooBig(long size, long max) {
    callOnError(new jakarta.websocket.SessionException(
        "message of " + size + "+ exceeds the limit of " + max + " (1009)", null, this));
    failClose(1009);
  }

  /** A data message no handler takes: 1003 (RFC 6455 §7.4.1). */
  private void noHandler(boolean isText) {
    failClose(1003);
  }

  /** The endpoint threw: onError, then 1011 (RFC 6455 §7.4.1). */
  private void failed(Throwable t) {
    Throwable cause =
        t instanceof java.lang.reflect.InvocationTargetException i ? i.getCause()
            : t instanceof java.lang.reflect.UndeclaredThrowableException u ? u.getCause() : t;
    callOnError(cause);
    failClose(1011);
  }

  /** Reasons of the closes {@link #failClose} makes. */
  private static final Map<Integer, String> FAILURE_REASONS =
      Map.of(1011, "endpoint failed", 1009, "message too big", 1003, "no handler for this message type",
          1001, "idle timeout");

  /** Closes with a failure code (once), which onClose will be told. */
  private void failClose(int code) {
    WebSocket socket = ws;
    if (socket != null && socket.isOpen() && failedWith == 0) {
      failedWith = code;
      try {
        socket.close(code, FAILURE_REASONS.get(code));
      } catch (IllegalStateException e) {
        // closed meanwhile
      }
    }
  }

  void callOnError(Throwable t) {
    int[] depth = IN_CALLBACK.get();
    depth[0]++;
    try {
      endpoint.onError(this, t);
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.WARNING, "onError of " + endpoint.getClass().getName() + " failed", e);
    } finally {
      depth[0]--;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Handlers

  /** Sets the sinks of an annotated endpoint (no MessageHandler objects behind them). */
  void sinks(Sink textSink, Sink binarySink, Sink pongSink) {
    text = textSink;
    binary = binarySink;
    pong = pongSink;
  }

  @Override
  public void addMessageHandler(MessageHandler handler) {
    Class<?> type =
        handler instanceof MessageHandler.Partial<?>
            ? Generics.typeArgument(handler.getClass(), MessageHandler.Partial.class)
            : Generics.typeArgument(handler.getClass(), MessageHandler.Whole.class);
    if (type == Object.class) {
      throw new IllegalStateException("cannot tell the message type of " + handler.getClass().getName()
          + " (a lambda?): use addMessageHandler(Class, handler)");
    }
    add(type, handler);
  }

  @Override
  public <T> void addMessageHandler(Class<T> type, MessageHandler.Whole<T> handler) {
    add(type, handler);
  }

  @Override
  public <T> void addMessageHandler(Class<T> type, MessageHandler.Partial<T> handler) {
    add(type, handler);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private synchronized void add(Class<?> type, MessageHandler handler) {
    boolean partial = handler instanceof MessageHandler.Partial<?>;
    Sink.Invoker invoker =
        partial
            ? (m, last) -> {
                ((MessageHandler.Partial) handler).onMessage(m, last);
                return null;
              }
            : (m, last) -> {
                ((MessageHandler.Whole) handler).onMessage(m);
                return null;
              };
    Sink.Raw raw;
    jakarta.websocket.Decoder[] decoders = null;
    Class<?> primitive = null;
    if (type == String.class) {
      raw = partial ? Sink.Raw.STRING_PARTIAL : Sink.Raw.STRING;
    } else if (type == java.io.Reader.class && !partial) {
      raw = Sink.Raw.READER;
    } else if (type == byte[].class) {
      raw = partial ? Sink.Raw.BYTES_PARTIAL : Sink.Raw.BYTES;
    } else if (type == ByteBuffer.class) {
      raw = partial ? Sink.Raw.BUFFER_PARTIAL : Sink.Raw.BUFFER;
    } else if (type == java.io.InputStream.class && !partial) {
      raw = Sink.Raw.INPUT_STREAM;
    } else if (type == jakarta.websocket.PongMessage.class && !partial) {
      raw = Sink.Raw.PONG;
    } else if (!partial && Sink.isPrimitiveOrBox(type)) {
      raw = Sink.Raw.STRING;
      primitive = type;
    } else if (!partial) {
      List<jakarta.websocket.Decoder> fit = new java.util.ArrayList<>();
      Codecs.DecoderType first = null;
      for (Codecs.DecoderType d : decoderTypes) {
        if (type.isAssignableFrom(d.target()) && (first == null || d.form() == first.form())) {
          first = first == null ? d : first;
          fit.add(codecs.decoder(d.type()));
        }
      }
      if (first == null) {
        throw new IllegalStateException("no decoder makes a " + type.getName());
      }
      decoders = fit.toArray(new jakarta.websocket.Decoder[0]);
      raw = switch (first.form()) {
        case TEXT -> Sink.Raw.STRING;
        case TEXT_STREAM -> Sink.Raw.READER;
        case BINARY -> Sink.Raw.BUFFER;
        case BINARY_STREAM -> Sink.Raw.INPUT_STREAM;
      };
    } else {
      throw new IllegalStateException("a partial handler takes String, byte[] or ByteBuffer: " + type.getName());
    }
    Sink sink = new Sink(raw, invoker, -1, decoders, primitive, handler);
    if (raw == Sink.Raw.PONG) {
      if (pong != null) {
        throw new IllegalStateException("this session has a pong handler already");
      }
      pong = sink;
    } else if (raw.text) {
      if (text != null) {
        throw new IllegalStateException("this session has a text handler already");
      }
      text = sink;
    } else {
      if (binary != null) {
        throw new IllegalStateException("this session has a binary handler already");
      }
      binary = sink;
    }
  }

  @Override
  public Set<MessageHandler> getMessageHandlers() {
    Set<MessageHandler> out = new java.util.HashSet<>();
    for (Sink s : new Sink[] {text, binary, pong}) {
      if (s != null && s.owner instanceof MessageHandler h) {
        out.add(h);
      }
    }
    return Collections.unmodifiableSet(out);
  }

  @Override
  public synchronized void removeMessageHandler(MessageHandler handler) {
    if (text != null && text.owner == handler) {
      text = null;
    }
    if (binary != null && binary.owner == handler) {
      binary = null;
    }
    if (pong != null && pong.owner == handler) {
      pong = null;
    }
  }

  // -------------------------------------------------------------------------------------------
  // The rest of Session

  @Override
  public WebSocketContainer getContainer() {
    return container;
  }

  @Override
  public String getProtocolVersion() {
    return "13";
  }

  @Override
  public String getNegotiatedSubprotocol() {
    WebSocket socket = ws;
    String p = socket == null ? null : socket.subprotocol();
    return p == null ? "" : p;
  }

  @Override
  public List<Extension> getNegotiatedExtensions() {
    List<Extension> e = negotiatedExtensions;
    WebSocket socket = ws;
    if (e == null && socket != null) {
      e = JExtension.parseAll(socket.extensions());
      negotiatedExtensions = e;
    }
    return e == null ? List.of() : e;
  }

  @Override
  public boolean isSecure() {
    return secure;
  }

  @Override
  public boolean isOpen() {
    WebSocket socket = ws;
    return socket != null && socket.isOpen();
  }

  @Override
  public long getMaxIdleTimeout() {
    return maxIdle;
  }

  /**
   * Set after open, the timeout is watched by the adapter: a session that receives nothing (no
   * message, part or pong) for this long is closed with 1001, and onClose is told 1001. It counts
   * received data only, as the connection's own idle timeout does, which stays in force too.
   */
  @Override
  public void setMaxIdleTimeout(long milliseconds) {
    maxIdle = milliseconds;
    if (ws == null) {
      return; // not open yet: the container's configuration applies it at open
    }
    synchronized (this) {
      java.util.concurrent.ScheduledFuture<?> old = idleCheck;
      if (old != null) {
        old.cancel(false);
      }
      lastReceived = System.nanoTime();
      idleCheck = milliseconds > 0 && isOpen() ? IdleTimer.schedule(this::checkIdle, milliseconds) : null;
    }
  }

  /** On the idle timer's thread: closes an idle session, or looks again when it could be. */
  private void checkIdle() {
    long timeout = maxIdle;
    synchronized (this) {
      if (timeout <= 0 || !isOpen() || idleCheck == null) {
        return;
      }
      long idleMillis = (System.nanoTime() - lastReceived) / 1_000_000;
      if (idleMillis < timeout) {
        idleCheck = IdleTimer.schedule(this::checkIdle, timeout - idleMillis);
        return;
      }
    }
    failClose(1001);
  }

  /** The one daemon thread that watches idle timeouts set after open, made on first use. */
  private static final class IdleTimer {
    private static final java.util.concurrent.ScheduledThreadPoolExecutor TIMER;

    static {
      TIMER = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "wsjava-jakarta idle timer");
        t.setDaemon(true);
        return t;
      });
      TIMER.setRemoveOnCancelPolicy(true);
    }

    static java.util.concurrent.ScheduledFuture<?> schedule(Runnable task, long millis) {
      return TIMER.schedule(task, millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void setMaxBinaryMessageBufferSize(int length) {
    maxBinary = length;
  }

  @Override
  public int getMaxBinaryMessageBufferSize() {
    return maxBinary;
  }

  @Override
  public void setMaxTextMessageBufferSize(int length) {
    maxText = length;
  }

  @Override
  public int getMaxTextMessageBufferSize() {
    return maxText;
  }

  @Override
  public RemoteEndpoint.Async getAsyncRemote() {
    return async;
  }

  @Override
  public RemoteEndpoint.Basic getBasicRemote() {
    return basic;
  }

  @Override
  public String getId() {
    return id;
  }

  @Override
  public void close() throws IOException {
    close(new CloseReason(CloseReason.CloseCodes.NORMAL_CLOSURE, ""));
  }

  @Override
  public void close(CloseReason reason) throws IOException {
    WebSocket socket = ws;
    if (socket == null) {
      throw new IllegalStateException("the session is not open yet");
    }
    int code = reason.getCloseCode().getCode();
    if (!socket.isOpen()) {
      return;
    }
    closing = true;
    try {
      if (code == 1005 || code == 1006 || code == 1015) {
        socket.abort(); // codes that may not be sent: end the connection without a close frame
        return;
      }
      socket.close(code, reason.getReasonPhrase() == null ? "" : reason.getReasonPhrase());
    } catch (IllegalArgumentException e) {
      throw new IOException("cannot close with " + code + ": " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      // closed meanwhile
    }
  }

  @Override
  public URI getRequestURI() {
    return requestUri;
  }

  @Override
  public Map<String, List<String>> getRequestParameterMap() {
    return parameterMap;
  }

  @Override
  public String getQueryString() {
    return queryString;
  }

  @Override
  public Map<String, String> getPathParameters() {
    return pathParams;
  }

  @Override
  public Map<String, Object> getUserProperties() {
    return userProperties;
  }

  @Override
  public Principal getUserPrincipal() {
    return principal;
  }

  @Override
  public Set<Session> getOpenSessions() {
    return Collections.unmodifiableSet(new java.util.HashSet<>(openSessions));
  }

  static Set<Session> newOpenSet() {
    return ConcurrentHashMap.newKeySet();
  }

  @Override
  public String toString() {
    return "JSession[" + id + " " + requestUri + "]";
  }
}
