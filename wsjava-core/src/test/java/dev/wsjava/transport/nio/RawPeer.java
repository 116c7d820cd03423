package dev.wsjava.transport.nio;

import dev.wsjava.handshake.AcceptKey;
import dev.wsjava.protocol.FrameEncoder;
import dev.wsjava.protocol.Opcode;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A hand-driven WebSocket peer on a blocking socket, for behaviour the real client would never
 * show: sending nothing, ignoring pings and closes, gluing frames to the handshake.
 */
final class RawPeer implements AutoCloseable {
  static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

  record Frame(int opcode, boolean fin, byte[] payload) {
    int closeCode() {
      return ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
    }
  }

  final Socket socket;
  final DataInputStream in;
  final OutputStream out;
  private final boolean masks;

  RawPeer(Socket socket, boolean masks) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
    this.masks = masks;
    socket.setSoTimeout(10_000);
  }

  static RawPeer client(int port) throws IOException {
    return new RawPeer(new Socket("127.0.0.1", port), true);
  }

  static byte[] upgradeRequest(String path) {
    return ("GET "
            + path
            + " HTTP/1.1\r\n"
            + "Host: 127.0.0.1\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: "
            + KEY
            + "\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  static byte[] switchingProtocols(String key) {
    return ("HTTP/1.1 101 Switching Protocols\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: "
            + AcceptKey.accept(key)
            + "\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Encodes one frame as this peer would send it (masked for a client). */
  byte[] frame(Opcode opcode, byte[] payload) {
    return encode(masks, opcode, payload);
  }

  /** Encodes one final frame, masked with key 0x12345678 when {@code masks}. */
  static byte[] encode(boolean masks, Opcode opcode, byte[] payload) {
    ByteBuffer b =
        ByteBuffer.allocate(FrameEncoder.headerLength(payload.length, masks) + payload.length);
    FrameEncoder.encode(b, true, 0, opcode, ByteBuffer.wrap(payload), masks, 0x12345678);
    return b.array();
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads an HTTP head, through its empty line. */
  String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("stream ended inside a head: " + head);
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads one frame (unmasking if needed). */
  Frame readFrame() throws IOException {
    int b0 = in.readUnsignedByte();
    int b1 = in.readUnsignedByte();
    long len = b1 & 0x7F;
    if (len == 126) {
      len = in.readUnsignedShort();
    } else if (len == 127) {
      len = in.readLong();
    }
    byte[] mask = null;
    if ((b1 & 0x80) != 0) {
      mask = new byte[4];
      in.readFully(mask);
    }
    byte[] payload = new byte[(int) len];
    in.readFully(payload);
    if (mask != null) {
      for (int i = 0; i < payload.length; i++) {
        payload[i] ^= mask[i & 3];
      }
    }
    return new Frame(b0 & 0x0F, (b0 & 0x80) != 0, payload);
  }

  /**
   * Reads one whole data message: its fragments joined (a server splits large messages into
   * frames of {@code maxOutboundFramePayload}), with the first frame's opcode and FIN set.
   */
  Frame readMessage() throws IOException {
    Frame first = readFrame();
    java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
    payload.writeBytes(first.payload());
    for (Frame next = first; !next.fin(); ) {
      next = readFrame();
      if (next.opcode() != 0) {
        throw new IOException("a continuation was expected, not opcode " + next.opcode());
      }
      payload.writeBytes(next.payload());
    }
    return new Frame(first.opcode(), true, payload.toByteArray());
  }

  /** Reads until the peer closes TCP; returns how many bytes came before the end. */
  long readToEnd() throws IOException {
    InputStream s = socket.getInputStream();
    long n = 0;
    byte[] buf = new byte[4096];
    int r;
    while ((r = s.read(buf)) >= 0) {
      n += r;
    }
    return n;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
