package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadException;
import dev.wsjava.handshake.HttpHeadParser;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.handshake.ServerHandshake;
import dev.wsjava.session.OutboundQueue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * RFC 9112 §9: one HTTP/1.1 connection of a server, without I/O. Fed the bytes that arrive, it
 * reads requests (heads with {@link HttpHeadParser}, bodies by {@code Content-Length} or chunked),
 * answers each through the {@link Router} in order, and queues the response bytes for the transport
 * to write. A WebSocket route hands the connection over: {@link #receive} returns a {@link
 * WebSocketUpgrade}, and the 101 response is queued.
 *
 * <p>Connection management (§9.3): HTTP/1.1 persists unless {@code Connection: close}; HTTP/1.0
 * only with {@code Connection: keep-alive}. Pipelined requests are answered in order (§9.3.2);
 * while more than {@link HttpLimits#maxQueuedBytes()} of responses wait to be written, the next
 * request is left unread in the caller's buffer. A malformed request (400), a head over its limits
 * (414, 431), a body over its limit (413), an unsupported transfer coding (501), an expired request
 * timeout (408), a failed handler (500) or a refused upgrade are answered, then the connection
 * closes: {@link #shouldClose()} turns true, and the transport closes once the queue is written,
 * preferably by shutting its output down first so the client reads the answer (§9.6). Time is
 * passed in: the transport asks {@link #deadlineNanos()} and calls {@link #onTimeout(long)}.
 *
 * <p>A request with {@code Transfer-Encoding: chunked} is decoded (§7.1), since every HTTP/1.1
 * recipient must be able to; any other transfer coding is answered 501 (§6.1), and {@code
 * Transfer-Encoding} together with {@code Content-Length}, or in an HTTP/1.0 request, 400 (§6.3),
 * since both are request smuggling patterns. {@code Expect: 100-continue} is answered with 100
 * before the body is read (RFC 9110 §10.1.1).
 *
 * <p>Not thread-safe: a transport calls it from one thread at a time. The outbound side has the
 * shape of {@link dev.wsjava.session.Session}'s.
 *
 * @param <T> the WebSocket route data type of the router
 */
public final class HttpConnection<T> {
  private static final ByteBuffer CONTINUE =
      ByteBuffer.wrap("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1))
          .asReadOnlyBuffer();
  private static final ByteBuffer NOTHING = ByteBuffer.allocate(0).asReadOnlyBuffer();

  private enum State {
    /** Waiting for a request head, or reading one. */
    HEAD,
    /** Reading the body of {@code request}. */
    BODY,
    /** Handed over to WebSocket. */
    UPGRADED,
    /** No more requests are read; close once the queue is written. */
    CLOSING
  }

  private final Router<T> router;
  private final HttpLimits limits;
  private final HttpHeadParser<HttpHead.Request> parser;
  // The answers waiting to be written: one buffer alone (the usual case, a 101 or one response)
  // sits in `one`; from the second on, all go through a queue, made then.
  private ByteBuffer one;
  private long oneLeft;
  private OutboundQueue more;
  private long outboundTotal;

  private State state = State.HEAD;
  private int requestCount;
  private long waitStart;
  private boolean requestStarted;
  private long requestStart;
  private String closeReason;
  private Exception handlerFailure;
  private WebSocketUpgrade<T> upgrade;
  private ServerHandshake.Rejected refusal;

  // The request whose body is being read.
  private Request request;
  private HttpHandler handler;
  private boolean keepAlive;
  private BodyBuffer body;
  private long bodyRemaining;
  private ChunkedDecoder chunked;
  // The connection's share of the memory budget, charged with bodies; null: not counted.
  private LongPredicate charge;
  private LongConsumer release;
  private long stalledFor;

  /**
   * Opens a connection.
   *
   * @param router the shared routing table
   * @param limits the limits
   * @param nowNanos the current time, from the transport's clock; the first request is due within
   *     {@link HttpLimits#requestTimeoutNanos()} of it
   */
  public HttpConnection(Router<T> router, HttpLimits limits, long nowNanos) {
    this.router = Objects.requireNonNull(router, "router");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.parser = HttpHeadParser.forRequests(limits.head());
    this.waitStart = nowNanos;
  }

  /**
   * Charges the request bodies this connection holds to the memory budget (a transport passes its
   * account's {@code charge} and {@code release}); when the budget has no room, {@link #receive}
   * stops consuming and reports {@link #stalledFor()}. Call before the first receive.
   *
   * @param charge charges bytes, false (charging nothing) when the budget has no room
   * @param release gives charged bytes back
   */
  public void chargeMemoryTo(LongPredicate charge, LongConsumer release) {
    this.charge = Objects.requireNonNull(charge, "charge");
    this.release = Objects.requireNonNull(release, "release");
  }

  /**
   * Returns how many bytes of memory the last {@link #receive} waits for: when it is not 0, that
   * call stopped inside a request body and left the rest of its input unconsumed, to be fed again
   * once the budget has room (the transport stops reading meanwhile, so TCP slows the client).
   *
   * @return bytes wanted, or 0
   */
  public long stalledFor() {
    return stalledFor;
  }

  // ---------------------------------------------------------------------------------------------
  // Inbound

  /**
   * Feeds received bytes: reads and answers every request they complete.
   *
   * <p>Consumes all of {@code in}, except while more than {@link HttpLimits#maxQueuedBytes()}
   * response bytes wait to be written: the next request is then left in {@code in}, to be fed again
   * once {@link #written} has drained the queue. The bytes after an accepted upgrade request are
   * copied into the {@link WebSocketUpgrade}. Once {@link #shouldClose()}, bytes are consumed and
   * ignored.
   *
   * @param in the received bytes, position to limit
   * @param nowNanos the current time
   * @return the upgrade when these bytes completed an accepted WebSocket upgrade, else null
   * @throws IllegalStateException after an upgrade: the bytes belong to the WebSocket session
   */
  public WebSocketUpgrade<T> receive(ByteBuffer in, long nowNanos) {
    if (state == State.UPGRADED) {
      throw new IllegalStateException("the connection was upgraded: feed the WebSocket session");
    }
    stalledFor = 0;
    while (in.hasRemaining() && (state == State.HEAD || state == State.BODY)) {
      if (state == State.HEAD) {
        if (!requestStarted) {
          if (outboundBytes() > limits.maxQueuedBytes()) {
            return null; // the client is not reading its answers: leave the next request unread
          }
          requestStarted = true;
          requestStart = nowNanos;
        }
        HttpHead.Request head;
        try {
          head = parser.parse(in);
        } catch (HttpHeadException e) {
          fail(e.status(), e.getMessage(), false);
          break;
        }
        if (head == null) {
          return null;
        }
        onHead(head, in, nowNanos);
      } else {
        readBody(in, nowNanos);
        if (stalledFor > 0) {
          return null; // the body waits for memory: the rest stays in `in`
        }
      }
    }
    if (state == State.CLOSING) {
      in.position(in.limit());
    }
    return state == State.UPGRADED ? upgrade : null;
  }

  /**
   * Reports that the client closed its side of the stream. Responses already queued are still to be
   * written; an unfinished request is dropped. Then {@link #shouldClose()}.
   */
  public void receiveEnd() {
    if (state == State.HEAD || state == State.BODY) {
      boolean inside = state == State.BODY || requestStarted;
      closing(inside ? "the stream ended inside a request" : "the client closed the connection");
    }
  }

  private void onHead(HttpHead.Request head, ByteBuffer in, long now) {
    requestCount++;
    boolean isHead = head.method().equals("HEAD");
    try {
      request = Request.of(head, NOTHING);
    } catch (IllegalArgumentException e) {
      fail(HttpStatus.BAD_REQUEST, e.getMessage(), isHead);
      return;
    }
    int hosts = head.headers().count("Host");
    if (hosts > 1 || (hosts == 0 && head.minorVersion() >= 1)) {
      fail(
          HttpStatus.BAD_REQUEST,
          "an HTTP/1.1 request must carry exactly one Host field, had "
              + hosts
              + " (RFC 9112 §3.2)",
          isHead);
      return;
    }
    switch (router.find(head.method(), request.path())) {
      case Router.WebSocket<T> ws -> upgrade(head, ws, in);
      case Router.Plain<T> plain -> serve(head, plain.handler(), in, now);
    }
  }

  /** Reads the body of a request on a plain route, if it has one, then dispatches it. */
  private void serve(HttpHead.Request head, HttpHandler routeHandler, ByteBuffer in, long now) {
    handler = routeHandler;
    keepAlive = persists(head);
    long length;
    try {
      length = BodyLength.of(head, limits.maxBodySize());
    } catch (RequestException e) {
      fail(e.status(), e.getMessage(), isHead(request));
      return;
    }
    if (length == 0) {
      dispatch(request, now);
      return;
    }
    state = State.BODY;
    chunked = length == BodyLength.CHUNKED ? new ChunkedDecoder(limits.head().maxHeadSize()) : null;
    body =
        length == BodyLength.CHUNKED
            ? new BodyBuffer(limits.maxBodySize(), false, charge, release)
            : new BodyBuffer((int) length, true, charge, release);
    bodyRemaining = length;
    if (head.minorVersion() >= 1
        && head.headers().containsToken("Expect", "100-continue")
        && !in.hasRemaining()) {
      queue(CONTINUE.duplicate()); // the client waits for this before it sends the body
    }
  }

  /** Keep-alive rules of RFC 9112 §9.3, and the per-connection request limit. */
  private boolean persists(HttpHead.Request head) {
    boolean close = head.headers().containsToken("Connection", "close");
    boolean persists =
        head.minorVersion() >= 1
            ? !close
            : !close && head.headers().containsToken("Connection", "keep-alive");
    return persists && requestCount < limits.maxRequestsPerConnection();
  }

  private void readBody(ByteBuffer in, long now) {
    boolean done;
    try {
      if (chunked != null) {
        done = chunked.decode(in, body);
      } else {
        int n = (int) Math.min(in.remaining(), bodyRemaining);
        bodyRemaining -= body.take(in, n);
        done = bodyRemaining == 0;
      }
    } catch (RequestException e) {
      fail(e.status(), e.getMessage(), isHead(request));
      return;
    }
    if (done) {
      BodyBuffer whole = body;
      body = null;
      chunked = null;
      try {
        dispatch(request.withBody(whole.toBuffer()), now);
      } finally {
        whole.release(); // the handler has answered: what it kept of the body is its own
      }
    } else {
      stalledFor = body.wanted();
    }
  }

  /** Runs the handler and queues its answer; a throwing handler is answered 500. */
  private void dispatch(Request r, long now) {
    HttpResponse response;
    try {
      response = Objects.requireNonNull(handler.handle(r), "the handler returned no response");
    } catch (Exception e) {
      handlerFailure = e;
      fail(HttpStatus.INTERNAL_SERVER_ERROR, "the handler failed: " + e, isHead(r));
      return;
    }
    String connection = keepAlive ? (r.head().minorVersion() == 0 ? "keep-alive" : null) : "close";
    for (ByteBuffer b : ResponseWriter.encode(response, !isHead(r), connection)) {
      queue(b);
    }
    request = null;
    handler = null;
    if (keepAlive) {
      state = State.HEAD;
      requestStarted = false;
      waitStart = now;
    } else {
      closing(
          requestCount >= limits.maxRequestsPerConnection()
              ? "the connection carried its " + requestCount + " requests"
              : "the request asked to close the connection");
    }
  }

  private void upgrade(HttpHead.Request head, Router.WebSocket<T> ws, ByteBuffer in) {
    ServerHandshake.Result result;
    try {
      result = ServerHandshake.validate(head, ws.handshake());
    } catch (RuntimeException e) {
      handlerFailure = e; // an origin policy, subprotocol selector or extension factory threw
      fail(HttpStatus.INTERNAL_SERVER_ERROR, "the handshake hooks failed: " + e, false);
      return;
    }
    queue(result.response());
    if (result instanceof ServerHandshake.Rejected rejected) {
      refusal = rejected;
      closing(rejected.reason());
      return;
    }
    ByteBuffer received =
        in.hasRemaining() ? ByteBuffer.allocate(in.remaining()).put(in).flip() : NOTHING;
    upgrade = new WebSocketUpgrade<>((ServerHandshake.Accepted) result, ws.data(), received);
    state = State.UPGRADED;
  }

  /** Answers with an error page and closes. */
  private void fail(int status, String reason, boolean headRequest) {
    for (ByteBuffer b : ResponseWriter.encode(HttpResponse.error(status), !headRequest, "close")) {
      queue(b);
    }
    closing(reason);
  }

  private void closing(String reason) {
    state = State.CLOSING;
    closeReason = reason;
    request = null;
    handler = null;
    if (body != null) {
      body.release();
      body = null;
    }
    chunked = null;
  }

  private static boolean isHead(Request r) {
    return r.method().equals("HEAD");
  }

  // ---------------------------------------------------------------------------------------------
  // Time

  /**
   * Returns when {@link #onTimeout} should be called next: the request timeout while a request is
   * being received; while waiting for the next request, the idle timeout after the previous answer
   * (for a new connection, the request timeout after it opened).
   *
   * @return a time on the transport's clock, or {@link Long#MAX_VALUE} when none applies (after an
   *     upgrade, or once closing: the transport's write timeout governs a client that does not
   *     read)
   */
  public long deadlineNanos() {
    return switch (state) {
      case HEAD ->
          requestStarted
              ? requestStart + limits.requestTimeoutNanos()
              : waitStart
                  + (requestCount == 0 ? limits.requestTimeoutNanos() : limits.idleTimeoutNanos());
      case BODY -> requestStart + limits.requestTimeoutNanos();
      case UPGRADED, CLOSING -> Long.MAX_VALUE;
    };
  }

  /**
   * Acts on an expired deadline: a request still being received is answered 408 (RFC 9110 §15.5.9)
   * and the connection closes; a connection waiting for a request with nothing received closes
   * silently (RFC 9112 §9.5), unless answers are still being written, in which case the idle clock
   * restarts. Does nothing before the deadline.
   *
   * @param nowNanos the current time
   */
  public void onTimeout(long nowNanos) {
    long deadline = deadlineNanos();
    if (deadline == Long.MAX_VALUE || nowNanos - deadline < 0) {
      return;
    }
    if (state == State.BODY || requestStarted) {
      fail(408, "no complete request within " + limits.requestTimeoutNanos() + " ns", false);
    } else if (hasOutbound()) {
      waitStart = nowNanos;
    } else {
      closing("idle for " + (nowNanos - waitStart) + " ns");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // State

  /**
   * Returns whether the transport should close the connection once {@link #hasOutbound()} is false:
   * an error was answered, a request asked to close, the request limit was reached, the client
   * ended its stream, or the connection was idle too long.
   *
   * @return true once no more requests will be read
   */
  public boolean shouldClose() {
    return state == State.CLOSING;
  }

  /**
   * Returns the accepted upgrade, once there is one.
   *
   * @return the upgrade {@link #receive} returned, or null
   */
  public WebSocketUpgrade<T> upgrade() {
    return upgrade;
  }

  /**
   * Returns the upgrade request this connection refused by the rules of RFC 6455 §4.2 (a missing
   * or wrong field, a refused Origin): its answer was queued and the connection closes after it.
   *
   * @return the refusal, or null
   */
  public ServerHandshake.Rejected refusal() {
    return refusal;
  }

  /**
   * Returns how many request heads were read.
   *
   * @return zero or more
   */
  public int requestCount() {
    return requestCount;
  }

  /**
   * Returns why the connection is closing, for logs.
   *
   * @return the reason, or null while requests are still read
   */
  public String closeReason() {
    return closeReason;
  }

  /**
   * Returns what a handler (or a handshake hook) threw, for logs; the client got 500 without it.
   *
   * @return the exception, or null
   */
  public Exception handlerFailure() {
    return handlerFailure;
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes to write

  private void queue(ByteBuffer b) {
    int n = b.remaining();
    if (n == 0) {
      return;
    }
    outboundTotal += n;
    if (more == null && one == null) {
      one = b;
      oneLeft = n;
      return;
    }
    if (more == null) {
      more = new OutboundQueue();
      if (one != null) {
        more.add(one); // from what is still unwritten: its position is where the writer left it
        one = null;
      }
    }
    more.add(b);
  }

  /**
   * Returns whether bytes wait to be written.
   *
   * @return true while the outbound queue is not empty
   */
  public boolean hasOutbound() {
    return one != null || (more != null && !more.isEmpty());
  }

  /**
   * Returns how many bytes wait to be written.
   *
   * @return queued bytes not yet reported written
   */
  public long outboundBytes() {
    return one != null ? oneLeft : more == null ? 0 : more.queuedBytes();
  }

  /**
   * Returns how many bytes have ever been queued.
   *
   * @return the running total of queued bytes
   */
  public long outboundTotal() {
    return outboundTotal;
  }

  /**
   * Puts the queued buffers, oldest first, into {@code dst} for a gathering write. The writer
   * advances their positions as it writes, then calls {@link #written(long)}.
   *
   * @param dst where to put the buffers
   * @param offset the first index of {@code dst} to fill
   * @return how many buffers were put
   */
  public int gatherOutbound(ByteBuffer[] dst, int offset) {
    if (one == null) {
      return more == null ? 0 : more.gather(dst, offset);
    }
    if (offset >= dst.length) {
      return 0;
    }
    dst[offset] = one;
    return 1;
  }

  /**
   * Reports bytes written from the gathered buffers; drained buffers leave the queue.
   *
   * @param bytes how many bytes the write took
   */
  public void written(long bytes) {
    if (one == null) {
      if (more != null) {
        more.written(bytes);
      }
    } else if ((oneLeft -= bytes) == 0) {
      one = null;
    }
  }
}
