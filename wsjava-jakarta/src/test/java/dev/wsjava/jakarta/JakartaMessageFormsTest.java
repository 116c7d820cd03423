package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The @OnMessage forms of Jakarta WebSocket 2.2 §4.7 that the other tests do not take. */
@Timeout(60)
class JakartaMessageFormsTest {

  @ServerEndpoint("/int/{factor}")
  public static class Primitive {
    @OnMessage
    public long times(int n, @PathParam("factor") int factor) {
      return (long) n * factor;
    }
  }

  @ServerEndpoint("/bytes")
  public static class Bytes {
    @OnMessage
    public byte[] reverse(byte[] b) {
      byte[] out = new byte[b.length];
      for (int i = 0; i < b.length; i++) {
        out[i] = b[b.length - 1 - i];
      }
      return out;
    }
  }

  @ServerEndpoint("/buffer-parts")
  public static class BufferParts {
    private long total;

    @OnMessage
    public void part(ByteBuffer part, boolean last, Session session) throws IOException {
      total += part.remaining();
      if (last) {
        session.getBasicRemote().sendText("total=" + total);
        total = 0;
      }
    }
  }

  public record Lines(int count) {}

  public static class LinesDecoder implements Decoder.TextStream<Lines> {
    @Override
    public Lines decode(Reader in) throws DecodeException, IOException {
      int lines = 0;
      for (int c; (c = in.read()) >= 0; ) {
        lines += c == '\n' ? 1 : 0;
      }
      return new Lines(lines);
    }
  }

  public static class LinesEncoder implements Encoder.TextStream<Lines> {
    @Override
    public void encode(Lines l, Writer out) throws EncodeException, IOException {
      out.write("lines=");
      out.write(Integer.toString(l.count()));
    }
  }

  @ServerEndpoint(value = "/lines", decoders = LinesDecoder.class, encoders = LinesEncoder.class)
  public static class LinesEndpoint {
    @OnMessage
    public Lines count(Lines l) {
      return l;
    }
  }

  public record Sum(long value) {}

  public static class SumDecoder implements Decoder.BinaryStream<Sum> {
    @Override
    public Sum decode(InputStream in) throws DecodeException, IOException {
      long sum = 0;
      for (int b; (b = in.read()) >= 0; ) {
        sum += b;
      }
      return new Sum(sum);
    }
  }

  public static class SumEncoder implements Encoder.Binary<Sum> {
    @Override
    public ByteBuffer encode(Sum s) throws EncodeException {
      return ByteBuffer.allocate(8).putLong(0, s.value());
    }
  }

  @ServerEndpoint(value = "/sum", decoders = SumDecoder.class, encoders = SumEncoder.class)
  public static class SumEndpoint {
    @OnMessage
    public Sum sum(Sum s) {
      return s;
    }
  }

  @ServerEndpoint("/open")
  public static class Open {
    @OnMessage
    public String count(String s, Session session) {
      return "open=" + session.getOpenSessions().size() + " uri=" + session.getRequestURI().getPath()
          + " query=" + session.getQueryString();
    }
  }

  private final BlockingQueue<Object> got = new LinkedBlockingQueue<>();

  private Session connect(JakartaServer server, Transport t, String path) throws Exception {
    ClientEndpointConfig c = ClientEndpointConfig.Builder.create().build();
    c.getUserProperties().put(JakartaProperties.TRANSPORT, t);
    return ContainerProvider.getWebSocketContainer().connectToServer(new Endpoint() {
      @Override
      public void onOpen(Session session, EndpointConfig config) {
        session.addMessageHandler(String.class, got::add);
        session.addMessageHandler(ByteBuffer.class, b -> {
          byte[] copy = new byte[b.remaining()];
          b.get(copy);
          got.add(copy);
        });
      }
    }, c, URI.create("ws://127.0.0.1:" + server.port() + path));
  }

  private Object next() throws InterruptedException {
    Object o = got.poll(10, TimeUnit.SECONDS);
    assertThat(o).as("a message within 10 s").isNotNull();
    return o;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyFormReceivesAndAnswers(Transport t) throws Exception {
    try (JakartaServer server = JakartaServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .endpoint(Primitive.class).endpoint(Bytes.class).endpoint(BufferParts.class)
        .endpoint(LinesEndpoint.class).endpoint(SumEndpoint.class).endpoint(Open.class)
        .start()) {
      Session s = connect(server, t, "/int/3");
      s.getBasicRemote().sendText("14");
      assertThat(next()).isEqualTo("42");
      s.close();

      s = connect(server, t, "/bytes");
      s.getBasicRemote().sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}));
      assertThat((byte[]) next()).containsExactly(3, 2, 1);
      s.close();

      s = connect(server, t, "/buffer-parts");
      s.getBasicRemote().sendBinary(ByteBuffer.allocate(300_000));
      assertThat(next()).isEqualTo("total=300000");
      s.getBasicRemote().sendBinary(ByteBuffer.allocate(5), false);
      s.getBasicRemote().sendBinary(ByteBuffer.allocate(6), true);
      assertThat(next()).isEqualTo("total=11");
      s.close();

      s = connect(server, t, "/lines");
      s.getBasicRemote().sendText("a\nb\n".repeat(50_000));
      assertThat(next()).isEqualTo("lines=100000");
      s.close();

      s = connect(server, t, "/sum");
      byte[] ones = new byte[200_000];
      java.util.Arrays.fill(ones, (byte) 1);
      s.getBasicRemote().sendBinary(ByteBuffer.wrap(ones));
      assertThat(ByteBuffer.wrap((byte[]) next()).getLong()).isEqualTo(200_000L);
      s.close();

      Session a = connect(server, t, "/open?x=1");
      Session b = connect(server, t, "/open?x=2");
      // The client sees its 101 before the server has opened its side of the session (the two
      // may run on different event loops), so ask again until the server counts both, within
      // 10 s: the assertion is on the count, not on how soon it is reached.
      Object answer = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      do {
        b.getBasicRemote().sendText("?");
        answer = next();
      } while (!"open=2 uri=/open query=x=2".equals(answer) && System.nanoTime() < deadline);
      assertThat(answer).isEqualTo("open=2 uri=/open query=x=2");
      a.close();
      b.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void textSentAsAStreamArrivesWhole(Transport t) throws Exception {
    try (JakartaServer server = JakartaServer.builder()
        .bind("127.0.0.1", 0)
        .config(WebSocketConfig.builder().transport(t).build())
        .endpoint(LinesEndpoint.class)
        .start()) {
      Session s = connect(server, t, "/lines");
      try (Writer w = s.getBasicRemote().getSendWriter()) {
        for (int i = 0; i < 10_000; i++) {
          w.write("line\n");
        }
      }
      assertThat(next()).isEqualTo("lines=10000");
      s.close();
    }
  }
}
