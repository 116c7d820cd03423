package dev.wsjava;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Test helper: a proxy on loopback with a scripted behaviour for each accepted connection. The
 * tunnelling scripts ({@link #httpConnect}, {@link #socks5}) connect to a fixed upstream (whatever
 * the client asked for, so a test can name a host only the certificate check sees) and record what
 * the client asked; the others answer with fixed bytes or not at all.
 */
final class FakeProxy implements AutoCloseable {
  /** What the proxy does with one accepted client. */
  interface Script {
    void run(FakeProxy proxy, Socket client) throws IOException;
  }

  private final ServerSocket listener;
  private final Script script;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  /** The request heads (HTTP) or the CONNECT requests in hex (SOCKS5) the proxy received. */
  final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();

  FakeProxy(Script script) throws IOException {
    this.script = script;
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(this::acceptLoop);
  }

  int port() {
    return listener.getLocalPort();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket s = listener.accept();
        sockets.add(s);
        Thread.ofVirtual().start(() -> {
          try {
            script.run(this, s);
          } catch (IOException e) {
            closeQuietly(s);
          }
        });
      } catch (IOException e) {
        return;
      }
    }
  }

  /** An HTTP proxy that answers CONNECT with {@code 200} and tunnels to 127.0.0.1:{@code port}. */
  static Script httpConnect(int upstreamPort) {
    return (proxy, client) -> {
      String head = readHead(client.getInputStream());
      proxy.requests.add(head);
      Socket upstream = proxy.upstream(upstreamPort);
      client.getOutputStream().write(
          "HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      proxy.pipe(client, upstream);
    };
  }

  /** A SOCKS5 proxy without authentication that tunnels to 127.0.0.1:{@code port}. */
  static Script socks5(int upstreamPort) {
    return (proxy, client) -> {
      DataInputStream in = new DataInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      in.readUnsignedByte(); // VER
      in.readFully(new byte[in.readUnsignedByte()]); // METHODS
      out.write(new byte[] {5, 0});
      byte[] head = new byte[4];
      in.readFully(head);
      String name = "";
      int length =
          switch (head[3]) {
            case 1 -> 4;
            case 4 -> 16;
            default -> {
              int n = in.readUnsignedByte();
              name = String.format("%02x", n);
              yield n;
            }
          };
      byte[] rest = new byte[length + 2];
      in.readFully(rest);
      proxy.requests.add(HexFormat.of().formatHex(head) + name + HexFormat.of().formatHex(rest));
      Socket upstream = proxy.upstream(upstreamPort);
      out.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
      proxy.pipe(client, upstream);
    };
  }

  /** A SOCKS5 proxy that refuses every CONNECT with reply {@code code}. */
  static Script socks5Refusing(int code) {
    return (proxy, client) -> {
      InputStream in = client.getInputStream();
      in.read(new byte[3]);
      client.getOutputStream().write(new byte[] {5, 0});
      in.read(new byte[300]);
      client.getOutputStream().write(new byte[] {5, (byte) code, 0, 1, 0, 0, 0, 0, 0, 0});
      client.close();
    };
  }

  /** Reads the client's first bytes (a head, or what SOCKS sends), answers {@code reply}, holds. */
  static Script answer(byte[] reply) {
    return (proxy, client) -> {
      client.getInputStream().read(new byte[4096]);
      client.getOutputStream().write(reply);
      client.getInputStream().read(new byte[4096]); // until the client gives up
      client.close();
    };
  }

  /** Reads the client's first bytes and closes the connection without a word. */
  static Script hangUp() {
    return (proxy, client) -> {
      client.getInputStream().read(new byte[4096]);
      client.close();
    };
  }

  /** Accepts and reads, never answers. */
  static Script silent() {
    return (proxy, client) -> {
      while (client.getInputStream().read(new byte[4096]) >= 0) {
        // a black hole
      }
      client.close();
    };
  }

  private Socket upstream(int port) throws IOException {
    Socket upstream = new Socket();
    sockets.add(upstream);
    upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
    return upstream;
  }

  private void pipe(Socket a, Socket b) {
    Thread.ofVirtual().start(() -> copy(a, b));
    copy(b, a);
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException e) {
      // one side went away
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("end of stream inside the head");
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(FakeProxy::closeQuietly);
  }
}
