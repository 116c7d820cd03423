package dev.wsjava.jakarta.internal;

import dev.wsjava.WebSocket;
import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;

/** The blocking remote of a session (see {@link Sends} for how it waits). Thread-safe. */
final class BasicRemote implements RemoteEndpoint.Basic {
  private final JSession s;
  private volatile boolean batching;

  BasicRemote(JSession s) {
    this.s = s;
  }

  @Override
  public void sendText(String text) throws IOException {
    check(text);
    if (JSession.inCallback()) {
      WebSocket ws = Sends.socket(s); // the hot path: no capture
      Sends.queued(s, ws, ws.sendText(text), text.length());
      return;
    }
    Sends.blocking(s, () -> s.ws.sendText(text));
  }

  @Override
  public void sendBinary(ByteBuffer data) throws IOException {
    check(data);
    if (JSession.inCallback()) {
      WebSocket ws = Sends.socket(s);
      int size = data.remaining();
      Sends.queued(s, ws, ws.sendBinary(data), size);
      return;
    }
    Sends.blocking(s, () -> s.ws.sendBinary(data));
  }

  @Override
  public void sendText(String part, boolean last) throws IOException {
    check(part);
    Sends.part(s, part, null, last);
  }

  @Override
  public void sendBinary(ByteBuffer part, boolean last) throws IOException {
    check(part);
    Sends.part(s, null, part, last);
  }

  @Override
  public OutputStream getSendStream() throws IOException {
    Sends.socket(s);
    return new Sends.PartStream(s);
  }

  @Override
  public Writer getSendWriter() throws IOException {
    Sends.socket(s);
    return new Sends.PartWriter(s);
  }

  @Override
  public void sendObject(Object data) throws IOException, EncodeException {
    check(data);
    java.util.concurrent.CompletableFuture<Void> f = Sends.object(s, data);
    if (JSession.inCallback()) {
      Sends.queued(s, Sends.socket(s), f, Sends.LOOK_EVERY);
      return;
    }
    Sends.await(f);
  }

  @Override
  public void setBatchingAllowed(boolean allowed) {
    batching = allowed; // sends are gathered into one write anyway
  }

  @Override
  public boolean getBatchingAllowed() {
    return batching;
  }

  @Override
  public void flushBatch() {}

  @Override
  public void sendPing(ByteBuffer data) throws IOException {
    ping(s, data, true);
  }

  @Override
  public void sendPong(ByteBuffer data) throws IOException {
    ping(s, data, false);
  }

  static void ping(JSession s, ByteBuffer data, boolean ping) throws IOException {
    ByteBuffer d = data == null ? ByteBuffer.allocate(0) : data;
    if (d.remaining() > 125) {
      throw new IllegalArgumentException("a ping or pong carries at most 125 bytes: " + d.remaining());
    }
    Sends.blocking(s, () -> ping ? s.ws.sendPing(d) : s.ws.sendPong(d));
  }

  private static void check(Object o) {
    if (o == null) {
      throw new IllegalArgumentException("cannot send null");
    }
  }
}
