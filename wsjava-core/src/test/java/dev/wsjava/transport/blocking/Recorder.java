package dev.wsjava.transport.blocking;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionHandler;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Test handler: records what a connection reports; an echoing one sends every message back. */
class Recorder implements ConnectionHandler {
  record Message(Opcode type, byte[] bytes) {}

  record Close(int code, String reason) {}

  final boolean echo;
  final CompletableFuture<Connection> opened = new CompletableFuture<>();
  final BlockingQueue<Message> messages = new LinkedBlockingQueue<>();
  final List<Throwable> errors = new CopyOnWriteArrayList<>();
  final CompletableFuture<Close> closed = new CompletableFuture<>();
  final AtomicInteger closes = new AtomicInteger();
  final AtomicInteger pings = new AtomicInteger();
  final AtomicInteger pongs = new AtomicInteger();
  private final Semaphore pongsSeen = new Semaphore(0);
  final AtomicInteger writables = new AtomicInteger();

  Recorder(boolean echo) {
    this.echo = echo;
  }

  static Recorder echo() {
    return new Recorder(true);
  }

  static Recorder quiet() {
    return new Recorder(false);
  }

  /** The next message, waiting at most 10 s. */
  Message next() throws InterruptedException {
    Message m = messages.poll(10, TimeUnit.SECONDS);
    if (m == null) {
      throw new AssertionError("no message within 10 s; errors " + errors);
    }
    return m;
  }

  /** How the connection closed, waiting at most 10 s. */
  Close close() throws Exception {
    return closed.get(10, TimeUnit.SECONDS);
  }

  /** Waits, at most 10 s, until {@code count} pongs have arrived in all. */
  void awaitPongs(int count) throws InterruptedException {
    if (!pongsSeen.tryAcquire(count, 10, TimeUnit.SECONDS)) {
      throw new AssertionError(pongs.get() + " pongs of " + count + " within 10 s; errors " + errors);
    }
    pongsSeen.release(count);
  }

  @Override
  public void onOpen(Connection c) {
    opened.complete(c);
  }

  @Override
  public void onMessage(Connection c, Opcode type, ByteBuffer payload) {
    if (echo) {
      c.sendMessage(type, payload.duplicate());
    }
    byte[] bytes = new byte[payload.remaining()];
    payload.get(bytes);
    messages.add(new Message(type, bytes));
  }

  @Override
  public void onPing(Connection c, ByteBuffer payload) {
    pings.incrementAndGet();
  }

  @Override
  public void onPong(Connection c, ByteBuffer payload) {
    pongs.incrementAndGet();
    pongsSeen.release();
  }

  @Override
  public void onError(Connection c, Throwable error) {
    errors.add(error);
  }

  @Override
  public void onClose(Connection c, int code, String reason) {
    closes.incrementAndGet();
    closed.complete(new Close(code, reason));
  }

  @Override
  public void onWritable(Connection c) {
    writables.incrementAndGet();
  }
}
