package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server behind a load balancer, over both transports: the PROXY protocol header read before
 * HTTP and before TLS (in the same segment as what follows it), refused when missing or bad, not
 * looked for when not required; and trusted X-Forwarded-For. The client's address must reach the
 * hook, the socket and the per-address limits.
 */
class BehindBalancerTest {
  static final String UPGRADE =
      "GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
  static final byte[] V2_TCP4_203_0_113_7 =
      HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "2111000c" + "cb007107" + "7f000001"
          + "1267" + "01bb"); // 203.0.113.7:4711 -> 127.0.0.1:443

  @TempDir static Path dir;
  static TestTls tls;

  @BeforeAll
  static void certificate() throws Exception {
    tls = TestTls.create(dir);
  }
  WebSocketServer server;
  final BlockingQueue<SocketAddress> hookSaw = new LinkedBlockingQueue<>();
  final BlockingQueue<SocketAddress> socketSaw = new LinkedBlockingQueue<>();

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  void start(Transport t, WebSocketServer.Builder b) throws Exception {
    server =
        b.bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1)
                .handshakeTimeout(Duration.ofSeconds(2)).build())
            .onHandshake(req -> {
              hookSaw.add(req.remoteAddress());
              return HandshakeDecision.accept();
            })
            .websocket("/echo", new WebSocketListener() {
              @Override
              public void onOpen(WebSocket ws) {
                socketSaw.add(ws.remoteAddress());
              }
            })
            .start();
  }

  Socket connect() throws IOException {
    Socket s = new Socket("127.0.0.1", server.port());
    s.setSoTimeout(10_000);
    return s;
  }

  /** Writes everything in one write (one segment), returns the status line, or "EOF". */
  static String exchange(Socket s, byte[] bytes) throws IOException {
    s.getOutputStream().write(bytes);
    return statusLine(s.getInputStream());
  }

  static String statusLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\r') {
      line.write(b);
    }
    return b < 0 && line.size() == 0 ? "EOF" : line.toString(StandardCharsets.US_ASCII);
  }

  static byte[] concat(byte[] a, String b) {
    byte[] tail = b.getBytes(StandardCharsets.US_ASCII);
    byte[] all = java.util.Arrays.copyOf(a, a.length + tail.length);
    System.arraycopy(tail, 0, all, a.length, tail.length);
    return all;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aV1HeaderInTheSegmentOfTheRequestGivesTheClientsAddress(Transport t) throws Exception {
    start(t, WebSocketServer.builder().requireProxyProtocol());
    try (Socket s = connect()) {
      String status =
          exchange(s, ascii("PROXY TCP4 198.51.100.22 127.0.0.1 35000 80\r\n" + UPGRADE + "\r\n"));
      assertThat(status).isEqualTo("HTTP/1.1 101 Switching Protocols");
      InetSocketAddress client = new InetSocketAddress("198.51.100.22", 35000);
      assertThat(hookSaw.poll(10, TimeUnit.SECONDS)).isEqualTo(client);
      assertThat(socketSaw.poll(10, TimeUnit.SECONDS)).isEqualTo(client);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aV2HeaderBeforeTheTlsClientHelloInOneSegment(Transport t) throws Exception {
    start(t, WebSocketServer.builder().tls(tls.server()).requireProxyProtocol());
    try (SSLSocket s = tlsOver(tls.client(), V2_TCP4_203_0_113_7)) {
      assertThat(exchange(s, ascii(UPGRADE + "\r\n"))).isEqualTo("HTTP/1.1 101 Switching Protocols");
      assertThat(socketSaw.poll(10, TimeUnit.SECONDS))
          .isEqualTo(new InetSocketAddress("203.0.113.7", 4711));
    }
  }

  /** TLS over a socket whose first write (the ClientHello) carries {@code prefix} before it. */
  SSLSocket tlsOver(SSLContext context, byte[] prefix) throws IOException {
    Socket raw =
        new Socket() {
          OutputStream out;

          @Override
          public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
              out = new FilterOutputStream(super.getOutputStream()) {
                boolean first = true;

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                  if (first) {
                    first = false;
                    byte[] both = java.util.Arrays.copyOf(prefix, prefix.length + len);
                    System.arraycopy(b, off, both, prefix.length, len);
                    super.out.write(both);
                  } else {
                    super.out.write(b, off, len);
                  }
                }
              };
            }
            return out;
          }
        };
    raw.connect(new InetSocketAddress("127.0.0.1", server.port()));
    raw.setSoTimeout(10_000);
    SSLSocket s =
        (SSLSocket) context.getSocketFactory().createSocket(raw, "localhost", server.port(), true);
    s.startHandshake();
    return s;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLocalHeaderKeepsTheBalancersOwnAddress(Transport t) throws Exception {
    start(t, WebSocketServer.builder().requireProxyProtocol());
    try (Socket s = connect()) {
      byte[] local = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "20000000");
      assertThat(exchange(s, concat(local, UPGRADE + "\r\n"))).startsWith("HTTP/1.1 101");
      assertThat(((InetSocketAddress) socketSaw.poll(10, TimeUnit.SECONDS)).getPort())
          .isEqualTo(s.getLocalPort());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aMissingOrBadHeaderIsClosedWithoutAnAnswerAndCounted(Transport t) throws Exception {
    start(t, WebSocketServer.builder().requireProxyProtocol());
    try (Socket s = connect()) {
      assertThat(exchange(s, ascii(UPGRADE + "\r\n"))).isEqualTo("EOF");
    }
    try (Socket s = connect()) {
      assertThat(exchange(s, ascii("PROXY TCP4 1.2.3.4 5.6.7.8 99999 1\r\n" + UPGRADE + "\r\n")))
          .isEqualTo("EOF");
    }
    try (Socket s = connect()) { // sends nothing: cut off at the handshake timeout
      assertThat(statusLine(s.getInputStream())).isEqualTo("EOF");
    }
    Await.until("3 refused", Duration.ofSeconds(10), () -> server.stats().rejectedProxyHeader() == 3);
    assertThat(server.stats().connectionsTotal()).isZero();
    assertThat(hookSaw).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aServerNotRequiringTheHeaderTakesOneForBadHttp(Transport t) throws Exception {
    start(t, WebSocketServer.builder());
    try (Socket s = connect()) {
      assertThat(exchange(s, ascii("PROXY TCP4 198.51.100.22 127.0.0.1 35000 80\r\n" + UPGRADE + "\r\n")))
          .startsWith("HTTP/1.1 400");
    }
    assertThat(hookSaw).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void trustedForwardedForReachesTheHookTheSocketAndThePerAddressLimit(Transport t)
      throws Exception {
    start(t, WebSocketServer.builder().trustedProxies("127.0.0.1").maxConnectionsPerAddress(1));
    try (Socket a = connect(); Socket b = connect(); Socket c = connect()) {
      assertThat(exchange(a, ascii(UPGRADE + "X-Forwarded-For: 6.6.6.6, 192.0.2.1\r\n\r\n")))
          .startsWith("HTTP/1.1 101");
      assertThat(hookSaw.poll(10, TimeUnit.SECONDS))
          .isEqualTo(new InetSocketAddress("192.0.2.1", 0));
      assertThat(socketSaw.poll(10, TimeUnit.SECONDS))
          .isEqualTo(new InetSocketAddress("192.0.2.1", 0));
      assertThat(exchange(b, ascii(UPGRADE + "X-Forwarded-For: 192.0.2.2\r\n\r\n")))
          .as("another client behind the same proxy").startsWith("HTTP/1.1 101");
      Await.until("2 open", Duration.ofSeconds(10), () -> server.stats().connectionsOpen() == 2);
      assertThat(exchange(c, ascii(UPGRADE + "X-Forwarded-For: 192.0.2.1\r\n\r\n")))
          .as("the first client again").startsWith("HTTP/1.1 429");
    }
  }
}
