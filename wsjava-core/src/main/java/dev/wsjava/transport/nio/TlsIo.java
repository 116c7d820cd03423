package dev.wsjava.transport.nio;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * TLS over a non-blocking socket with an {@link SSLEngine}: the handshake is driven by {@link
 * #handshake()} as the socket allows, reads unwrap, writes wrap. TLS 1.3 and 1.2 only.
 *
 * <p>Buffers: encrypted input ({@code netIn}) and output ({@code netOut}) are borrowed from the
 * loop's pool while bytes are in them and given back when they drain, so an idle TLS connection
 * holds only its engine. Each is at least the engine's packet size, so a whole record always fits;
 * a record that still does not (the session's sizes grew) gets a larger buffer. Delegated tasks
 * (certificate checks, key generation) run inline on the loop thread.
 *
 * <p>Not thread-safe: the owning loop's thread only.
 */
final class TlsIo extends Io {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
  private static final Set<String> PROTOCOLS = Set.of("TLSv1.3", "TLSv1.2");

  private final SSLEngine engine;
  private final BufferPool pool;
  private int netSize;
  private int appSize;
  private int packetSize;

  /** Encrypted bytes read and not yet unwrapped, in fill mode (data before position); or null. */
  private ByteBuffer netIn;

  /** Encrypted bytes wrapped and not yet written, in drain mode (position to limit); or null. */
  private ByteBuffer netOut;

  /** Application bytes unwrapped during the handshake, in fill mode; null when none (rare). */
  private ByteBuffer appIn;

  private boolean handshakeDone;
  private boolean needMoreNet;

  /**
   * The last read in this call took less than it had room for, so the socket had nothing more then:
   * reading again before the selector says so would only return nothing (a system call per wait).
   * Cleared at each call from the connection, so it never outlives the readiness it was learnt in.
   */
  private boolean drained;
  private boolean eof;
  private boolean peerClosed;
  private boolean closed;

  private TlsIo(SocketChannel channel, SSLEngine engine, BufferPool pool, int bufferSize) {
    super(channel);
    this.engine = engine;
    this.pool = pool;
    sizes(bufferSize);
  }

  /**
   * Starts a client: SNI for a host name (not for an IP literal), and the HTTPS host name check
   * unless turned off.
   *
   * @param channel the connected socket
   * @param context the TLS context (trust material)
   * @param host the server's host name or IP literal, as in the URI
   * @param port the server's port
   * @param verifyHostname whether to check the certificate against {@code host}
   * @param pool the loop's buffer pool
   * @param bufferSize the preferred size of the encrypted buffers
   * @return the TLS stream, handshake not yet started
   * @throws SSLException when the engine cannot start
   */
  static TlsIo client(
      SocketChannel channel,
      SSLContext context,
      String host,
      int port,
      boolean verifyHostname,
      BufferPool pool,
      int bufferSize)
      throws SSLException {
    SSLEngine engine = context.createSSLEngine(host, port);
    engine.setUseClientMode(true);
    SSLParameters p = engine.getSSLParameters();
    p.setProtocols(protocols(engine));
    if (verifyHostname) {
      p.setEndpointIdentificationAlgorithm("HTTPS");
    }
    if (!isIpLiteral(host)) {
      p.setServerNames(List.of(new SNIHostName(host)));
    }
    engine.setSSLParameters(p);
    engine.beginHandshake();
    return new TlsIo(channel, engine, pool, bufferSize);
  }

  /**
   * Starts a server.
   *
   * @param channel the accepted socket
   * @param context the TLS context (key material)
   * @param pool the loop's buffer pool
   * @param bufferSize the preferred size of the encrypted buffers
   * @param clientAuth whether to ask the client for a certificate
   * @return the TLS stream, waiting for the client's hello
   * @throws SSLException when the engine cannot start
   */
  static TlsIo server(
      SocketChannel channel,
      SSLContext context,
      BufferPool pool,
      int bufferSize,
      dev.wsjava.transport.ServerBuilder.ClientAuth clientAuth)
      throws SSLException {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(false);
    SSLParameters p = engine.getSSLParameters();
    p.setProtocols(protocols(engine));
    clientAuth.applyTo(p);
    engine.setSSLParameters(p);
    engine.beginHandshake();
    return new TlsIo(channel, engine, pool, bufferSize);
  }

  /**
   * Takes encrypted bytes that were read from the socket before this stream existed (those that
   * followed a PROXY protocol header); call before the first {@link #read}.
   *
   * @param early the bytes, position to limit; consumed
   */
  void preload(ByteBuffer early) {
    if (early.hasRemaining()) {
      netIn = pool.acquire(Math.max(netSize, early.remaining()));
      netIn.put(early);
    }
  }

  private static String[] protocols(SSLEngine engine) {
    String[] enabled =
        Arrays.stream(engine.getEnabledProtocols())
            .filter(PROTOCOLS::contains)
            .toArray(String[]::new);
    if (enabled.length == 0) {
      throw new IllegalArgumentException(
          "the SSLContext enables neither TLSv1.3 nor TLSv1.2 (enabled: "
              + String.join(", ", engine.getEnabledProtocols())
              + "); wsjava speaks only those");
    }
    return enabled;
  }

  /** An IPv4 or IPv6 literal (SNI carries host names only, RFC 6066 §3). */
  static boolean isIpLiteral(String host) {
    if (host.indexOf(':') >= 0 || host.startsWith("[")) {
      return true;
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if ((c < '0' || c > '9') && c != '.') {
        return false;
      }
    }
    return true;
  }

  private void sizes(int preferred) {
    appSize = engine.getSession().getApplicationBufferSize();
    packetSize = engine.getSession().getPacketBufferSize();
    netSize = Math.max(preferred, Math.max(packetSize, appSize));
  }

  @Override
  String protocol() {
    return engine.getSession().getProtocol();
  }

  @Override
  javax.net.ssl.SSLSession session() {
    return engine.getSession();
  }

  @Override
  int minReadBuffer() {
    return appSize;
  }

  @Override
  boolean handshake() throws IOException {
    drained = false;
    return driveHandshake();
  }

  private boolean driveHandshake() throws IOException {
    while (!handshakeDone) {
      HandshakeStatus hs = engine.getHandshakeStatus();
      switch (hs) {
        case NOT_HANDSHAKING, FINISHED -> {
          handshakeDone = true;
          sizes(netSize);
          flush();
        }
        case NEED_TASK -> runTasks();
        case NEED_WRAP -> {
          if (!wrapHandshake()) {
            return false;
          }
        }
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          // The flight wrapped so far goes out in one write before waiting for the peer's.
          if (!flush() || !unwrapHandshake()) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private void runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
  }

  /**
   * Wraps one handshake record after those already wrapped and not yet written, so that a whole
   * flight (in TLS 1.3 the server's ServerHello, ChangeCipherSpec and encrypted handshake records)
   * leaves in one write when the handshake next waits for the peer or is done; false when the
   * socket cannot take what is pending and there is no room for the record now.
   */
  private boolean wrapHandshake() throws IOException {
    if (netOut != null && netOut.capacity() - netOut.remaining() < packetSize && !flush()) {
      return false; // the engine wraps only into room for a whole packet
    }
    // Room for a packet after the first records of the flight (the engine asks for a packet's
    // room for every record it wraps, however small).
    ByteBuffer out = netOut == null ? pool.acquire(Math.max(netSize, 2 * packetSize)) : netOut.compact();
    SSLEngineResult r;
    try {
      r = engine.wrap(EMPTY, out);
    } finally {
      netOut = out.flip();
      releaseNetOutIfEmpty();
    }
    switch (r.getStatus()) {
      case OK -> {}
      case BUFFER_OVERFLOW -> {
        if (netOut != null) {
          return flush(); // room after the pending records are written; wrapped again then
        }
        growNetSize();
      }
      case CLOSED -> {
        flush();
        if (r.getHandshakeStatus() != HandshakeStatus.NEED_WRAP) {
          throw new SSLException("the TLS engine closed during the handshake");
        }
      }
      case BUFFER_UNDERFLOW -> throw new SSLException("unexpected TLS wrap underflow");
    }
    return true;
  }

  /** Unwraps one handshake message, reading when needed; false when the socket has nothing now. */
  private boolean unwrapHandshake() throws IOException {
    if (netIn != null && netIn.position() > 0 && !needMoreNet) {
      ByteBuffer scratch = appIn != null ? appIn : pool.acquire(Math.max(netSize, appSize));
      SSLEngineResult r;
      netIn.flip();
      try {
        r = engine.unwrap(netIn, scratch);
      } finally {
        netIn.compact();
      }
      if (scratch != appIn) {
        if (scratch.position() > 0) {
          appIn = ByteBuffer.allocate(Math.max(scratch.position(), appSize)).put(scratch.flip());
        }
        pool.release(scratch);
      }
      switch (r.getStatus()) {
        case OK -> {
          return true;
        }
        case BUFFER_OVERFLOW -> {
          appIn = grow(appIn == null ? ByteBuffer.allocate(0) : appIn, appSize * 2);
          return true;
        }
        case CLOSED -> throw new SSLException("the peer closed TLS during the handshake");
        case BUFFER_UNDERFLOW -> needMoreNet = true;
      }
    }
    if (drained) {
      return false; // the selector tells when the peer's next bytes come
    }
    int n = readNet();
    if (n < 0) {
      throw new EOFException("the peer closed the connection during the TLS handshake");
    }
    return n > 0;
  }

  /** Reads from the socket into {@code netIn}; -1 at the end of the stream. */
  private int readNet() throws IOException {
    if (netIn == null) {
      netIn = pool.acquire(netSize);
    } else if (!netIn.hasRemaining()) {
      netIn = grow(netIn, netIn.capacity() * 2); // a record larger than the buffer
    }
    int room = netIn.remaining();
    int n = channel.read(netIn);
    if (n < 0) {
      eof = true;
    } else if (n > 0) {
      needMoreNet = false;
    }
    drained = n >= 0 && n < room;
    releaseNetInIfEmpty();
    return n;
  }

  @Override
  int read(ByteBuffer dst) throws IOException {
    drained = false;
    if (!handshakeDone && !driveHandshake()) {
      return eof ? -1 : 0;
    }
    int start = dst.position();
    if (appIn != null) {
      appIn.flip();
      int n = Math.min(appIn.remaining(), dst.remaining());
      dst.put(appIn.slice(appIn.position(), n));
      appIn.position(appIn.position() + n).compact();
      if (appIn.position() == 0) {
        appIn = null;
      }
      return n;
    }
    while (!peerClosed) {
      if (netIn != null && netIn.position() > 0 && !needMoreNet) {
        if (dst.remaining() < appSize) {
          break; // the caller makes room and reads again
        }
        SSLEngineResult r;
        netIn.flip();
        try {
          r = engine.unwrap(netIn, dst);
        } finally {
          netIn.compact();
        }
        afterEngineCall(r.getHandshakeStatus());
        switch (r.getStatus()) {
          case OK -> {
            if (r.bytesConsumed() == 0 && r.bytesProduced() == 0) {
              needMoreNet = true;
            }
            continue;
          }
          case CLOSED -> {
            peerClosed = true;
            continue;
          }
          case BUFFER_OVERFLOW -> {
            if (dst.position() == start) {
              sizes(netSize);
              if (dst.remaining() >= appSize) {
                throw new SSLException("a TLS record does not fit a buffer of " + dst.remaining());
              }
            }
            return dst.position() - start; // the caller reads again with more room
          }
          case BUFFER_UNDERFLOW -> needMoreNet = true;
        }
      }
      if (eof || drained || readNet() <= 0) {
        break;
      }
    }
    releaseNetInIfEmpty();
    int got = dst.position() - start;
    return got == 0 && (eof || peerClosed) ? -1 : got;
  }

  /** Handles what the engine asks for after a data wrap or unwrap (post-handshake messages). */
  private void afterEngineCall(HandshakeStatus hs) throws IOException {
    while (true) {
      switch (hs) {
        case NEED_TASK -> runTasks();
        case NEED_WRAP -> {
          if (!wrapHandshake()) {
            return;
          }
        }
        default -> {
          flush(); // what was wrapped (a post-handshake answer); pending output otherwise
          return;
        }
      }
      hs = engine.getHandshakeStatus();
    }
  }

  @Override
  long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    if (!handshakeDone && !handshake()) {
      return 0;
    }
    long consumed = 0;
    while (hasRemaining(srcs, offset, length)) {
      ByteBuffer out = netOut == null ? pool.acquire(netSize) : netOut.compact();
      if (out.remaining() < netSize / 2 && out.position() > 0) {
        netOut = out.flip();
        if (!flush()) {
          break;
        }
        continue;
      }
      SSLEngineResult r;
      try {
        r = engine.wrap(srcs, offset, length, out);
      } finally {
        netOut = out.flip();
        releaseNetOutIfEmpty();
      }
      consumed += r.bytesConsumed();
      switch (r.getStatus()) {
        case OK -> afterEngineCall(r.getHandshakeStatus());
        case BUFFER_OVERFLOW -> {
          if (netOut == null) {
            growNetSize();
          } else if (!flush()) {
            return consumed;
          }
        }
        case CLOSED -> throw new SSLException("cannot write: TLS is closed");
        case BUFFER_UNDERFLOW -> throw new SSLException("unexpected TLS wrap underflow");
      }
    }
    flush();
    return consumed;
  }

  private static boolean hasRemaining(ByteBuffer[] srcs, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (srcs[i].hasRemaining()) {
        return true;
      }
    }
    return false;
  }

  @Override
  boolean flush() throws IOException {
    if (netOut == null) {
      return true;
    }
    channel.write(netOut);
    return releaseNetOutIfEmpty();
  }

  @Override
  boolean hasPendingOutput() {
    return netOut != null;
  }

  @Override
  boolean hasBufferedInput() {
    return appIn != null || (netIn != null && netIn.position() > 0 && !needMoreNet && !peerClosed);
  }

  @Override
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      engine.closeOutbound();
      if (handshakeDone && !hasPendingOutput()) {
        ByteBuffer out = pool.acquire(netSize);
        try {
          engine.wrap(EMPTY, out); // close_notify
        } finally {
          netOut = out.flip();
        }
        flush(); // once, without waiting: a peer that does not read does not get it
      }
    } catch (IOException | RuntimeException ignored) {
      // closing anyway
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    pool.release(netIn);
    pool.release(netOut);
    netIn = null;
    netOut = null;
    appIn = null;
  }

  private void releaseNetInIfEmpty() {
    if (netIn != null && netIn.position() == 0) {
      pool.release(netIn);
      netIn = null;
    }
  }

  private boolean releaseNetOutIfEmpty() {
    if (netOut != null && !netOut.hasRemaining()) {
      pool.release(netOut);
      netOut = null;
    }
    return netOut == null;
  }

  private void growNetSize() {
    netSize = Math.max(netSize * 2, engine.getSession().getPacketBufferSize());
  }

  /** Copies a fill-mode buffer into a larger heap one (rare: records larger than expected). */
  private ByteBuffer grow(ByteBuffer b, int capacity) {
    ByteBuffer bigger = ByteBuffer.allocate(Math.max(capacity, b.capacity() + 1));
    bigger.put(b.flip());
    if (b.isDirect()) {
      pool.release(b);
    }
    return bigger;
  }
}
