package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.Transport;
import dev.wsjava.WebSocketConfig;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.ContainerProvider;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The proxy user property (Tyrus's key): the connection goes through an HTTP CONNECT proxy. */
@Timeout(60)
class JakartaProxyTest {

  @ServerEndpoint("/echo")
  public static class Echo {
    @OnMessage
    public String echo(String s) {
      return s;
    }
  }

  /** A one-purpose HTTP CONNECT proxy on loopback that records each CONNECT target. */
  private static final class ConnectProxy implements AutoCloseable {
    final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final List<String> targets = new CopyOnWriteArrayList<>();

    ConnectProxy() throws IOException {
      Thread.ofVirtual().start(() -> {
        while (!server.isClosed()) {
          try {
            Socket client = server.accept();
            Thread.ofVirtual().start(() -> serve(client));
          } catch (IOException e) {
            return;
          }
        }
      });
    }

    private void serve(Socket client) {
      try (client) {
        InputStream in = client.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b < 0) {
            return;
          }
          head.write(b);
        }
        String target = head.toString(StandardCharsets.ISO_8859_1).split(" ")[1]; // CONNECT host:port
        targets.add(target);
        int colon = target.lastIndexOf(':');
        try (Socket upstream = new Socket(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)))) {
          client.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
          Thread up = Thread.ofVirtual().start(() -> pipe(in, upstream));
          pipe(upstream.getInputStream(), client);
          up.join();
        }
      } catch (IOException | InterruptedException e) {
        // the test's connection ended
      }
    }

    private static void pipe(InputStream from, Socket to) {
      try {
        OutputStream out = to.getOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = from.read(buf)) > 0; ) {
          out.write(buf, 0, n);
        }
        to.shutdownOutput();
      } catch (IOException e) {
        // closed
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theProxyPropertyTakesAUri(Transport t) throws Exception {
    try (JakartaServer server = JakartaServer.builder().bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).build()).endpoint(Echo.class).start();
        ConnectProxy proxy = new ConnectProxy()) {
      ClientEndpointConfig config = ClientEndpointConfig.Builder.create().build();
      config.getUserProperties().put(JakartaProperties.PROXY, "http://127.0.0.1:" + proxy.server.getLocalPort());
      config.getUserProperties().put(JakartaProperties.TRANSPORT, t);
      BlockingQueue<String> got = new LinkedBlockingQueue<>();
      Session s = ContainerProvider.getWebSocketContainer().connectToServer(new Endpoint() {
        @Override
        public void onOpen(Session session, EndpointConfig c) {
          session.addMessageHandler(String.class, got::add);
        }
      }, config, URI.create("ws://127.0.0.1:" + server.port() + "/echo"));
      s.getBasicRemote().sendText("through");
      assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("through");
      assertThat(proxy.targets).containsExactly("127.0.0.1:" + server.port());
      s.close();
    }
  }
}
