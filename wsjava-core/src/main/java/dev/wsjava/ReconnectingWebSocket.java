package dev.wsjava;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionHandler;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * A client {@link WebSocket} whose connection is replaced when it drops: the one object the user
 * holds, over a succession of {@link WebSocketImpl} connections. A close that ends it for good (the
 * application's own, a server's 1000, the client closing, or the attempts running out) is final;
 * any other close starts the {@link ReconnectPolicy}'s attempts on a virtual thread. Sends while no
 * connection is open fail at once; a pull-style reader waits across the gap.
 */
final class ReconnectingWebSocket implements WebSocket {
  private volatile Object attachment;
  private final WebSocketClient client;
  private final URI uri;
  private final String path;
  private final WebSocketListener listener;
  private final ReconnectPolicy policy;
  private final ReconnectListener events;
  /** The resume token and offsets of its topics, or null: not asked for. */
  private final TopicOffsets offsets;
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  /** Where the backoff waits: the system's, or a test's. */
  private final Clock clock;

  private final Object lock = new Object();
  // Guarded by lock:
  private WebSocketImpl current; // the open connection; null while reconnecting
  private WebSocketImpl last; // the latest connection that opened
  private boolean closing; // the application (or the client) closed: no more reconnecting
  private WebSocketClosedException ended; // set once, when it is over for good
  private Thread reconnector;
  private int attempts; // of the reconnection under way, for onReconnected
  private CompletableFuture<WebSocket> nextOpen; // what opened() handed out while none was open

  ReconnectingWebSocket(
      WebSocketClient client,
      URI uri,
      String path,
      WebSocketListener listener,
      ReconnectPolicy policy,
      ReconnectListener events,
      boolean resumeTopics,
      Clock clock) {
    this.client = client;
    this.clock = clock;
    this.offsets = resumeTopics ? new TopicOffsets() : null;
    this.uri = uri;
    this.path = path;
    this.listener = listener;
    this.policy = policy;
    this.events = events;
  }

  /** Makes the first connection; a failure there is the caller's, not retried. */
  CompletableFuture<WebSocket> start() {
    URI first = offsets == null ? uri : offsets.resumeUri(uri); // asks for tokens
    return client.open(first, new Generation(WebSocketClient.target(first))).thenApply(c -> this);
  }

