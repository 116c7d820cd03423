package dev.wsjava.transport.nio;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionHandler;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A handler that records what it is told; optionally echoes every message back. */
class Events implements ConnectionHandler {
  record Message(Opcode type, byte[] data) {}

  record Closed(int code, String reason) {}

  final boolean echo;
  final CompletableFuture<Connection> opened = new CompletableFuture<>();
  final CompletableFuture<Closed> closed = new CompletableFuture<>();
  final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
  final BlockingQueue<byte[]> pings = new LinkedBlockingQueue<>();
  final List<Throwable> errors = new CopyOnWriteArrayList<>();
  volatile int closeCalls;

  Events(boolean echo) {
    this.echo = echo;
  }

  static Events echo() {
    return new Events(true);
  }

  static Events record() {
    return new Events(false);
  }

  @Override
  public void onOpen(Connection c) {
    opened.complete(c);
  }

  @Override
  public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
    if (echo) {
      c.sendMessage(type, payload);
      return;
    }
    byte[] b = new byte[payload.remaining()];
    payload.get(b);
    messages.add(new Message(type, b));
  }

  @Override
  public void onPing(Connection c, ByteBuffer payload) {
    byte[] b = new byte[payload.remaining()];
    payload.get(b);
    pings.add(b);
  }

  @Override
  public void onPong(Connection c, ByteBuffer payload) {}

  @Override
  public void onError(Connection c, Throwable error) {
    errors.add(error);
  }

  @Override
  public void onClose(Connection c, int code, String reason) {
    closeCalls++;
    closed.complete(new Closed(code, reason));
  }

  @Override
  public void onWritable(Connection c) {}

  Message next(Duration timeout) throws InterruptedException {
    Message m = messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (m == null) {
      throw new AssertionError("no message within " + timeout);
    }
    return m;
  }

  Closed awaitClose(Duration timeout) throws Exception {
    return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
