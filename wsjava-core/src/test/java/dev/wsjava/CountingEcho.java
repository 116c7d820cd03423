package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.handshake.HandshakeException;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Test helper for the server's front end to end: an echo listener that counts what the server
 * reports, and the answer a client gets to an upgrade. The counts matter because the server
 * reports a connection open after the client has seen the 101, and closed after the client's close
 * completed: a test that reads the server's counters waits for these first.
 */
final class CountingEcho implements WebSocketListener {
  private final Semaphore opened = new Semaphore(0);
  private final Semaphore closed = new Semaphore(0);

  @Override
  public void onOpen(WebSocket ws) {
    opened.release();
  }

  @Override
  public void onText(WebSocket ws, String text) {
    ws.sendText(text);
  }

  @Override
  public void onClose(WebSocket ws, int code, String reason) {
    closed.release();
  }

  /** Waits, at most 10 s, until the server has reported {@code count} more connections open. */
  void awaitOpened(int count) throws InterruptedException {
    assertThat(opened.tryAcquire(count, 10, TimeUnit.SECONDS))
        .as("the server reported " + count + " more open").isTrue();
  }

  /** Waits, at most 10 s, until the server has reported {@code count} more connections closed. */
  void awaitClosed(int count) throws InterruptedException {
    assertThat(closed.tryAcquire(count, 10, TimeUnit.SECONDS))
        .as("the server reported " + count + " more closed").isTrue();
  }

  /**
   * Asks for an upgrade and returns the refusal, or null when it was accepted (the socket is then
   * aborted at once).
   */
  static HandshakeException refusal(WebSocketClient client, URI uri) throws Exception {
    try {
      client.connect(uri).get(10, TimeUnit.SECONDS).abort();
      return null;
    } catch (ExecutionException e) {
      return (HandshakeException) e.getCause();
    }
  }

  /** The status of the answer to an upgrade: 101, or the refusal's. */
  static int status(WebSocketClient client, URI uri) throws Exception {
    HandshakeException refused = refusal(client, uri);
    return refused == null ? 101 : refused.status();
  }
}