  /** Stops for good: the client is closing (its transport aborts the connection). */
  void stop() {
    boolean endedNow;
    synchronized (lock) {
      endedNow = current == null && endNow(CloseCode.ABNORMAL, "the client closed while reconnecting");
      closing = true;
    }
    if (endedNow) {
      reportEnd(null);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // One connection's life, on its I/O thread

  /**
   * The handler of one connection: forwards to its {@link WebSocketImpl}, and decides at its close,
   * before the impl reports it, whether a reconnection follows.
   */
  private final class Generation implements ConnectionHandler {
    final WebSocketImpl impl;

    Generation(String target) {
      impl = listener == null
          ? new WebSocketImpl(target, ws -> opened(ws), null, null)
          : new WebSocketImpl(new Relay(), target);
    }

    /** Makes {@code ws} the open connection; false when this end closed meanwhile. */
    boolean opened(WebSocketImpl ws) {
      int tries;
      CompletableFuture<WebSocket> waiting;
      synchronized (lock) {
        if (closing) {
          ws.abort(); // closed while this attempt was connecting
          return false;
        }
        current = ws;
        last = ws;
        tries = attempts;
        attempts = 0;
        lock.notifyAll(); // a reader waits for this
        waiting = nextOpen;
        nextOpen = null;
      }
      if (waiting != null) {
        waiting.complete(ReconnectingWebSocket.this);
      }
      if (tries > 0) {
        events.onReconnected(ReconnectingWebSocket.this, tries);
      }
      return true;
    }

    @Override
    public void onHandshakeResponse(dev.wsjava.handshake.HttpHead.Response response) {
      impl.onHandshakeResponse(response);
    }

    @Override
    public void onOpen(Connection c) {
      impl.onOpen(c);
    }

    @Override
    public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
      impl.onMessage(c, type, payload);
    }

    @Override
    public void onMessagePart(Connection c, Opcode type, ByteBuffer chunk, boolean last) {
      impl.onMessagePart(c, type, chunk, last);
    }

    @Override
    public void onPing(Connection c, ByteBuffer payload) {
      impl.onPing(c, payload);
    }

    @Override
    public void onPong(Connection c, ByteBuffer payload) {
      impl.onPong(c, payload);
    }

    @Override
    public void onError(Connection c, Throwable error) {
      impl.onError(c, error);
    }

    @Override
    public void onWritable(Connection c) {
      impl.onWritable(c);
    }

    @Override
    public void onClose(Connection c, int code, String reason) {
      boolean reconnect;
      synchronized (lock) {
        reconnect = !closing && code != CloseCode.NORMAL && ended == null;
        if (reconnect) {
          if (current == impl) {
            current = null;
          }
          reconnector =
              Thread.ofVirtual()
                  .name("wsjava-reconnect")
                  .start(() -> reconnect(new WebSocketClosedException(code, reason),
                  code == CloseCode.SERVICE_RESTART));
        } else if (ended == null) {
          end(code, reason); // current stays: a reader drains what it holds, then sees the close
        }
        lock.notifyAll();
      }
      impl.onClose(c, code, reason);
      if (!reconnect) {
        impl.closeFuture().whenComplete((v, e) -> closed.complete(null));
      }
    }

    /** The user's listener sees the one stable WebSocket, and only the final close. */
    private final class Relay implements WebSocketListener {
      @Override
      public void onOpen(WebSocket ws) {
        if (opened((WebSocketImpl) ws)) {
          listener.onOpen(ReconnectingWebSocket.this);
        }
      }

      @Override
      public void onText(WebSocket ws, String text) {
        if (offsets == null || offsets.accept(text)) {
          listener.onText(ReconnectingWebSocket.this, text);
        }
      }

      @Override
      public void onBinary(WebSocket ws, ByteBuffer data) {
        if (offsets == null || offsets.accept(data)) {
          listener.onBinary(ReconnectingWebSocket.this, data);
        }
      }

      @Override
      public void onMessagePart(WebSocket ws, boolean text, ByteBuffer part, boolean last) {
        listener.onMessagePart(ReconnectingWebSocket.this, text, part, last);
      }

      @Override
      public void onPing(WebSocket ws, ByteBuffer data) {
        listener.onPing(ReconnectingWebSocket.this, data);
      }

      @Override
      public void onPong(WebSocket ws, ByteBuffer data) {
        listener.onPong(ReconnectingWebSocket.this, data);
      }

      @Override
      public void onWritable(WebSocket ws) {
        listener.onWritable(ReconnectingWebSocket.this);
      }

      @Override
      public void onError(WebSocket ws, Throwable error) {
        listener.onError(ReconnectingWebSocket.this, error);
      }

      @Override
      public void onClose(WebSocket ws, int code, String reason) {
        boolean last;
        synchronized (lock) {
          last = ended != null && current == ws;
        }
        if (last) {
          listener.onClose(ReconnectingWebSocket.this, code, reason);
        }
      }
    }
  }

  /**
   * Waits until no reconnection thread runs. Once the end is final none starts again, so a test
   * that sees this return true knows no attempt can follow, without sleeping to find out.
   *
   * @param timeout the longest wait
   * @return whether no reconnection thread runs
   * @throws InterruptedException when interrupted while waiting
   */
  boolean awaitNoReconnector(Duration timeout) throws InterruptedException {
    Thread t;
    synchronized (lock) {
      t = reconnector;
    }
    return t == null || t.join(timeout);
  }

  /** Marks the end for good; with the lock held. */
  private void end(int code, String reason) {
    ended = new WebSocketClosedException(code, reason);
    lock.notifyAll();
  }

  // ---------------------------------------------------------------------------------------------
  // Reconnecting, on its own virtual thread

  /**
   * Reconnects until it opens or the policy gives up.
   *
   * @param restart the server closed with 1012 (Service Restart, a node draining): the first
   *     wait is a short jittered one, so the clients of a drained node spread out and come back
   *     soon, elsewhere (see {@link ReconnectPolicy#delay(int, double, boolean)})
   */
  private void reconnect(Throwable cause, boolean restart) {
    for (int attempt = 1; policy.maxAttempts() == 0 || attempt <= policy.maxAttempts(); attempt++) {
      Duration delay = policy.delay(attempt, ThreadLocalRandom.current().nextDouble(), restart);
      events.onReconnecting(this, attempt, delay, cause);
      URI to = offsets == null ? uri : offsets.resumeUri(uri);
      Generation next = new Generation(WebSocketClient.target(to));
      synchronized (lock) {
        attempts = attempt;
      }
      try {
        clock.sleepUntil(clock.nanos() + delay.toNanos());
        synchronized (lock) {
          if (closing) {
            return;
          }
        }
        client.open(to, next).get();
        return; // open: the connection reported itself in opened()
      } catch (InterruptedException e) {
        return; // stopped: the application or the client closed
      } catch (ExecutionException e) {
        cause = e.getCause();
      } catch (IllegalStateException e) {
        cause = e; // the client closed under the attempt
        break;
      }
    }
    giveUp(cause);
  }

  private void giveUp(Throwable cause) {
    synchronized (lock) {
      if (!endNow(CloseCode.ABNORMAL, "gave up reconnecting: " + cause.getMessage())) {
        return;
      }
    }
    reportEnd(cause);
  }

  /**
   * Ends it while no connection is open: no more attempts. With the lock held; the caller then
   * calls {@link #reportEnd} without it.
   *
   * @return whether it ended now (false when it had already ended or was closing)
   */
  private boolean endNow(int code, String reason) {
    if (closing || ended != null) {
      return false;
    }
    closing = true;
    end(code, reason);
    if (reconnector != null && reconnector != Thread.currentThread()) {
      reconnector.interrupt();
    }
    return true;
  }

  /** Reports the end reached by {@link #endNow}: the listener's onClose, and the close future. */
  private void reportEnd(Throwable error) {
    if (listener != null) {
      if (error != null) {
        listener.onError(this, error);
      }
      listener.onClose(this, ended.code(), ended.reason());
    }
    closed.complete(null);
  }

  // ---------------------------------------------------------------------------------------------
  // WebSocket

  private WebSocketClosedException disconnected() {
    return ended != null
        ? ended
        : new WebSocketClosedException(
            CloseCode.ABNORMAL, "disconnected, reconnecting: messages are not buffered");
  }

  /** Runs a send on the open connection, or fails at once while there is none. */
  private CompletableFuture<Void> send(Function<WebSocket, CompletableFuture<Void>> op) {
    WebSocketImpl ws;
    synchronized (lock) {
      ws = current;
      if (ws == null) {
        if (closing) {
          throw new IllegalStateException("the connection was closed by this end");
        }
        return CompletableFuture.failedFuture(disconnected());
      }
    }
    return op.apply(ws);
  }

  @Override
  public CompletableFuture<Void> sendText(CharSequence text) {
    return send(ws -> ws.sendText(text));
  }

  @Override
  public CompletableFuture<Void> sendBinary(ByteBuffer data) {
    return send(ws -> ws.sendBinary(data));
  }

  @Override
  public CompletableFuture<Void> sendBinary(byte[] data) {
    return send(ws -> ws.sendBinary(data));
  }

  @Override
  public CompletableFuture<Void> sendText(CharSequence part, boolean last) {
    return send(ws -> ws.sendText(part, last));
  }

  @Override
  public CompletableFuture<Void> sendBinary(ByteBuffer part, boolean last) {
    return send(ws -> ws.sendBinary(part, last));
  }

  @Override
  public CompletableFuture<Void> sendPing(ByteBuffer data) {
    return send(ws -> ws.sendPing(data));
  }

  @Override
  public CompletableFuture<Void> sendPong(ByteBuffer data) {
    return send(ws -> ws.sendPong(data));
  }

  @Override
  public CompletableFuture<Void> close(int code, String reason) {
    WebSocketImpl ws;
    boolean endedNow = false;
    synchronized (lock) {
      ws = current;
      if (ws == null) {
        endedNow = endNow(code, reason);
      } else {
        closing = true;
      }
    }
    if (ws == null) {
      if (endedNow) {
        reportEnd(null); // this end's code: there is no peer to answer
      }
      return closed;
    }
    try {
      ws.close(code, reason);
    } catch (RuntimeException e) {
      synchronized (lock) {
        closing = false; // a code that may not be sent: nothing happened
      }
      throw e;
    }
    return closed;
  }

  @Override
  public void abort() {
    WebSocketImpl ws;
    synchronized (lock) {
      ws = current;
      if (ws != null) {
        closing = true;
      }
    }
    if (ws == null) {
      close(CloseCode.ABNORMAL, "aborted while reconnecting");
    } else {
      ws.abort();
    }
  }

  @Override
  public Message receive() throws WebSocketClosedException, InterruptedException {
    return receive(-1);
  }

  @Override
  public Message receive(Duration timeout) throws WebSocketClosedException, InterruptedException {
    return receive(System.nanoTime() + timeout.toNanos());
  }

  /**
   * The next message's stream, from the open connection; waits across reconnections. A stream
   * taken before its connection dropped ends with {@link WebSocketClosedException} (1006); the
   * next call returns the first message of the next connection.
   */
  @Override
  public MessageStream receiveStream() throws WebSocketClosedException, InterruptedException {
    return acrossReconnections(-1, (ws, deadline) -> ws.receiveStream());
  }

  /** Reads from the open connection, waiting across reconnections; deadline -1 for none. */
  private Message receive(long deadline) throws WebSocketClosedException, InterruptedException {
    return acrossReconnections(deadline, (ws, until) -> until == -1
        ? ws.receive()
        : ws.receive(Duration.ofNanos(Math.max(0, until - System.nanoTime()))));
  }

  /** One pull-style read from one connection, by a {@link System#nanoTime()} deadline or -1. */
  private interface Read<T> {
    T from(WebSocketImpl ws, long deadline) throws WebSocketClosedException, InterruptedException;
  }

  /**
   * Reads from the open connection; when it drops, waits for the next one and reads from that.
   * Null when the deadline passes while no connection is open.
   */
  private <T> T acrossReconnections(long deadline, Read<T> read)
      throws WebSocketClosedException, InterruptedException {
    if (listener != null) {
      throw new IllegalStateException(
          "this connection delivers messages to its listener; receive() is for connections made"
              + " without one");
    }
    WebSocketImpl reading = null;
    while (true) {
      synchronized (lock) {
        while (current == null || current == reading) {
          if (ended != null && current == null) {
            throw ended;
          }
          long left = deadline == -1 ? 0 : (deadline - System.nanoTime()) / 1_000_000;
          if (deadline != -1 && left <= 0) {
            return null;
          }
          lock.wait(deadline == -1 ? 0 : Math.max(1, left));
        }
        reading = current;
      }
      try {
        return read.from(reading, deadline);
      } catch (WebSocketClosedException e) {
        synchronized (lock) {
          if (ended != null && current == reading) {
            throw e; // the final connection's close
          }
        }
        // that connection dropped; wait for the next
      }
    }
  }

  /**
   * Completes with this socket when a connection is open: at once when one is, else when the
   * reconnection under way succeeds; fails when it ends for good instead.
   */
  @Override
  public CompletableFuture<WebSocket> opened() {
    CompletableFuture<WebSocket> f;
    synchronized (lock) {
      if (current != null && current.isOpen() && ended == null) {
        return CompletableFuture.completedFuture(this);
      }
      if (ended != null) {
        return CompletableFuture.failedFuture(ended);
      }
      if (nextOpen == null) {
        nextOpen = new CompletableFuture<>();
        closed.whenComplete((v, e) -> failOpened()); // the end for good, however it came
      }
      f = nextOpen;
    }
    return f.copy(); // the caller cannot complete the shared one
  }

  private void failOpened() {
    CompletableFuture<WebSocket> f;
    WebSocketClosedException why;
    synchronized (lock) {
      f = nextOpen;
      nextOpen = null;
      why = ended != null ? ended : new WebSocketClosedException(CloseCode.ABNORMAL, "closed");
    }
    if (f != null) {
      f.completeExceptionally(why);
    }
  }

  @Override
  public boolean isOpen() {
    WebSocketImpl ws;
    synchronized (lock) {
      ws = current;
    }
    return ws != null && ws.isOpen();
  }

  @Override
  public void pauseReadingUntilSent() {
    WebSocketImpl ws;
    synchronized (lock) {
      ws = current;
    }
    if (ws != null) {
      ws.pauseReadingUntilSent();
    }
  }

  private WebSocketImpl currentConnection() {
    synchronized (lock) {
      return current;
    }
  }

  @Override
  public void pauseReading() {
    WebSocketImpl ws = currentConnection();
    if (ws != null) {
      ws.pauseReading(); // a connection made after a reconnect starts reading
    }
  }

  @Override
  public void resumeReading() {
    WebSocketImpl ws = currentConnection();
    if (ws != null) {
      ws.resumeReading(); // a connection made after a reconnect starts reading
    }
  }

  @Override
  public long queuedBytes() {
    WebSocketImpl ws;
    synchronized (lock) {
      ws = current;
    }
    return ws == null ? 0 : ws.queuedBytes();
  }

  private WebSocketImpl latest() {
    synchronized (lock) {
      return last;
    }
  }

  @Override
  public java.io.OutputStream sendBinaryStream() {
    latest().checkMayBlock(); // the I/O thread of any of its connections would wait on itself
    return WebSocket.super.sendBinaryStream();
  }

  @Override
  public java.io.Writer sendTextWriter() {
    latest().checkMayBlock();
    return WebSocket.super.sendTextWriter();
  }

  @Override
  public String subprotocol() {
    return latest().subprotocol();
  }

  @Override
  public List<String> extensions() {
    return latest().extensions();
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public SocketAddress remoteAddress() {
    return latest().remoteAddress();
  }

  /** A client-side socket: no request of a server's. */
  @Override
  public HandshakeRequest request() {
    return null;
  }

  /** The 101 fields of the current connection. */
  @Override
  public dev.wsjava.Headers responseHeaders() {
    return latest().responseHeaders();
  }

  /** Kept across reconnections. */
  @Override
  public Object attachment() {
    return attachment;
  }

  @Override
  public void attach(Object value) {
    attachment = value;
  }

  @Override
  public CompletableFuture<Void> closeFuture() {
    return closed;
  }

  @Override
  public String toString() {
    return "WebSocket[" + path + " " + uri.getHost() + ", reconnecting]";
  }
}
