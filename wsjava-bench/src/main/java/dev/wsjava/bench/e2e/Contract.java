package dev.wsjava.bench.e2e;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks from outside that a started server keeps the suite's contract, before any figure of it
 * counts: TCP_NODELAY on its side of a connection (read from its process, see {@link
 * SocketProbe}); no permessage-deflate answered when it was started without it, even when the
 * client offers it; a 16 MiB message in one frame echoed whole; and one byte more refused (a close
 * frame, or the connection dropped; before or while echoing it, never an echo that ends). Each
 * check that fails is named in the report, and none waits longer than its time-out: a server that
 * stops reading or answering fails the check instead of holding the suite.
 */
final class Contract {
  /** The largest message every target must echo (PeerArgs.MAX_MESSAGE). */
  static final int MAX = 16 << 20;
  private static final int TIMEOUT_MS = 30_000;

  /**
   * What a check found.
   *
   * @param passed whether every check passed
   * @param text one line for the report: each check and its outcome
   */
  record Verdict(boolean passed, String text) {}

  private Contract() {}

  /**
   * Checks a server.
   *
   * @param probe the TCP_NODELAY probe script
   * @param host the server's address
   * @param port its port
   * @param pid its process
   * @return the verdict
   */
  static Verdict check(Path probe, String host, int port, long pid) {
    List<String> ok = new ArrayList<>();
    List<String> broken = new ArrayList<>();
    try (Socket s = open(host, port)) {
      String ext = handshake(s, true);
      if (ext != null) {
        broken.add("answered \"" + ext + "\" without --deflate");
      } else {
        ok.add("no deflate unless asked");
      }
      noDelay(probe, pid, port, s.getLocalPort(), ok, broken);
      if (ext == null) {
        String echo = echo(s, MAX);
        (echo == null ? ok : broken).add(echo == null ? "16 MiB echoed" : "16 MiB: " + echo);
      }
    } catch (IOException | RuntimeException e) {
      broken.add("failed: " + e.getMessage());
    }
    try (Socket s = open(host, port)) {
      handshake(s, false);
      String refused = oversize(s, MAX + 1);
      (refused.startsWith("refused") ? ok : broken).add("16 MiB + 1 " + refused);
    } catch (IOException | RuntimeException e) {
      broken.add("16 MiB + 1: " + e.getMessage());
    }
    String text = String.join(", ", ok);
    if (!broken.isEmpty()) {
      text = "**BROKEN: " + String.join("; ", broken) + "**" + (ok.isEmpty() ? "" : "; kept: " + text);
    }
    return new Verdict(broken.isEmpty(), text);
  }

  /**
   * Reads TCP_NODELAY on the server's end of one connection.
   *
   * @param probe the script
   * @param pid the server
   * @param serverPort the port it listens on
   * @param clientPort the other end's port
   * @param ok where a pass goes
   * @param broken where a failure goes
   */
  static void noDelay(Path probe, long pid, int serverPort, int clientPort, List<String> ok,
      List<String> broken) {
    try {
      for (SocketProbe.Socket sock : SocketProbe.read(probe, pid, serverPort)) {
        if (sock.remotePort() == clientPort) {
          (sock.noDelay() ? ok : broken).add("TCP_NODELAY " + (sock.noDelay() ? "on" : "off"));
          return;
        }
      }
      broken.add("TCP_NODELAY unknown: the server's socket was not found");
    } catch (IOException e) {
      broken.add("TCP_NODELAY unknown: " + e.getMessage());
    }
  }

