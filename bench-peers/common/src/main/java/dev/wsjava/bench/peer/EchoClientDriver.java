package dev.wsjava.bench.peer;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A WebSocket client library seen by {@link ClientBench} (scenario 8): connect, send, and hand every
 * whole message received to an {@link Inbound}. One implementation per library, each in its own
 * process with its own classpath.
 */
public interface EchoClientDriver extends AutoCloseable {

  /** Where a connection's received messages go; called on the library's threads. */
  interface Inbound {
    /**
     * A whole text message arrived.
     *
     * @param text the message
     */
    void onText(CharSequence text);

    /**
     * A whole binary message arrived.
     *
     * @param data the message, valid only during the call
     */
    void onBinary(ByteBuffer data);

    /**
     * The connection failed or closed unexpectedly.
     *
     * @param error why
     */
    void onError(Throwable error);
  }

  /** One open connection. */
  interface Connection {
    /**
     * Sends a text message.
     *
     * @param text the message
     * @return completed when the library is done with the message (written, or queued by a
     *     library that copies)
     */
    CompletableFuture<?> sendText(String text);

    /**
     * Sends a binary message; the buffer is not touched again until the future completes.
     *
     * @param data the message
     * @return completed when the library is done with the buffer
     */
    CompletableFuture<?> sendBinary(ByteBuffer data);

    /** Closes the connection (normal closure), waiting a bounded time. */
    void close();
  }

  /**
   * Returns the library and transport, for the report.
   *
   * @return for example {@code okhttp 5.5.1}
   */
  String describe();

  /**
   * Opens a connection (permessage-deflate off).
   *
   * @param uri the echo endpoint
   * @param inbound where received messages go
   * @return the open connection
   * @throws Exception when the handshake fails
   */
  Connection connect(URI uri, Inbound inbound) throws Exception;

  /** Releases the library's threads and pools. */
  @Override
  void close();
}
