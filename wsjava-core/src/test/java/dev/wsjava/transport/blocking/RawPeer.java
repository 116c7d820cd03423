package dev.wsjava.transport.blocking;

import dev.wsjava.handshake.AcceptKey;
import dev.wsjava.protocol.Hex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Test helper: the other end of a connection written by hand on a plain socket, to see the exact
 * bytes the transport sends and to misbehave (never answer, never read, break the protocol).
 */
final class RawPeer implements AutoCloseable {
  /** RFC 6455 §1.3's sample key and its accept value. */
  static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

  static final String UPGRADE =
      "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: "
          + KEY
          + "\r\nSec-WebSocket-Version: 13\r\n\r\n";

  final Socket socket;
  final InputStream in;
  final OutputStream out;

  RawPeer(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(10_000);
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Connects to a server and upgrades; the 101 head has been read. */
  static RawPeer upgradedClient(int port) throws IOException {
    return upgraded(new Socket(InetAddress.getLoopbackAddress(), port));
  }

  /** Upgrades a connected socket as a client (the key of {@link #UPGRADE}). */
  static RawPeer upgraded(Socket socket) throws IOException {
    RawPeer p = new RawPeer(socket);
    p.write(UPGRADE.getBytes(StandardCharsets.ISO_8859_1));
    String head = p.readHead();
    if (!head.startsWith("HTTP/1.1 101 ")) {
      throw new IOException("not upgraded: " + head);
    }
    return p;
  }

  /** Accepts one connection and reads the client's request; answer with {@link #write}. */
  static RawPeer acceptRequest(ServerSocket listener) throws IOException {
    RawPeer p = new RawPeer(listener.accept());
    p.request = p.readHead();
    return p;
  }

  String request;

  /** The 101 a correct server sends for the request read by {@link #acceptRequest}. */
  String switching() {
    String key = null;
    for (String line : request.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:")) {
        key = line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: "
        + AcceptKey.accept(key)
        + "\r\n\r\n";
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  void write(String latin1) throws IOException {
    write(latin1.getBytes(StandardCharsets.ISO_8859_1));
  }

  void writeHex(String hex) throws IOException {
    write(Hex.bytes(hex));
  }

  /** Reads an HTTP head through its empty line. */
  String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("stream ended inside the head: " + head);
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads one frame as hex (header and payload; masked frames keep their mask and bytes). */
  String readFrame() throws IOException {
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    readByte(frame);
    int b1 = readByte(frame);
    long length = b1 & 0x7f;
    if (length == 126) {
      length = (readByte(frame) << 8) | readByte(frame);
    } else if (length == 127) {
      length = 0;
      for (int i = 0; i < 8; i++) {
        length = (length << 8) | readByte(frame);
      }
    }
    long rest = length + ((b1 & 0x80) != 0 ? 4 : 0);
    for (long i = 0; i < rest; i++) {
      readByte(frame);
    }
    return Hex.of(frame.toByteArray());
  }

  /** An unmasked frame as read: its first byte (FIN, RSV, opcode) and its payload. */
  record Frame(int first, byte[] payload) {}

  /** Reads one unmasked frame (as a server sends them). */
  Frame readServerFrame() throws IOException {
    int first = in.read();
    int second = in.read();
    if (first < 0 || second < 0) {
      throw new IOException("stream ended before a frame");
    }
    if ((second & 0x80) != 0) {
      throw new IOException("a server frame is masked");
    }
    long length = second & 0x7f;
    int extra = length == 126 ? 2 : length == 127 ? 8 : 0;
    if (extra > 0) {
      length = 0;
      for (byte b : in.readNBytes(extra)) {
        length = (length << 8) | (b & 0xff);
      }
    }
    byte[] payload = in.readNBytes((int) length);
    if (payload.length != length) {
      throw new IOException("stream ended inside a frame");
    }
    return new Frame(first, payload);
  }

  /**
   * Reads one whole data message, skipping pongs and joining its fragments (a server splits large
   * messages into frames of {@code maxOutboundFramePayload}); {@code first} has FIN set.
   */
  Frame readServerMessage() throws IOException {
    Frame first = readServerFrame();
    while (first.first() == 0x8a) {
      first = readServerFrame();
    }
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    payload.writeBytes(first.payload());
    for (Frame next = first; (next.first() & 0x80) == 0; ) {
      next = readServerFrame();
      if (next.first() == 0x8a) {
        continue;
      }
      if ((next.first() & 0x0f) != 0) {
        throw new IOException("a continuation was expected, not 0x" + Integer.toHexString(next.first()));
      }
      payload.writeBytes(next.payload());
    }
    return new Frame(first.first() | 0x80, payload.toByteArray());
  }

  private int readByte(ByteArrayOutputStream into) throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new IOException("stream ended inside a frame");
    }
    into.write(b);
    return b;
  }

  /** Returns whether the stream ends next (after reading nothing). */
  boolean atEnd() throws IOException {
    return in.read() < 0;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