  private static Socket open(String host, int port) throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
    s.setSoTimeout(TIMEOUT_MS);
    return s;
  }

  /**
   * Upgrades a connection.
   *
   * @param s the socket
   * @param offerDeflate whether to offer permessage-deflate
   * @return the extensions the server answered, or {@code null} for none
   * @throws IOException when the server refuses
   */
  private static String handshake(Socket s, boolean offerDeflate) throws IOException {
    String key = "dGhlIHNhbXBsZSBub25jZQ==";
    OutputStream out = s.getOutputStream();
    out.write(("GET /echo HTTP/1.1\r\nHost: " + s.getInetAddress().getHostAddress() + ":" + s.getPort()
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
        + "\r\nSec-WebSocket-Version: 13\r\n"
        + (offerDeflate ? "Sec-WebSocket-Extensions: " + ClientDeflate.OFFER + "\r\n" : "") + "\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
      int b = in.read();
      if (b < 0 || head.length() > 16384) {
        throw new IOException("no complete handshake response");
      }
      head.append((char) b);
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) {
      throw new IOException("handshake refused: " + head.toString().lines().findFirst().orElse(""));
    }
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-extensions:")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    return null;
  }

  /** The byte at a position of the test message: a pattern no echo gets right by accident. */
  private static byte patternAt(long i) {
    return (byte) (i * 31 + (i >>> 13) + 7);
  }

  /** Writes one binary frame of {@code size} pattern bytes, masked with a zero key. */
  private static void writeFrame(OutputStream out, int size) throws IOException {
    byte[] header = {(byte) 0x82, (byte) (0x80 | 127), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++) {
      header[2 + i] = (byte) ((long) size >>> (56 - 8 * i));
    }
    out.write(header);
    byte[] chunk = new byte[1 << 16];
    for (int off = 0; off < size; off += chunk.length) {
      int n = Math.min(chunk.length, size - off);
      for (int i = 0; i < n; i++) {
        chunk[i] = patternAt(off + i);
      }
      out.write(chunk, 0, n);
    }
    out.flush();
  }

  /**
   * Sends one message of {@code size} bytes and reads the echo (in one frame or several) on
   * another thread, as a server may echo while the message still arrives.
   *
   * @return {@code null} when the echo is whole and right, else what was wrong
   */
  private static String echo(Socket s, int size) throws IOException {
    InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
    long[] got = new long[1];
    CompletableFuture<String> reader = read(() -> {
      try {
        while (true) {
          long[] h = header(in);
          if (h == null) {
            return "the connection ended after " + got[0] + " bytes of the echo";
          }
          int b0 = (int) h[0];
          long len = h[1];
          int opcode = b0 & 0x0f;
          if (opcode == 8) {
            return "closed with " + closeCode(in, len) + " after " + got[0] + " bytes of the echo";
          }
          for (long i = 0; i < len; i++) {
            int b = in.read();
            if (b < 0) {
              return "the connection ended after " + (got[0] + i) + " bytes of the echo";
            }
            if ((byte) b != patternAt(got[0] + i)) {
              return "echo wrong at byte " + (got[0] + i);
            }
          }
          got[0] += len;
          if ((b0 & 0x80) != 0) {
            return got[0] == size ? null : "echo of " + got[0] + " bytes";
          }
        }
      } catch (IOException e) {
        return "reading the echo: " + e.getMessage() + " after " + got[0] + " bytes";
      }
    });
    return sendWhileReading(s, size, reader, "no whole echo within " + TIMEOUT_MS / 1000 + " s");
  }

  /**
   * Sends a message one byte over the limit and waits for the server's answer. A server that
   * echoes a message part by part as it arrives (the Jakarta targets' partial handlers) learns the
   * message is too long only at its last byte: it refuses by closing (or dropping the connection)
   * after having streamed part of the message back, and never ends the echoed message. Only an
   * echo that ends (a final frame) is a missing limit.
   *
   * @return {@code "refused (close CODE)"} (with how much was streamed back first, if any), {@code
   *     "refused (connection dropped)"}, or what happened instead
   */
  private static String oversize(Socket s, int size) throws IOException {
    InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
    CompletableFuture<String> reader = read(() -> {
      long echoed = 0;
      String streamed = "";
      try {
        while (true) {
          long[] h = header(in);
          streamed = echoed == 0 ? "" : ", after streaming " + echoed + " bytes back unfinished";
          if (h == null) {
            return "refused (connection dropped" + streamed + ")";
          }
          int b0 = (int) h[0];
          long len = h[1];
          int opcode = b0 & 0x0f;
          if (opcode == 8) {
            return "refused (close " + closeCode(in, len) + streamed + ")";
          }
          if (opcode > 2) {
            return "answered opcode " + opcode + " instead of refusing";
          }
          in.skipNBytes(len);
          echoed += len;
          if ((b0 & 0x80) != 0) {
            return echoed >= size ? "echoed: no limit" : "answered a message of " + echoed
                + " bytes instead of refusing";
          }
        }
      } catch (IOException e) {
        return "refused (connection dropped: " + e.getMessage() + streamed + ")";
      }
    });
    return sendWhileReading(s, size, reader,
        "neither refused nor answered within " + TIMEOUT_MS / 1000 + " s");
  }

  /**
   * Writes the test message on a thread of its own while a reader reads the answer, and returns
   * what the reader found within the time-out. A failed write is no verdict: the server may refuse
   * and close before the last byte, and the reader tells what it sent first. A write that cannot
   * finish (a server that stopped reading without closing, or one whose echo nobody reads any
   * more) never holds the check up: the caller closes the socket, which ends the write.
   */
  private static String sendWhileReading(Socket s, int size, CompletableFuture<String> reader,
      String timedOut) {
    Thread writer = Thread.ofPlatform().daemon().name("contract-writer").start(() -> {
      try {
        writeFrame(s.getOutputStream(), size);
      } catch (IOException e) {
        // see above
      }
    });
    try {
      return reader.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return timedOut;
    } catch (InterruptedException | ExecutionException e) {
      return e.toString();
    } finally {
      if (writer.isAlive()) {
        try {
          s.close(); // ends the blocked write (and the reader, if it still reads)
        } catch (IOException e) {
          // closing anyway
        }
      }
    }
  }

  /** Runs a reader on a daemon thread of its own: the common pool has one thread on two cores. */
  private static CompletableFuture<String> read(java.util.function.Supplier<String> body) {
    CompletableFuture<String> f = new CompletableFuture<>();
    Thread.ofPlatform().daemon().name("contract-reader").start(() -> f.complete(body.get()));
    return f;
  }

  /**
   * Reads a frame header of the server's (unmasked).
   *
   * @return {byte 0, payload length}, or {@code null} at the end of the stream
   */
  private static long[] header(InputStream in) throws IOException {
    int b0 = in.read();
    int b1 = in.read();
    if (b0 < 0 || b1 < 0) {
      return null;
    }
    long len = b1 & 0x7f;
    if (len == 126) {
      len = ((in.read() & 0xff) << 8) | (in.read() & 0xff);
    } else if (len == 127) {
      len = 0;
      for (int i = 0; i < 8; i++) {
        len = (len << 8) | (in.read() & 0xff);
      }
    }
    return new long[] {b0, len};
  }

  private static int closeCode(InputStream in, long len) throws IOException {
    if (len < 2) {
      return 1005;
    }
    int code = ((in.read() & 0xff) << 8) | (in.read() & 0xff);
    in.skipNBytes(len - 2);
    return code;
  }
}
