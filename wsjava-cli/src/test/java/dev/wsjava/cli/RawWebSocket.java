package dev.wsjava.cli;

import dev.wsjava.handshake.AcceptKey;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Test helper: WebSocket by hand over a plain socket (RFC 6455 §4 and §5.2), for peers that
 * misbehave on purpose: a client that never reads, a server that corrupts its echoes.
 */
final class RawWebSocket {
  private RawWebSocket() {}

  /** A frame: FIN, the RSV bits (0 to 7), opcode and unmasked payload. */
  record Frame(boolean fin, int rsv, int opcode, byte[] payload) {}

  /**
   * Opens a client connection and completes the opening handshake, reading nothing more.
   *
   * @param receiveBuffer the socket's receive buffer, set before connecting (small: a slow reader)
   */
  static Socket connect(int port, String target, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(receiveBuffer);
    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    s.setSoTimeout(10_000);
    String request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
    String head = readHead(s.getInputStream());
    if (!head.startsWith("HTTP/1.1 101")) {
      throw new IOException("handshake refused: " + head);
    }
    return s;
  }

  /** Reads an upgrade request and answers 101; returns the request head. */
  static String accept(Socket s) throws IOException {
    String head = readHead(s.getInputStream());
    String key = null;
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("sec-websocket-key")) {
        key = line.substring(colon + 1).trim();
      }
    }
    if (key == null) {
      throw new IOException("no Sec-WebSocket-Key in " + head);
    }
    String response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + AcceptKey.accept(key) + "\r\n\r\n";
    s.getOutputStream().write(response.getBytes(StandardCharsets.US_ASCII));
    return head;
  }

  /** Reads an HTTP head up to and including its empty line. */
  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int last4 = 0;
    while (last4 != 0x0d0a0d0a) { // CR LF CR LF
      int b = in.read();
      if (b < 0) {
        throw new EOFException("stream ended in the HTTP head: " + head);
      }
      head.write(b);
      last4 = (last4 << 8) | b;
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  /** Reads one frame, unmasking it if masked. */
  static Frame read(DataInputStream in) throws IOException {
    int b0 = in.readUnsignedByte();
    int b1 = in.readUnsignedByte();
    long length = b1 & 0x7f;
    if (length == 126) {
      length = in.readUnsignedShort();
    } else if (length == 127) {
      length = in.readLong();
    }
    byte[] mask = null;
    if ((b1 & 0x80) != 0) {
      mask = new byte[4];
      in.readFully(mask);
    }
    byte[] payload = new byte[Math.toIntExact(length)];
    in.readFully(payload);
    if (mask != null) {
      for (int i = 0; i < payload.length; i++) {
        payload[i] ^= mask[i & 3];
      }
    }
    return new Frame((b0 & 0x80) != 0, (b0 >> 4) & 7, b0 & 0x0f, payload);
  }

  /** Writes one final, unmasked frame (a server's). */
  static void write(OutputStream out, int opcode, byte[] payload) throws IOException {
    write(out, new Frame(true, 0, opcode, payload));
  }

  /** Writes a frame unmasked (a server's), with its FIN and RSV bits as they are. */
  static void write(OutputStream out, Frame f) throws IOException {
    byte[] payload = f.payload();
    ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 10);
    frame.write((f.fin() ? 0x80 : 0) | f.rsv() << 4 | f.opcode());
    if (payload.length < 126) {
      frame.write(payload.length);
    } else if (payload.length < 65536) {
      frame.write(126);
      frame.write(payload.length >>> 8);
      frame.write(payload.length);
    } else {
      frame.write(127);
      for (int i = 7; i >= 0; i--) {
        frame.write((int) ((long) payload.length >>> (8 * i)));
      }
    }
    frame.write(payload);
    out.write(frame.toByteArray());
    out.flush();
  }

  /**
   * Reads what a client that did not read was sent, now: {@code "close N"} for a close frame with
   * code N, {@code "reset"} when the connection was reset, {@code "eof"} when it ended without a
   * close frame, {@code "timeout"} when nothing more came for 30 s.
   */
  static String closeOutcome(Socket s) {
    try {
      s.setSoTimeout(30_000);
      java.io.DataInputStream in =
          new java.io.DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
      while (true) {
        Frame f = read(in);
        if (f.opcode() == 8) {
          return "close " + (((f.payload()[0] & 0xff) << 8) | (f.payload()[1] & 0xff));
        }
      }
    } catch (java.io.EOFException e) {
      return "eof";
    } catch (java.net.SocketTimeoutException e) {
      return "timeout";
    } catch (java.net.SocketException e) {
      return "reset";
    } catch (IOException e) {
      return "error: " + e;
    }
  }
}
