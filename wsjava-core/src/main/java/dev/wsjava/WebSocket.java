package dev.wsjava;

import java.io.OutputStream;
import java.io.Writer;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An open WebSocket connection (RFC 6455), client or server side.
 *
 * <p>Thread safety: every method may be called from any thread. Sends from several threads never
 * interleave their frames; the read half ({@link #receive()}) and the write half may be used from
 * two threads at once.
 *
 * <p>Sending: each send returns a future completed when its bytes are written to the socket. The
 * outbound queue's rule ({@link WebSocketConfig.Builder#maxQueuedBytes}): an empty queue accepts a
 * message of any size; otherwise a send that would take the queue past its bound fails at once with
 * {@link SendQueueFullException} (the listener's {@link WebSocketListener#onWritable} reports the
 * drain). Code on virtual threads usually just waits: {@code ws.sendText(s).join()}. Payload
 * buffers are copied before the send returns, so the caller may reuse them at once.
 *
 * <p>Framing: a message (or a fragment given to {@link #sendBinary(ByteBuffer, boolean)}) whose
 * payload, compressed or not, is larger than {@link WebSocketConfig#maxOutboundFramePayload()} goes
 * out as several frames of at most that size; smaller ones go out as one frame. With
 * permessage-deflate a message is compressed unless compressing does not shrink it (then it goes
 * out as it is, RSV1 clear, as RFC 7692 allows). A message too large to hold in memory is sent
 * through {@link #sendBinaryStream()} or {@link #sendTextWriter()}.
 *
 * <p>Receiving: either a {@link WebSocketListener} given when the connection was made, or, without
 * one, {@link #receive()} in a loop.
 */
public interface WebSocket {

  /**
   * Sends a text message: one frame, or frames of at most {@link
   * WebSocketConfig#maxOutboundFramePayload()} when its UTF-8 (compressed) is larger.
   *
   * @param text the message
   * @return completed when written; failed with {@link SendQueueFullException} or {@link
   *     WebSocketClosedException}
   * @throws IllegalStateException after {@link #close} was called
   * @throws IllegalArgumentException when the text holds an unpaired surrogate (it cannot be
   *     UTF-8)
   */
  CompletableFuture<Void> sendText(CharSequence text);

  /**
   * Sends a binary message: one frame, or frames of at most {@link
   * WebSocketConfig#maxOutboundFramePayload()} when it (compressed) is larger. The whole message
   * is copied into the outbound queue; a message too large for memory goes through {@link
   * #sendBinaryStream()}.
   *
   * @param data the message, position to limit; copied before this returns
   * @return completed when written
   * @throws IllegalStateException after {@link #close} was called
   */
  CompletableFuture<Void> sendBinary(ByteBuffer data);

  /**
   * Sends a binary message, framed as {@link #sendBinary(ByteBuffer)} frames it.
   *
   * @param data the message; copied before this returns
   * @return completed when written
   * @throws IllegalStateException after {@link #close} was called
   */
  CompletableFuture<Void> sendBinary(byte[] data);

  /**
   * Sends one fragment of a text message; the first call starts the message, the call with {@code
   * last} ends it. Each part is one frame, or several of at most {@link
   * WebSocketConfig#maxOutboundFramePayload()} when it is larger. A surrogate pair may be split
   * between parts (the high surrogate then goes out with the next part). Until the last part, other
   * data messages cannot be sent on this connection (RFC 6455 §5.4: fragments are not interleaved);
   * pings and pongs can.
   *
   * @param part the fragment
   * @param last whether this ends the message
   * @return completed when written
   * @throws IllegalStateException when a binary message is being sent in fragments, or after close
   */
  CompletableFuture<Void> sendText(CharSequence part, boolean last);

  /**
   * Sends one fragment of a binary message: one frame, or several of at most {@link
   * WebSocketConfig#maxOutboundFramePayload()} when it is larger. Until the last part, other data
   * messages cannot be sent on this connection; pings and pongs can.
   *
   * @param part the fragment; copied before this returns
   * @param last whether this ends the message
   * @return completed when written
   * @throws IllegalStateException when a text message is being sent in fragments, or after close
   */
  CompletableFuture<Void> sendBinary(ByteBuffer part, boolean last);

  /**
   * Sends a binary message as a stream, for a message too large to hold: what is written goes out
   * as fragments of the message (each buffered up to 256 KiB, then framed as {@link
   * #sendBinary(ByteBuffer, boolean)} frames it), and {@link OutputStream#close()} sends the last
   * one and returns once it is written. Memory stays bounded whatever the size: the stream holds
   * its buffer and lets at most one fragment wait in the outbound queue, so {@code write} blocks
   * while the peer reads slowly (TCP's flow control reaches the writer), and a queue filled by
   * other sends is waited out rather than failed. {@code flush()} sends what is buffered as a
   * fragment. Sending a file: {@code try (var out = ws.sendBinaryStream()) { in.transferTo(out);
   * }}.
   *
   * <p>Blocks, so write from your own thread (a virtual thread, a {@link WebSocketHandler}), never
   * from a listener's callback: the callback's thread is the one that writes the connection. Until
   * the stream is closed, other data messages cannot be sent on this connection (a send fails with
   * {@link IllegalStateException}; topic messages wait); pings and pongs can. Not thread-safe: one
   * thread writes the stream. A failed send throws {@link java.io.IOException} ({@link
   * WebSocketClosedException} when the connection closed).
   *
   * @return the message's stream; close it to end the message
   * @throws IllegalStateException when called on the connection's I/O thread
   */
  default OutputStream sendBinaryStream() {
    return new SendStreams.Binary(this);
  }

  /**
   * Sends a text message as a stream of characters: the {@link #sendBinaryStream()} of text, with
   * the same framing, bounds, blocking and rules. Characters are buffered up to 64 Ki per fragment;
   * a surrogate pair may straddle two writes.
   *
   * @return the message's writer; close it to end the message
   * @throws IllegalStateException when called on the connection's I/O thread
   */
  default Writer sendTextWriter() {
    return new SendStreams.Text(this);
  }

  /**
   * Sends a ping; the pong arrives at {@link WebSocketListener#onPong}.
   *
   * @param data at most 125 bytes
   * @return completed when written
   * @throws IllegalArgumentException when longer than 125 bytes
   */
  CompletableFuture<Void> sendPing(ByteBuffer data);

  /**
   * Sends an unsolicited pong (a one-way heartbeat).
   *
   * @param data at most 125 bytes
   * @return completed when written
   * @throws IllegalArgumentException when longer than 125 bytes
   */
  CompletableFuture<Void> sendPong(ByteBuffer data);

  /**
   * Starts the closing handshake; nothing may be sent afterwards. The connection closes when the
   * peer answers, or after the close timeout.
   *
   * @param code 1000-1003, 1007-1014 or 3000-4999
   * @param reason a reason, at most 123 UTF-8 bytes (longer is cut at a character boundary)
   * @return completed when the connection is closed
   * @throws IllegalArgumentException when the code may not be sent
   */
  CompletableFuture<Void> close(int code, String reason);

  /**
   * Closes normally (1000) with no reason.
   *
   * @return completed when the connection is closed
   */
  default CompletableFuture<Void> close() {
    return close(CloseCode.NORMAL, "");
  }

  /** Closes the TCP connection at once, without a closing handshake. */
  void abort();

  /**
   * Waits for the next message (pull style, for connections made without a listener).
   *
   * @return the next text or binary message
   * @throws WebSocketClosedException when the connection closed; it carries the close code
   * @throws InterruptedException when the waiting thread is interrupted
   * @throws IllegalStateException when the connection has a listener
   */
  Message receive() throws WebSocketClosedException, InterruptedException;

  /**
   * Waits at most {@code timeout} for the next message.
   *
   * @param timeout how long to wait
   * @return the next message, or {@code null} when none arrived in time
   * @throws WebSocketClosedException when the connection closed
   * @throws InterruptedException when the waiting thread is interrupted
   */
  Message receive(Duration timeout) throws WebSocketClosedException, InterruptedException;

  /**
   * Waits for the next message as a stream (pull style, for connections made without a listener
   * whose configuration streams messages: {@link WebSocketConfig.Builder#streamMessages}). The
   * stream yields the message's bytes as they arrive and ends with the message; this connection is
   * not read while a piece it delivered has not been read from the stream, so a message of any size
   * is taken in constant memory and a slow reader slows the peer through TCP. Read each stream to
   * its end (or close it, which skips the rest of the message) before the next message can flow.
   * When the connection closes inside a message, the stream's read throws {@link
   * WebSocketClosedException}.
   *
   * @return the next message's stream
   * @throws WebSocketClosedException when the connection closed before the next message began
   * @throws InterruptedException when the waiting thread is interrupted
   * @throws IllegalStateException when the connection has a listener, or does not stream messages
   */
  default MessageStream receiveStream() throws WebSocketClosedException, InterruptedException {
    throw new IllegalStateException(getClass().getSimpleName() + " does not stream messages");
  }

  /**
   * Returns a future completed with this socket once it is open. A socket from {@link
   * WebSocketClient#connect} or a server is open from the start, so the future is complete at once
   * (failed when it is closed). A reconnecting client's socket ({@link
   * WebSocketClient.Builder#reconnect}) completes it at once while a connection is open, else when
   * the reconnection under way succeeds, and fails it with {@link WebSocketClosedException} when it
   * ends for good (closed by this end, or the attempts ran out). Sends while it reconnects fail at
   * once; the pattern that waits instead: {@code ws.opened().thenCompose(w -> w.sendText(s))}, or
   * on a virtual thread {@code ws.opened().get(10, SECONDS).sendText(s).join()}.
   *
   * @return completed with this socket when it is open; a new future after each disconnection
   */
  default CompletableFuture<WebSocket> opened() {
    return isOpen()
        ? CompletableFuture.completedFuture(this)
        : CompletableFuture.failedFuture(
            new WebSocketClosedException(CloseCode.ABNORMAL, "the connection is closed"));
  }

  /**
   * Returns whether messages may still be sent and received (no close sent or received yet).
   *
   * @return true while open
   */
  boolean isOpen();

  /**
   * Flow control that slows a peer rather than cutting it off: stops reading this connection
   * until everything queued to send so far has been written, then resumes by itself. Called from
   * a listener's event, the rest of what was already read waits too, so no further message
   * arrives before the queue drains. A handler that answers each message (an echo, a relay) calls
   * it when {@link #queuedBytes()} grows large: a peer that does not read its answers then meets
   * TCP backpressure on its sends, and gets every answer once it reads, instead of this end
   * failing sends with {@link SendQueueFullException}. Does nothing when nothing is queued.
   */
  void pauseReadingUntilSent();

  /**
   * Flow control for a listener that hands a streamed message ({@link
   * WebSocketListener#onMessagePart}) to another thread: stops reading this connection until
   * {@link #resumeReading()}, so the consumer holds one piece at a time and a slow one slows the
   * peer through TCP. The pause is its own: it does not end {@link #pauseReadingUntilSent()}'s, nor
   * that one this.
   *
   * <p>When it takes effect: called inside a listener event, on the connection's own thread, at
   * once: no further event (piece, message, ping, close) is delivered until the resume, even when
   * it came in the same read. Called from another thread, it takes effect soon, between two reads
   * or events; what is under way is delivered.
   *
   * <p>The pause is one flag, not a count: one resume ends any number of pauses. A resume called
   * from another thread is applied in the connection's own order (on the NIO transport, as a task
   * on its event loop), so it may land after a pause the connection's thread made in the meantime
   * and lift that one too. A consumer therefore resumes only a pause it has seen made (the
   * connection reads nothing while paused, so that resume lands before the next event), and
   * decides pause and resume under one lock of its own.
   *
   * <p>On a reconnecting connection it pauses the current connection; one made after a reconnect
   * starts reading.
   *
   * <p>Thread safety: may be called from any thread.
   */
  void pauseReading();

  /**
   * Ends {@link #pauseReading()}: the connection reads again, and events already read are
   * delivered. May be called from any thread; does nothing when reading is not paused. From
   * another thread than the connection's own, it takes effect a little later, in the connection's
   * order (see {@link #pauseReading()} for what that means for a pause made meanwhile).
   *
   * <p>Thread safety: may be called from any thread.
   */
  void resumeReading();

  /**
   * Returns the bytes queued for sending and not yet written.
   *
   * @return the outbound queue's size
   */
  long queuedBytes();

  /**
   * Returns the subprotocol the handshake chose.
   *
   * @return the subprotocol, or {@code null}
   */
  String subprotocol();

  /**
   * Returns the names of the negotiated extensions.
   *
   * @return for example {@code [permessage-deflate]}; empty when none
   */
  List<String> extensions();

  /**
   * Returns the request path (and query) of the handshake.
   *
   * @return for example {@code /chat?room=1}
   */
  String path();

  /**
   * Returns the peer's address.
   *
   * @return the remote address
   */
  SocketAddress remoteAddress();

  /**
   * Returns the upgrade request this server-side socket was opened with: headers, cookies, query
   * and path parameters, addresses, TLS peer. Kept for the connection's life, packed: every call
   * unpacks what is read from it, so read what you need once. When no handshake hook saw the
   * request (it has no path parameters and came over plain TCP), the socket keeps only its head
   * and each call returns a new view of it, equal in content; that view asks the socket for its
   * local address, which is null once the socket is closed.
   *
   * @return the request; null on a client-side socket
   */
  HandshakeRequest request();

  /**
   * Returns the header fields of the server's 101 response, on a client-side socket: cookies the
   * server set, custom fields.
   *
   * @return the fields; empty on a server-side socket
   */
  Headers responseHeaders();

  /**
   * Returns the per-connection state: what the handshake hook attached ({@link
   * HandshakeDecision#attach}) or {@link #attach} set last.
   *
   * @return the attachment, or null
   */
  Object attachment();

  /**
   * Returns the per-connection state as the type the application gave it.
   *
   * @param <T> the type
   * @param type its class
   * @return the attachment, or null when none
   * @throws ClassCastException when the attachment is of another type
   */
  default <T> T attachment(Class<T> type) {
    return type.cast(attachment());
  }

  /**
   * Replaces the per-connection state. Visible to every thread that reads {@link #attachment()}
   * afterwards.
   *
   * @param value the new state, or null
   */
  void attach(Object value);

  /**
   * Returns a future completed when the connection is closed (by either side, or by failure) and
   * its socket is closed: after the listener's {@code onClose}, and after this end's close frame
   * was written.
   *
   * @return the close future
   */
  CompletableFuture<Void> closeFuture();
}
