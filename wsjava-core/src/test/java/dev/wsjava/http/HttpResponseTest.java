package dev.wsjava.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpResponseTest {

  @Test
  void errorPagesNameTheirStatus() {
    HttpResponse r = HttpResponse.notFound();
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.contentType()).isEqualTo("text/plain; charset=utf-8");
    assertThat(StandardCharsets.UTF_8.decode(r.body()).toString()).isEqualTo("404 Not Found\n");
    assertThat(StandardCharsets.UTF_8.decode(HttpResponse.error(299).body()).toString())
        .isEqualTo("299\n");
  }

  @Test
  void methodNotAllowedCarriesAllow() {
    HttpResponse r = HttpResponse.methodNotAllowed(List.of("GET", "HEAD"));
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.headers().first("allow")).isEqualTo("GET, HEAD");
  }

  @Test
  void aRedirectCarriesLocationAndNoBody() {
    HttpResponse r = HttpResponse.redirect(308, "/new");
    assertThat(r.headers().first("Location")).isEqualTo("/new");
    assertThat(r.bodyLength()).isZero();
    assertThatThrownBy(() -> HttpResponse.redirect(200, "/")).hasMessageContaining("redirect");
  }

  @Test
  void theBodyIsCopiedInAndReadOnlyOut() {
    byte[] body = {1, 2, 3};
    HttpResponse r = HttpResponse.bytes(200, "application/octet-stream", body);
    body[0] = 9;
    assertThat(r.body().get(0)).isEqualTo((byte) 1);
    assertThat(r.body().isReadOnly()).isTrue();
  }

  @Test
  void withHeaderReturnsACopy() {
    HttpResponse plain = HttpResponse.empty(200);
    HttpResponse cached = plain.withHeader("Cache-Control", "max-age=60");
    assertThat(plain.headers().isEmpty()).isTrue();
    assertThat(cached.headers().first("cache-control")).isEqualTo("max-age=60");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"Content-Length", "connection", "Transfer-Encoding"})
  void theWritersFieldsCannotBeAdded(String name) {
    assertThatThrownBy(() -> HttpResponse.empty(200).withHeader(name, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("may not be added");
  }

  @Test
  void contentTypeReplacesTheFactorysType() {
    HttpResponse csv = HttpResponse.text(200, "a,b").withHeader("Content-Type", "text/csv");
    assertThat(csv.contentType()).isEqualTo("text/csv");
    assertThat(csv.headers().first("Content-Type")).isNull(); // one field, written from the type
    assertThatThrownBy(() -> HttpResponse.text(200, "x").withHeader("Content-Type", "a\r\nb"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFieldThatWouldSplitTheHeadIsRefused() {
    assertThatThrownBy(() -> HttpResponse.empty(200).withHeader("X", "a\r\nSet-Cookie: b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HttpResponse.bytes(200, "text/plain\r\nX: y", new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {100, 101, 199, 600})
  void aHandlersStatusIsFinal(int status) {
    assertThatThrownBy(() -> HttpResponse.empty(status))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void statusesWithoutContentRefuseABody() {
    assertThatThrownBy(() -> HttpResponse.text(204, "x")).hasMessageContaining("no content");
    assertThatThrownBy(() -> HttpResponse.text(304, "")).hasMessageContaining("no content");
    assertThat(HttpResponse.empty(304).bodyLength()).isZero();
  }
}
