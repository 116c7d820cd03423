package dev.wsjava.jakarta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streamed ({@code Reader}) handler takes one message at a time, over both transports: the first
 * message's last fragment and the whole second message reach the server in one TCP write, and the
 * first handler runs on after reading its message; the second handler must start only after the
 * first returned, and the answers come back in order.
 */
@Timeout(60)
class StreamedOrderTest {
  static final Queue<String> EVENTS = new ConcurrentLinkedQueue<>();
  static final Semaphore TOOK_A_PIECE = new Semaphore(0);

  @ServerEndpoint("/slow")
  public static class Slow {
    @OnMessage
    public String text(Reader in) throws Exception {
      EVENTS.add("start");
      StringBuilder b = new StringBuilder();
      char[] buf = new char[256];
      for (int n; (n = in.read(buf)) > 0; ) {
        b.append(buf, 0, n);
        TOOK_A_PIECE.release();
      }
      String m = b.toString();
      if (m.startsWith("first")) {
        Thread.sleep(30); // runs on after its message ended
      }
      EVENTS.add("end " + m);
      return m;
    }
  }

  @ServerEndpoint("/early")
  public static class Early {
    @OnMessage
    public String text(Reader in) throws Exception {
      char[] three = new char[3];
      int n = in.read(three); // a little of the message, then it returns
      return "got:" + new String(three, 0, n);
    }
  }

  /** Echoes each part as it comes, as the bench suite's endpoint does. */
  @ServerEndpoint("/parts")
  public static class PartEcho {
    @OnMessage
    public void text(String part, boolean last, Session session) throws java.io.IOException {
      session.getBasicRemote().sendText(part, last);
    }

    @OnMessage
    public void binary(ByteBuffer part, boolean last, Session session) throws java.io.IOException {
      session.getBasicRemote().sendBinary(part, last);
    }
  }

  /**
   * A partial echo keeps every message's bytes and frames: a message that comes in one piece goes
   * back as one final frame (sent whole), a fragmented one as its fragments, and a shorter
   * message after a longer one is not padded with the longer one's bytes (the handler's buffer is
   * reused from message to message).
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPartialEchoKeepsEveryMessagesBytesAndFrames(Transport t) throws Exception {
    try (JakartaServer server = server(t, PartEcho.class);
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      handshake(out, in, "/parts");
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.write(frame(0x2, true, "abcdef"));
      all.write(frame(0x2, true, "xy"));
      all.write(frame(0x2, false, "123"));
      all.write(frame(0x0, true, "45"));
      all.write(frame(0x1, true, "héllo"));
      all.write(frame(0x2, true, "z"));
      out.write(all.toByteArray());
      out.flush();
      assertEquals("82 abcdef", readFrame(in));
      assertEquals("82 xy", readFrame(in));
      assertEquals("02 123", readFrame(in));
      assertEquals("80 45", readFrame(in));
      assertEquals("81 héllo", readFrame(in));
      assertEquals("82 z", readFrame(in));
    }
  }

  /** A handler that returns before its message ended leaves the connection reading on. */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aHandlerThatReturnsEarlyDoesNotStallTheConnection(Transport t) throws Exception {
    try (JakartaServer server = server(t, Early.class);
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      handshake(out, in, "/early");
      out.write(frame(0x1, false, "abcdef"));
      out.flush();
      assertEquals("got:abc", readText(in)); // the handler returned
      ByteArrayOutputStream rest = new ByteArrayOutputStream();
      rest.write(frame(0x0, true, "ghi")); // the rest of the first message, dropped
      rest.write(frame(0x1, true, "xyzw"));
      out.write(rest.toByteArray());
      out.flush();
      assertEquals("got:xyz", readText(in));
    }
  }

  private static JakartaServer server(Transport t, Class<?> endpoint) throws Exception {
    return JakartaServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .endpoint(endpoint)
        .start();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theNextMessageWaitsForTheStreamedHandler(Transport t) throws Exception {
    int rounds = 20;
    try (JakartaServer server = server(t, Slow.class);
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      handshake(out, in, "/slow");
      List<String> expected = new ArrayList<>();
      EVENTS.clear();
      TOOK_A_PIECE.drainPermits();
      for (int i = 0; i < rounds; i++) {
        String first = "first-" + i + "-";
        String tail = "tail";
        String second = "second-" + i;
        out.write(frame(0x1, false, first)); // text, not final
        out.flush();
        // The handler takes the first fragment; the rest then comes in one write.
        assertEquals(true, TOOK_A_PIECE.tryAcquire(20, TimeUnit.SECONDS), "first fragment not read");
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.write(frame(0x0, true, tail)); // continuation, final
        rest.write(frame(0x1, true, second));
        out.write(rest.toByteArray());
        out.flush();
        assertEquals(first + tail, readText(in));
        assertEquals(second, readText(in));
        expected.add("start");
        expected.add("end " + first + tail);
        expected.add("start");
        expected.add("end " + second);
        TOOK_A_PIECE.drainPermits();
      }
      assertEquals(expected, List.copyOf(EVENTS), "a handler started before the one before it returned");
    }
  }

  private static void handshake(OutputStream out, InputStream in, String path) throws Exception {
    out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new java.io.EOFException(head.toString());
      }
      head.append((char) c);
    }
    if (!head.toString().startsWith("HTTP/1.1 101")) {
      throw new AssertionError(head);
    }
  }

  /** A masked client frame (mask key 0, so the payload goes as it is) of under 126 bytes. */
  private static byte[] frame(int opcode, boolean fin, String text) {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    byte[] f = new byte[6 + payload.length];
    f[0] = (byte) ((fin ? 0x80 : 0) | opcode);
    f[1] = (byte) (0x80 | payload.length);
    System.arraycopy(payload, 0, f, 6, payload.length);
    return f;
  }

  /** Reads one unmasked, unfragmented text frame from the server. */
  private static String readText(DataInputStream in) throws Exception {
    String f = readFrame(in);
    while (f.startsWith("89")) { // the probe a connection paused for over a second gets
      f = readFrame(in);
    }
    assertEquals("81", f.substring(0, 2), "a final text frame");
    return f.substring(3);
  }

  /** Reads one unmasked frame from the server: its first byte in hex, a space, its payload. */
  private static String readFrame(DataInputStream in) throws Exception {
    int b0 = in.readUnsignedByte();
    int len = in.readUnsignedByte() & 0x7F;
    if (len == 126) {
      len = in.readUnsignedShort();
    }
    byte[] payload = new byte[len];
    in.readFully(payload);
    return String.format("%02x %s", b0, new String(payload, StandardCharsets.UTF_8));
  }
}
