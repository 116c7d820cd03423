package dev.wsjava.transport.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.transport.ServerBuilder.ClientAuth;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server side of {@link TlsIo}'s handshake over a socket that records each write: a flight of
 * records (TLS 1.3's ServerHello, ChangeCipherSpec and encrypted handshake messages) leaves in one
 * write, as Netty and the native servers send it, not one write per record; a short read is not
 * followed by a read that can only find nothing; and a socket that takes nothing at first gets
 * the whole flight, intact, when it can.
 */
class TlsIoFlightTest {
  @TempDir static Path dir;
  static SelfSignedCert cert;
  private final ByteArrayOutputStream clientOut = new ByteArrayOutputStream();

  @BeforeAll
  static void certificate() throws Exception {
    cert = SelfSignedCert.create(dir);
  }

  @Test
  void theServersFirstFlightLeavesInOneWriteAndTheTicketInTheNext() throws Exception {
    RecordingChannel socket = new RecordingChannel();
    TlsIo server = TlsIo.server(socket, cert.server(), new BufferPool(), 16384, ClientAuth.NONE);
    SSLEngine client = client();

    socket.give(clientFlight(client)); // ClientHello
    assertThat(server.handshake()).isFalse(); // waits for the client's Finished
    assertThat(socket.writes).hasSize(1);
    List<Integer> types = recordTypes(socket.writes.get(0));
    // ServerHello (22), the compatibility ChangeCipherSpec (20), then encrypted records (23).
    assertThat(types.subList(0, 3)).containsExactly(22, 20, 23);
    assertThat(socket.emptyReads).as("reads after the ClientHello was read whole").isZero();
    assertThat(server.hasPendingOutput()).isFalse();

    unwrapAll(client, socket.writes.get(0));
    socket.give(clientFlight(client)); // the client's ChangeCipherSpec and Finished
    assertThat(server.handshake()).isTrue();
    assertThat(server.protocol()).isEqualTo("TLSv1.3");
    assertThat(socket.writes).as("the first flight, then the session ticket").hasSize(2);
    assertThat(recordTypes(socket.writes.get(1))).containsOnly(23);
    assertThat(socket.emptyReads).isZero();

    unwrapAll(client, socket.writes.get(1));
    assertThat(client.getHandshakeStatus()).isEqualTo(HandshakeStatus.NOT_HANDSHAKING);
    ByteBuffer hello = ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII));
    assertThat(server.write(new ByteBuffer[] {hello}, 0, 1)).isEqualTo(5);
    assertThat(new String(unwrapAll(client, socket.writes.get(2)), StandardCharsets.US_ASCII))
        .isEqualTo("hello");
  }

  @Test
  void aFlightTheSocketCannotTakeYetIsKeptWholeAndWrittenWhenItCan() throws Exception {
    RecordingChannel socket = new RecordingChannel();
    socket.room = 0; // the socket's send buffer is full
    TlsIo server = TlsIo.server(socket, cert.server(), new BufferPool(), 16384, ClientAuth.NONE);
    SSLEngine client = client();

    socket.give(clientFlight(client));
    assertThat(server.handshake()).isFalse();
    assertThat(server.hasPendingOutput()).isTrue();
    assertThat(socket.writes).isEmpty();

    socket.room = 100; // it drains a little: part of the flight goes
    assertThat(server.flush()).isFalse();
    socket.room = Integer.MAX_VALUE;
    assertThat(server.flush()).isTrue();
    assertThat(socket.writes).hasSize(2);
    assertThat(socket.writes.get(0)).hasSize(100);

    unwrapAll(client, concat(socket.writes));
    socket.give(clientFlight(client));
    assertThat(server.handshake()).isTrue();
    assertThat(server.protocol()).isEqualTo("TLSv1.3");
  }

  private static SSLEngine client() throws Exception {
    SSLEngine e = cert.client().createSSLEngine("localhost", 443);
    e.setUseClientMode(true);
    e.beginHandshake();
    return e;
  }

  /** Everything the engine wants to send now (running its tasks), as bytes. */
  private static byte[] wrapAll(SSLEngine e) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer net = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
    while (true) {
      HandshakeStatus hs = e.getHandshakeStatus();
      if (hs == HandshakeStatus.NEED_TASK) {
        e.getDelegatedTask().run();
      } else if (hs == HandshakeStatus.NEED_WRAP) {
        net.clear();
        SSLEngineResult r = e.wrap(ByteBuffer.allocate(0), net);
        assertThat(r.getStatus()).isEqualTo(SSLEngineResult.Status.OK);
        out.write(net.array(), 0, net.position());
      } else {
        return out.toByteArray();
      }
    }
  }

  /**
   * Feeds the engine every record in {@code bytes}; returns the application bytes. What the engine
   * wraps meanwhile (the client's ChangeCipherSpec, sent as soon as the ServerHello is read) is
   * kept for {@link #wrapAll}.
   */
  private byte[] unwrapAll(SSLEngine e, byte[] bytes) throws Exception {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    ByteArrayOutputStream app = new ByteArrayOutputStream();
    ByteBuffer dst = ByteBuffer.allocate(e.getSession().getApplicationBufferSize());
    for (int guard = 0; in.hasRemaining(); guard++) {
      assertThat(guard).as("unwrap steps").isLessThan(100);
      if (e.getHandshakeStatus() == HandshakeStatus.NEED_WRAP
          || e.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
        clientOut.writeBytes(wrapAll(e));
        continue;
      }
      dst.clear();
      SSLEngineResult r = e.unwrap(in, dst);
      assertThat(r.getStatus()).isEqualTo(SSLEngineResult.Status.OK);
      app.write(dst.array(), 0, dst.position());
    }
    return app.toByteArray();
  }

  /** The client's records wrapped while it unwrapped, then everything it wants to send now. */
  private byte[] clientFlight(SSLEngine e) throws Exception {
    clientOut.writeBytes(wrapAll(e));
    byte[] all = clientOut.toByteArray();
    clientOut.reset();
    return all;
  }

  /** The content types of the TLS records one after the other in {@code bytes}. */
  private static List<Integer> recordTypes(byte[] bytes) {
    List<Integer> types = new ArrayList<>();
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.remaining() >= 5) {
      types.add(b.get() & 0xff);
      b.getShort(); // legacy version
      int length = b.getShort() & 0xffff;
      b.position(b.position() + length);
    }
    assertThat(b.hasRemaining()).as("whole records only").isFalse();
    return types;
  }

  private static byte[] concat(List<byte[]> chunks) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    chunks.forEach(out::writeBytes);
    return out.toByteArray();
  }

  /**
   * A connected socket in memory: each write call is recorded as one chunk (taking at most {@code
   * room} bytes), reads take what the test gave; a read that finds nothing is counted.
   */
  static final class RecordingChannel extends SocketChannel {
    final List<byte[]> writes = new ArrayList<>();
    final ByteBuffer inbound = ByteBuffer.allocate(1 << 16).flip();
    int room = Integer.MAX_VALUE;
    int emptyReads;

    RecordingChannel() {
      super(SelectorProvider.provider());
    }

    void give(byte[] bytes) {
      inbound.compact().put(bytes).flip();
    }

    @Override
    public int read(ByteBuffer dst) {
      if (!inbound.hasRemaining()) {
        emptyReads++;
        return 0;
      }
      int n = Math.min(dst.remaining(), inbound.remaining());
      dst.put(inbound.slice(inbound.position(), n));
      inbound.position(inbound.position() + n);
      return n;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int write(ByteBuffer src) {
      int n = Math.min(room, src.remaining());
      if (n > 0) {
        byte[] chunk = new byte[n];
        src.get(chunk);
        writes.add(chunk);
      }
      return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
      throw new UnsupportedOperationException("TlsIo writes one buffer of records");
    }

    @Override
    public SocketChannel bind(SocketAddress local) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> SocketChannel setOption(SocketOption<T> name, T value) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> T getOption(SocketOption<T> name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
      return Set.of();
    }

    @Override
    public SocketChannel shutdownInput() {
      return this;
    }

    @Override
    public SocketChannel shutdownOutput() {
      return this;
    }

    @Override
    public Socket socket() {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isConnected() {
      return true;
    }

    @Override
    public boolean isConnectionPending() {
      return false;
    }

    @Override
    public boolean connect(SocketAddress remote) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean finishConnect() {
      return true;
    }

    @Override
    public SocketAddress getRemoteAddress() {
      return null;
    }

    @Override
    public SocketAddress getLocalAddress() {
      return null;
    }

    @Override
    protected void implCloseSelectableChannel() {}

    @Override
    protected void implConfigureBlocking(boolean block) {}
  }
}
