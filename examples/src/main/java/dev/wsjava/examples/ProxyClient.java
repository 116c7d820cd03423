package dev.wsjava.examples;

import dev.wsjava.Message;
import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketProxy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A client that reaches a wss:// server through an HTTP CONNECT or SOCKS5 proxy. TLS runs end to
 * end through the tunnel: the certificate is checked for the server's name, never the proxy's.
 *
 * <p>Run: {@code examples/run ProxyClient http://user:pass@proxy:3128 wss://echo.example/
 * [trusted.pem]}, or with {@code socks5://127.0.0.1:1080}; without a proxy argument ({@code -})
 * it reads {@code https_proxy}, {@code all_proxy} and {@code no_proxy} from the environment. The
 * server's port is in its URI, the proxy's in the proxy's.
 */
public final class ProxyClient {
  private ProxyClient() {}

  /**
   * Connects through the proxy, sends one message and prints the answer.
   *
   * @param args the proxy URI (or {@code -}), the server's URI, optionally a PEM certificate to
   *     trust (for a self-signed development server)
   * @throws Exception when the proxy or the server fails; a {@link dev.wsjava.ProxyException}
   *     quotes the proxy's answer
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ProxyClient PROXY-URI|- wss://HOST/PATH [trusted.pem]");
      System.exit(2);
    }
    WebSocketClient.Builder builder = WebSocketClient.builder();
    if (args[0].equals("-")) {
      builder.proxyFromEnvironment();
    } else {
      builder.proxy(WebSocketProxy.parse(args[0]));
    }
    if (args.length > 2) {
      builder.tls(TlsContexts.trusting(Path.of(args[2])));
    }
    try (WebSocketClient client = builder.build()) {
      WebSocket ws = client.open(URI.create(args[1]));
      ws.sendText("hello through the tunnel").join();
      Message answer = ws.receive(Duration.ofSeconds(10));
      System.out.println("< " + answer);
      ws.close().join();
    }
  }
}
