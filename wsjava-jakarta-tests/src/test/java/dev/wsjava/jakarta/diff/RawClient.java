package dev.wsjava.jakarta.diff;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A scripted WebSocket client on a plain socket: it writes exactly the bytes a case asks for
 * (masked or not, any opcode, any fragmentation) and reports what came back as a normalised
 * transcript. Every read is bounded.
 */
final class RawClient implements AutoCloseable {
  static final int TEXT = 1;
  static final int BINARY = 2;
  static final int CONTINUATION = 0;
  static final int CLOSE = 8;
  static final int PING = 9;
  static final int PONG = 10;

  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int READ_TIMEOUT_MS = 3000;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String key;
  int status;
  final Map<String, String> headers = new TreeMap<>();
  /** Whether the last {@link #read} gave up on its timeout (rather than at end of stream). */
  private boolean lastReadTimedOut;

  private RawClient(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(READ_TIMEOUT_MS);
    socket.setTcpNoDelay(true);
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    byte[] nonce = new byte[16];
    ThreadLocalRandom.current().nextBytes(nonce);
    this.key = Base64.getEncoder().encodeToString(nonce);
  }

  /** The standard upgrade request headers, which a case may change or remove. */
  static Map<String, String> upgradeHeaders() {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Upgrade", "websocket");
    h.put("Connection", "Upgrade");
    h.put("Sec-WebSocket-Key", "");
    h.put("Sec-WebSocket-Version", "13");
    return h;
  }

  /** Connects and upgrades with the standard headers plus {@code extra}. */
  static RawClient open(URI base, String pathAndQuery, Map<String, String> extra)
      throws IOException {
    Map<String, String> h = upgradeHeaders();
    h.putAll(extra);
    return request(base, "GET", pathAndQuery, h);
  }

  /** Connects and sends exactly this request (a header with a null value is left out). */
  static RawClient request(URI base, String method, String pathAndQuery, Map<String, String> h)
      throws IOException {
    RawClient c = new RawClient(new Socket(base.getHost(), base.getPort()));
    StringBuilder req = new StringBuilder(method + " " + pathAndQuery + " HTTP/1.1\r\n");
    req.append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n");
    for (Map.Entry<String, String> e : h.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      String v = e.getKey().equalsIgnoreCase("Sec-WebSocket-Key") && e.getValue().isEmpty()
          ? c.key : e.getValue();
      req.append(e.getKey()).append(": ").append(v).append("\r\n");
    }
    req.append("\r\n");
    c.out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
    c.out.flush();
    c.readResponseHead();
    return c;
  }

