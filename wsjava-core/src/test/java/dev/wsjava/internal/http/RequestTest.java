package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import static dev.wsjava.internal.http.HttpWire.buffer;
import static dev.wsjava.internal.http.HttpWire.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.HttpHead;
import dev.wsjava.handshake.HttpHeadLimits;
import dev.wsjava.handshake.HttpHeadParser;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestTest {

  private static HttpHead.Request head(String target) throws Exception {
    return HttpHeadParser.forRequests(HttpHeadLimits.defaults())
        .parse(buffer("GET " + target + " HTTP/1.1\r\nHost: a.example\r\n\r\n"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "NULL",
      value = {
        "/, /, NULL",
        "/chat?room=1&x, /chat, room=1&x",
        "/search?, /search, ''",
        "/a%2Fb?q=%20, /a%2Fb, q=%20",
        "/p?a?b, /p, a?b",
        "http://a.example:8080/x/y?z, /x/y, z",
        "HTTPS://a.example, /, NULL",
        "http://a.example?q, /, q",
        "*, *, NULL",
      })
  void theTargetSplitsIntoPathAndQuery(String target, String path, String query) throws Exception {
    Request r = Request.of(head(target), new byte[0]);
    assertThat(r.target()).isEqualTo(target);
    assertThat(r.path()).isEqualTo(path);
    assertThat(r.query()).isEqualTo(query);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"a.example:443", "ftp://a.example/x", "http:///x", "/page#top", "x"})
  void otherTargetsAreRefused(String target) throws Exception {
    HttpHead.Request h = head(target);
    assertThatThrownBy(() -> Request.of(h, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RFC 9112 §3.2");
  }

  @Test
  void theHeadIsExposedAsParsed() throws Exception {
    Request r = request("PUT /x HTTP/1.0\r\nX-A: 1\r\n\r\n");
    assertThat(r.method()).isEqualTo("PUT");
    assertThat(r.version()).isEqualTo("HTTP/1.0");
    assertThat(r.headers().first("x-a")).isEqualTo("1");
    assertThat(r.head().target()).isEqualTo("/x");
  }

  @Test
  void theBodyIsCopiedInAndReadOnlyOut() throws Exception {
    byte[] body = "héllo".getBytes(StandardCharsets.UTF_8);
    Request r = Request.of(head("/"), body);
    body[0] = 'j';
    assertThat(r.bodyText()).isEqualTo("héllo");
    assertThat(r.body().isReadOnly()).isTrue();
    assertThat(r.body().remaining()).isEqualTo(6);
    assertThat(r).hasToString("GET / HTTP/1.1 (6 body bytes)");
  }
}
