package dev.wsjava;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A raw WebSocket client that completes its opening handshake and then reads nothing (a small
 * receive buffer, so that it backs up quickly), until the test asks what it was sent: the close
 * code at the end of its stream, or that its connection was reset.
 */
final class NonReader implements AutoCloseable {
  private final Socket socket;

  private NonReader(Socket socket) {
    this.socket = socket;
  }

  /**
   * Connects to {@code path} on the server at 127.0.0.1:{@code port} and upgrades.
   *
   * @throws IOException when the server does not answer 101
   */
  static NonReader connect(int port, String path) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(4096);
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    s.setSoTimeout(10_000);
    byte[] key = new byte[16];
    java.util.concurrent.ThreadLocalRandom.current().nextBytes(key);
    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        s.close();
        throw new EOFException("no answer to the upgrade: " + head);
      }
      head.write(b);
    }
    if (!head.toString(StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 101")) {
      s.close();
      throw new IOException("not upgraded: " + head);
    }
    return new NonReader(s);
  }

  /**
   * Reads everything it was sent, now: {@code "close N"} for a close frame with code N, {@code
   * "reset"} when the connection was reset, {@code "eof"} when it ended without a close frame,
   * {@code "timeout"} when nothing more came for 10 s.
   */
  String outcome() {
    try {
      DataInputStream in = new DataInputStream(socket.getInputStream());
      while (true) {
        int b0 = in.readUnsignedByte();
        long len = in.readUnsignedByte() & 0x7F; // a server's frames are not masked
        if (len == 126) {
          len = in.readUnsignedShort();
        } else if (len == 127) {
          len = in.readLong();
        }
        if ((b0 & 0x0F) == 0x8) {
          return len >= 2 ? "close " + in.readUnsignedShort() : "close (no code)";
        }
        in.skipNBytes(len);
      }
    } catch (EOFException e) {
      return "eof";
    } catch (java.net.SocketTimeoutException e) {
      return "timeout";
    } catch (SocketException e) {
      return "reset";
    } catch (IOException e) {
      return "error: " + e;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
