package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Plain HTTP request bodies share the server's memory budget on both transports: an upload that
 * finds the budget spent is slowed (its socket is not read), not refused, and completes once
 * another upload gives its memory back.
 */
class HttpBodyBudgetTest {
  static final int KIB = 1024;
  WebSocketServer server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  static void send(Socket s, String head, int bodyBytes) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(new byte[bodyBytes]);
    out.flush();
  }

  static String post(int length) {
    return "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: " + length + "\r\n\r\n";
  }

  static String statusLine(InputStream in) throws IOException {
    return HardeningTest.readHead(in).lines().findFirst().orElse("");
  }

  /** One GET on a connection of its own, answered. */
  void roundTrip() throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      send(s, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 0);
      assertThat(statusLine(s.getInputStream())).isEqualTo("HTTP/1.1 200 OK");
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void uploadsOnASpentBudgetWaitForMemoryInsteadOfBeingRefused(Transport t) throws Exception {
    server =
        WebSocketServer.builder()
            .bind("127.0.0.1", 0)
            .config(WebSocketConfig.builder().transport(t).eventLoops(1)
                .memoryBudget(256 * KIB).build())
            .route("POST", "/upload",
                r -> HttpResponse.text(200, "got " + r.body().remaining()))
            .get("/", r -> HttpResponse.text(200, "here"))
            .start();
    try (Socket a = new Socket("127.0.0.1", server.port());
        Socket b = new Socket("127.0.0.1", server.port())) {
      a.setSoTimeout(10_000);
      b.setSoTimeout(10_000);
      // Two unfinished uploads of 192 KiB against a 256 KiB budget: whichever is read first is
      // charged its announced 192 KiB, the other is left unread (TCP holds its 150 KiB). Neither
      // is refused, and they never hold half the budget each, waiting for each other.
      send(a, post(192 * KIB), 150 * KIB);
      send(b, post(192 * KIB), 150 * KIB);
      roundTrip(); // the server has turned to both by the time it answered another client
      // Both finish: the first is answered, gives its memory back, and the other goes on.
      a.getOutputStream().write(new byte[42 * KIB]);
      a.getOutputStream().flush();
      b.getOutputStream().write(new byte[42 * KIB]);
      b.getOutputStream().flush();
      for (Socket s : new Socket[] {a, b}) {
        InputStream in = s.getInputStream();
        assertThat(statusLine(in)).as("answered, not refused").isEqualTo("HTTP/1.1 200 OK");
        byte[] text = in.readNBytes(("got " + 192 * KIB).length());
        assertThat(new String(text, StandardCharsets.US_ASCII)).isEqualTo("got " + 192 * KIB);
      }
    }
  }
}
