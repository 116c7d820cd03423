package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Our client's listener in the tests: records every event for the test thread to wait on. */
final class Recorder implements WebSocketListener {
  /** Text messages as String, binary ones as byte[]. */
  final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

  /** Pong payloads as UTF-8 strings. */
  final BlockingQueue<String> pongs = new LinkedBlockingQueue<>();

  /** "code reason" of onClose. */
  final CompletableFuture<String> closed = new CompletableFuture<>();

  final List<Throwable> errors = new CopyOnWriteArrayList<>();

  @Override
  public void onText(WebSocket ws, String text) {
    messages.add(text);
  }

  @Override
  public void onBinary(WebSocket ws, ByteBuffer data) {
    byte[] copy = new byte[data.remaining()];
    data.get(copy);
    messages.add(copy);
  }

  @Override
  public void onPong(WebSocket ws, ByteBuffer data) {
    pongs.add(StandardCharsets.UTF_8.decode(data).toString());
  }

  @Override
  public void onError(WebSocket ws, Throwable error) {
    errors.add(error);
  }

  @Override
  public void onClose(WebSocket ws, int code, String reason) {
    closed.complete(code + " " + reason);
  }

  Object next() throws InterruptedException {
    Object m = messages.poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(m).as("a message within %s (errors: %s, closed: %s)", Interop.WAIT, errors,
        closed.getNow(null)).isNotNull();
    return m;
  }

  String nextText() throws InterruptedException {
    return assertThat(next()).isInstanceOf(String.class).actual().toString();
  }

  byte[] nextBinary() throws InterruptedException {
    Object m = next();
    assertThat(m).isInstanceOf(byte[].class);
    return (byte[]) m;
  }

  String nextPong() throws InterruptedException {
    String p = pongs.poll(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(p).as("a pong within %s (errors: %s)", Interop.WAIT, errors).isNotNull();
    return p;
  }
}
