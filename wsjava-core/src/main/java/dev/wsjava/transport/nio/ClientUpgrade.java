package dev.wsjava.transport.nio;

import dev.wsjava.handshake.ClientHandshake;
import dev.wsjava.handshake.HandshakeException;
import dev.wsjava.protocol.Role;
import dev.wsjava.proxy.Tunnel;
import dev.wsjava.proxy.TunnelException;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionHandler;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * One client socket before it is a WebSocket: the TCP connect, the proxy tunnel when there is a
 * proxy, the TLS handshake for wss (through the tunnel, for the server's host name), the upgrade
 * request and the server's answer, all within the handshake timeout. On success it hands
 * everything (and any frame bytes that came with the 101) to a new {@link NioConnection} and
 * completes the caller's future; on failure it closes the socket and fails the future with the
 * reason.
 *
 * <p>Loop thread only.
 */
final class ClientUpgrade implements Selectable {
  private static final int MAX_ROUNDS = 16;

  private final NioClient client;
  private final EventLoop loop;
  private final SocketChannel channel;
  private final InetSocketAddress address;
  private final String host;
  private final int port;
  private final boolean secure;
  private final ClientHandshake handshake;
  private final ByteBuffer request;
  private final ConnectionHandler handler;
  private final CompletableFuture<Connection> result;
  private SelectionKey key;
  private Io io;
  private Timer timer;
  private boolean done;

  /** The proxy tunnel while it is being set up; null without a proxy and once it is open. */
  private Tunnel tunnel;

  /** The proxy's bytes being read during the tunnel setup. */
  private ByteBuffer tunnelIn;

  /** Bytes that came through the tunnel with the proxy's last answer, for the handshake. */
  private ByteBuffer early;

  ClientUpgrade(
      NioClient client,
      EventLoop loop,
      SocketChannel channel,
      InetSocketAddress address,
      Tunnel tunnel,
      String host,
      int port,
      boolean secure,
      ClientHandshake handshake,
      ConnectionHandler handler,
      CompletableFuture<Connection> result) {
    this.client = client;
    this.loop = loop;
    this.channel = channel;
    this.address = address;
    this.tunnel = tunnel;
    this.host = host;
    this.port = port;
    this.secure = secure;
    this.handshake = handshake;
    this.request = handshake.request();
    this.handler = handler;
    this.result = result;
  }

  EventLoop loop() {
    return loop;
  }

  /** Starts the connect and the handshake clock. */
  void start() {
    try {
      timer =
          loop.schedule(
              client.connectionConfig().handshakeTimeout(),
              () ->
                  fail(
                      new SocketTimeoutException(
                          "WebSocket handshake with "
                              + Tunnel.authority(host, port)
                              + " did not complete within "
                              + client.connectionConfig().handshakeTimeout().toMillis()
                              + " ms"
                              + (tunnel == null
                                  ? ""
                                  : " (proxy " + tunnel.proxy() + " had not opened the tunnel)"))));
      boolean connected = channel.connect(address);
      key = loop.register(channel, connected ? 0 : SelectionKey.OP_CONNECT, this);
      if (connected) {
        connected();
      }
    } catch (IOException | HandshakeException | RuntimeException e) {
      fail(e);
    }
  }

  @Override
  public void ready(int readyOps) {
    try {
      if ((readyOps & SelectionKey.OP_CONNECT) != 0) {
        if (finishConnect()) {
          connected();
        }
        return;
      }
      if (tunnel != null) {
        tunnelStep();
      } else {
        proceed();
      }
    } catch (IOException | HandshakeException | RuntimeException e) {
      fail(e);
    }
  }

  @Override
  public void forceClose() {
    fail(
        new IOException(
            "aborted during the WebSocket handshake: the client closed or its event loop stopped"));
  }

  private boolean finishConnect() throws IOException {
    try {
      return channel.finishConnect();
    } catch (IOException e) {
      throw tunnel == null ? e : TunnelException.unreachable(tunnel.proxy(), e);
    }
  }

  private void connected() throws IOException, HandshakeException {
    if (tunnel != null) {
      tunnelStep();
    } else {
      openStream();
    }
  }

  /**
   * Moves the tunnel setup as far as the socket allows: writes what the tunnel has to send, reads
   * and feeds the proxy's answer; once the tunnel is open, goes on to TLS and the upgrade.
   */
  private void tunnelStep() throws IOException, HandshakeException {
    try {
      while (true) {
        ByteBuffer out = tunnel.output();
        if (out != null && out.hasRemaining()) {
          channel.write(out);
          if (out.hasRemaining()) {
            key.interestOps(SelectionKey.OP_WRITE);
            return;
          }
        }
        if (tunnelIn == null) {
          tunnelIn = ByteBuffer.allocate(1024);
        }
        tunnelIn.clear();
        int n = channel.read(tunnelIn);
        if (n < 0) {
          throw tunnel.endOfStream();
        }
        if (n == 0) {
          key.interestOps(SelectionKey.OP_READ);
          return;
        }
        tunnelIn.flip();
        if (tunnel.receive(tunnelIn) == Tunnel.Step.DONE) {
          break;
        }
      }
    } catch (TunnelException e) {
      throw e;
    } catch (IOException e) {
      throw new TunnelException(
          tunnel.proxy(),
          "proxy " + tunnel.proxy() + " failed while opening the tunnel: " + e.getMessage(),
          e);
    }
    if (tunnelIn.hasRemaining()) {
      if (secure) {
        throw TunnelException.bytesBeforeTls(tunnel.proxy(), tunnelIn.remaining());
      }
      early = tunnelIn;
    }
    tunnel = null;
    tunnelIn = null;
    openStream();
  }

  /** Starts the byte stream the handshake runs on: TLS for wss, else the socket itself. */
  private void openStream() throws IOException, HandshakeException {
    io =
        secure
            ? TlsIo.client(
                channel,
                client.sslContext(),
                host,
                port,
                client.verifyHostname(),
                loop.pool(),
                client.connectionConfig().readBufferSize())
            : new PlainIo(channel);
    proceed();
  }

  private void proceed() throws IOException, HandshakeException {
    for (int round = 0; round < MAX_ROUNDS && !done; round++) {
      if (!io.flush()) {
        break;
      }
      boolean progress = false;
      if (request.hasRemaining()) {
        int before = request.remaining();
        io.write(new ByteBuffer[] {request}, 0, 1);
        progress = request.remaining() != before;
      }
      int n = readOnce();
      if (n < 0 || done) {
        return;
      }
      if (n == 0 && !progress) {
        break;
      }
    }
    if (!done) {
      boolean write = io.hasPendingOutput() || (request.hasRemaining() && io.handshake());
      key.interestOps(SelectionKey.OP_READ | (write ? SelectionKey.OP_WRITE : 0));
      if (io.hasBufferedInput()) {
        loop.execute(() -> ready(SelectionKey.OP_READ));
      }
    }
  }

  /** Reads once and feeds the response parser; -1 when the handshake ended (either way). */
  private int readOnce() throws IOException, HandshakeException {
    if (early != null) {
      ByteBuffer bytes = early;
      early = null;
      ClientHandshake.Result r = handshake.receive(bytes);
      if (r != null) {
        upgraded(r, bytes);
        return -1;
      }
      return bytes.limit();
    }
    ByteBuffer buf =
        loop.pool()
            .acquire(Math.max(client.connectionConfig().readBufferSize(), io.minReadBuffer()));
    try {
      int n = io.read(buf);
      if (n < 0) {
        throw new EOFException(
            "the server closed the connection before answering the WebSocket handshake");
      }
      if (n == 0) {
        return 0;
      }
      buf.flip();
      ClientHandshake.Result r = handshake.receive(buf);
      if (r != null) {
        upgraded(r, buf);
        return -1;
      }
      return n;
    } finally {
      loop.pool().release(buf);
    }
  }

  private void upgraded(ClientHandshake.Result r, ByteBuffer leftover) {
    done = true;
    timer.cancel();
    handler.onHandshakeResponse(r.response());
    NioConnection connection =
        new NioConnection(
            loop,
            channel,
            key,
            io,
            Role.CLIENT,
            client.connectionConfig(),
            handler,
            r.subprotocol(),
            r.extensions(),
            client::connectionClosed);
    client.upgraded(this, connection);
    connection.start(leftover, () -> result.complete(connection));
  }

  /** Closes the socket and fails the caller's future; idempotent. */
  private void fail(Throwable error) {
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
    client.upgradeFailed(this);
    result.completeExceptionally(error);
  }
}
