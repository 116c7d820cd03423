package dev.wsjava.transport.nio;

import dev.wsjava.extension.Extension;
import dev.wsjava.handshake.HttpStatus;
import dev.wsjava.protocol.Role;
import dev.wsjava.transport.ConnectionHandler;
import dev.wsjava.transport.HandshakeInfo;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One accepted socket before it is a WebSocket: the TLS handshake if configured, then the upgrade
 * request through the server's {@link UpgradeFront}, all within the handshake timeout. On success
 * it hands the socket, its key, its TLS state and the bytes that followed the request head to a new
 * {@link NioConnection}; on refusal it writes the error response and closes.
 *
 * <p>Loop thread only.
 */
final class ServerUpgrade implements Selectable {
  /** Reads per readiness event at most. */
  private static final int MAX_READS = 8;

  private final NioServer server;
  private final EventLoop loop;
  private final SocketChannel channel;
  private final UpgradeFront front;
  private SelectionKey key;
  private Io io;
  private Timer timer;
  private ByteBuffer out;
  private boolean done;

  ServerUpgrade(NioServer server, EventLoop loop, SocketChannel channel, UpgradeFront front) {
    this.server = server;
    this.loop = loop;
    this.channel = channel;
    this.front = front;
  }

  EventLoop loop() {
    return loop;
  }

  /** Registers the socket and starts the handshake clock. */
  void start() {
    try {
      timer = loop.schedule(server.connectionConfig().handshakeTimeout(), this::close);
      key = loop.register(channel, SelectionKey.OP_READ, this);
      io =
          server.tls() == null
              ? new PlainIo(channel)
              : TlsIo.server(channel, server.tls(), loop.pool(), readSize());
    } catch (IOException | RuntimeException e) {
      close();
    }
  }

  private int readSize() {
    return server.connectionConfig().readBufferSize();
  }

  @Override
  public void ready(int readyOps) {
    try {
      proceed();
    } catch (IOException | RuntimeException e) {
      close();
    }
  }

  @Override
  public void forceClose() {
    close();
  }

  private void proceed() throws IOException {
    if (done) {
      return;
    }
    if (out != null || io.hasPendingOutput()) {
      if (!writePending()) {
        return;
      }
      if (front.mustClose()) {
        close();
        return;
      }
    }
    for (int i = 0; i < MAX_READS && !done; i++) {
      ByteBuffer buf = loop.pool().acquire(Math.max(readSize(), io.minReadBuffer()));
      try {
        int n = io.read(buf);
        if (n < 0) {
          close();
          return;
        }
        if (n == 0) {
          break;
        }
        buf.flip();
        UpgradeFront.Upgrade upgrade = front.receive(buf);
        if (upgrade != null) {
          upgrade(upgrade, buf);
          return;
        }
        ByteBuffer response = front.output();
        if (response != null) {
          out = response;
          if (!writePending()) {
            return;
          }
        }
        if (front.mustClose()) {
          close();
          return;
        }
      } finally {
        loop.pool().release(buf);
      }
    }
    if (!done) {
      interest();
      if (io.hasBufferedInput()) {
        loop.execute(() -> ready(SelectionKey.OP_READ));
      }
    }
  }

  /** Writes the pending response; false (and write interest) when the socket is full. */
  private boolean writePending() throws IOException {
    if (out != null) {
      io.write(new ByteBuffer[] {out}, 0, 1);
      if (!out.hasRemaining()) {
        out = null;
      }
    }
    if (!io.flush() || out != null) {
      interest();
      return false;
    }
    return true;
  }

  private void interest() {
    boolean write = out != null || io.hasPendingOutput();
    key.interestOps(SelectionKey.OP_READ | (write ? SelectionKey.OP_WRITE : 0));
  }

  private void upgrade(UpgradeFront.Upgrade upgrade, ByteBuffer leftover) throws IOException {
    SocketAddress remote = null;
    try {
      remote = channel.getRemoteAddress();
    } catch (IOException ignored) {
      // unknown peer address: the factory gets null
    }
    ConnectionHandler handler = null;
    int status = HttpStatus.NOT_FOUND;
    String refusal;
    if (server.isShuttingDown()) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      refusal = "the server is shutting down";
    } else {
      HandshakeInfo info =
          new HandshakeInfo(
              upgrade.request(),
              upgrade.subprotocol(),
              upgrade.extensions().stream().map(Extension::name).toList(),
              remote);
      try {
        handler = server.handlerFor(info);
        refusal = "no handler for " + info.target();
      } catch (RuntimeException e) {
        status = HttpStatus.INTERNAL_SERVER_ERROR;
        refusal = "the handler factory failed: " + e;
      }
    }
    if (handler == null) {
      front.refuse(upgrade, status, refusal);
      out = front.output();
      if (writePending()) {
        close();
      }
      return;
    }
    done = true;
    timer.cancel();
    NioConnection connection =
        new NioConnection(
            loop,
            channel,
            key,
            io,
            Role.SERVER,
            server.connectionConfig(),
            handler,
            upgrade.subprotocol(),
            upgrade.extensions(),
            upgrade.response(),
            server::connectionClosed);
    server.upgraded(this, connection);
    connection.start(leftover, null);
  }

  /** Closes the socket before any upgrade (timeout, refusal, error, hang-up); idempotent. */
  void close() {
    if (done) {
      return;
    }
    done = true;
    if (timer != null) {
      timer.cancel();
    }
    if (key != null) {
      key.cancel();
    }
    if (io != null) {
      io.close();
    } else {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    server.upgradeClosed(this);
  }
}