  private void readResponseHead() throws IOException {
    String statusLine = line();
    status = Integer.parseInt(statusLine.split(" ")[1]);
    for (String l; !(l = line()).isEmpty(); ) {
      int colon = l.indexOf(':');
      String name = l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = l.substring(colon + 1).trim();
      headers.merge(name, value, (a, b) -> a + ", " + b);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c; (c = in.read()) != -1; ) {
      if (c == '\n') {
        break;
      }
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  /** Whether Sec-WebSocket-Accept is the right hash of our key. */
  boolean acceptOk() {
    try {
      byte[] sha = MessageDigest.getInstance("SHA-1")
          .digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
      return Base64.getEncoder().encodeToString(sha).equals(headers.get("sec-websocket-accept"));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  void send(int opcode, byte[] payload) throws IOException {
    frame(true, 0, opcode, payload, true);
  }

  void text(String s) throws IOException {
    send(TEXT, s.getBytes(StandardCharsets.UTF_8));
  }

  void binary(byte[] b) throws IOException {
    send(BINARY, b);
  }

  void close(int code, String reason) throws IOException {
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    send(CLOSE, ByteBuffer.allocate(2 + r.length).putShort((short) code).put(r).array());
  }

  /** Writes one frame: FIN flag, RSV bits (0-7), opcode, payload, masked or not. */
  void frame(boolean fin, int rsv, int opcode, byte[] payload, boolean masked) throws IOException {
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    f.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
    int m = masked ? 0x80 : 0;
    if (payload.length < 126) {
      f.write(m | payload.length);
    } else if (payload.length < 65536) {
      f.write(m | 126);
      f.write(payload.length >> 8);
      f.write(payload.length);
    } else {
      f.write(m | 127);
      f.writeBytes(ByteBuffer.allocate(8).putLong(payload.length).array());
    }
    byte[] body = payload.clone();
    if (masked) {
      byte[] mask = new byte[4];
      ThreadLocalRandom.current().nextBytes(mask);
      f.writeBytes(mask);
      for (int i = 0; i < body.length; i++) {
        body[i] ^= mask[i & 3];
      }
    }
    f.writeBytes(body);
    out.write(f.toByteArray());
    out.flush();
  }

  /** One frame from the server. */
  record Frame(boolean fin, int rsv, int opcode, byte[] payload) {
    String describe() {
      String kind = switch (opcode) {
        case TEXT -> "TEXT";
        case BINARY -> "BIN";
        case CONTINUATION -> "CONT";
        case CLOSE -> "CLOSE";
        case PING -> "PING";
        case PONG -> "PONG";
        default -> "OP" + opcode;
      };
      String body;
      if (opcode == CLOSE) {
        body = payload.length >= 2
            ? (((payload[0] & 0xff) << 8) | (payload[1] & 0xff)) + (payload.length > 2 ? ":reason"
                : "")
            : "empty";
      } else if (opcode == BINARY || (opcode == CONTINUATION && !isText(payload))) {
        body = "len" + payload.length;
      } else {
        body = new String(payload, StandardCharsets.UTF_8);
      }
      return kind + (fin || opcode >= 8 ? "" : "(more)") + ":" + body;
    }

    private static boolean isText(byte[] b) {
      for (byte x : b) {
        if (x < 32) {
          return false;
        }
      }
      return true;
    }

    /** The close reason text, or "" when there is none. */
    String reason() {
      return payload.length > 2
          ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
    }
  }

  /** The next frame, or null at end of stream or after the read timeout. */
  Frame read() throws IOException {
    try {
      int b0 = in.read();
      if (b0 == -1) {
        lastReadTimedOut = false;
        return null;
      }
      int b1 = in.read();
      long len = b1 & 0x7f;
      if (len == 126) {
        len = ((in.read() & 0xff) << 8) | (in.read() & 0xff);
      } else if (len == 127) {
        len = ByteBuffer.wrap(in.readNBytes(8)).getLong();
      }
      if ((b1 & 0x80) != 0) {
        in.readNBytes(4);
      }
      byte[] payload = in.readNBytes((int) len);
      return new Frame((b0 & 0x80) != 0, (b0 >> 4) & 7, b0 & 0x0f, payload);
    } catch (SocketTimeoutException e) {
      lastReadTimedOut = true;
      return null;
    } catch (IOException e) {
      lastReadTimedOut = false;
      return null;
    }
  }

  /**
   * Reads frames until a close frame, end of stream or the timeout, and returns their
   * descriptions: "EOF" at end of stream without a close, "TIMEOUT" when nothing came for 3 s.
   * Answers a close with a close (as a client must), and never answers pings (a case does).
   */
  List<String> untilClose() throws IOException {
    List<String> seen = new ArrayList<>();
    while (true) {
      Frame f = read();
      if (f == null) {
        seen.add(lastReadTimedOut ? "TIMEOUT" : "EOF");
        return seen;
      }
      seen.add(f.describe());
      if (f.opcode() == CLOSE) {
        answerClose(f);
        return seen;
      }
    }
  }

  /** Answers the server's close as a client must (RFC 6455 5.5.1): its code, or none. */
  private void answerClose(Frame f) {
    try {
      int code = f.payload().length >= 2
          ? ((f.payload()[0] & 0xff) << 8) | (f.payload()[1] & 0xff) : -1;
      boolean sendable = code >= 1000 && code != 1005 && code != 1006 && code != 1015;
      send(CLOSE, sendable ? new byte[] {f.payload()[0], f.payload()[1]} : new byte[0]);
    } catch (IOException e) {
      // The server may have closed the TCP connection already: nothing to answer.
    }
  }

  /** The next n frames' descriptions (fewer if the connection ends). */
  List<String> next(int n) throws IOException {
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Frame f = read();
      if (f == null) {
        seen.add("NOTHING");
        return seen;
      }
      seen.add(f.describe());
      if (f.opcode() == CLOSE) {
        return seen;
      }
    }
    return seen;
  }

  /** Sends a normal close and returns what came back until the server's close. */
  List<String> finish() throws IOException {
    close(1000, "");
    return untilClose();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
