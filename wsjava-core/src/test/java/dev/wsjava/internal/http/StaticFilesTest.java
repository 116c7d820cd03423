package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.buffer;
import static dev.wsjava.internal.http.HttpWire.drain;
import static dev.wsjava.internal.http.HttpWire.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Static files through a router: content and type, index pages, and every way out of the directory
 * answered 404. The layout under the temporary directory:
 *
 * <pre>
 * secret.txt                 outside the served directory
 * outside/inner.txt          outside too
 * www/index.html
 * www/app.js
 * www/logo.PNG
 * www/data                   no extension
 * www/docs/index.html
 * www/empty/                 a directory without index
 * www/leak.txt -> ../secret.txt     (symbolic links)
 * www/out -> ../outside
 * www/alias.js -> app.js
 * </pre>
 */
class StaticFilesTest {
  @TempDir Path tmp;

  private Router<String> router;

  @BeforeEach
  void layOut() throws Exception {
    Files.writeString(tmp.resolve("secret.txt"), "top secret");
    Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(tmp.resolve("outside/inner.txt"), "also secret");
    Path www = Files.createDirectories(tmp.resolve("www"));
    Files.writeString(www.resolve("index.html"), "<h1>home</h1>");
    Files.writeString(www.resolve("app.js"), "console.log('hi')");
    Files.write(www.resolve("logo.PNG"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    Files.writeString(www.resolve("data"), "raw");
    Files.createDirectories(www.resolve("docs"));
    Files.writeString(www.resolve("docs/index.html"), "<h1>docs</h1>");
    Files.createDirectories(www.resolve("empty"));
    Files.createSymbolicLink(www.resolve("leak.txt"), Path.of("../secret.txt"));
    Files.createSymbolicLink(www.resolve("out"), Path.of("../outside"));
    Files.createSymbolicLink(www.resolve("alias.js"), Path.of("app.js"));
    router =
        Router.<String>builder()
            .staticFiles("/static", www)
            .get("/static/app.js", r -> HttpResponse.text(200, "exact route wins"))
            .build();
  }

  private HttpResponse serve(String target) throws Exception {
    return serve("GET", target);
  }

  private HttpResponse serve(String method, String target) throws Exception {
    HttpRequest r = request(method + " " + target + " HTTP/1.1\r\nHost: a\r\n\r\n");
    Router.Plain<String> route = (Router.Plain<String>) router.find(r.method(), r.path());
    return route.handler().handle(r);
  }

  private static String body(HttpResponse r) {
    return StandardCharsets.UTF_8.decode(r.body()).toString();
  }

  @Test
  void aFileIsServedWithTheTypeOfItsExtension() throws Exception {
    HttpResponse r = serve("/static/alias.js");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).isEqualTo("text/javascript; charset=utf-8");
    assertThat(body(r)).isEqualTo("console.log('hi')");
  }

  @Test
  void extensionsMatchInAnyCaseAndUnknownOnesAreOctetStreams() throws Exception {
    HttpResponse png = serve("/static/logo.PNG");
    assertThat(png.contentType()).isEqualTo("image/png");
    assertThat(png.bodyLength()).isEqualTo(4);
    assertThat(serve("/static/data").contentType()).isEqualTo("application/octet-stream");
  }

  @Test
  void anExactRouteWinsOverTheMount() throws Exception {
    assertThat(body(serve("/static/app.js"))).isEqualTo("exact route wins");
  }

  @Test
  void aDirectoryIsServedByItsIndex() throws Exception {
    assertThat(body(serve("/static/"))).isEqualTo("<h1>home</h1>");
    HttpResponse docs = serve("/static/docs/");
    assertThat(docs.contentType()).isEqualTo("text/html; charset=utf-8");
    assertThat(body(docs)).isEqualTo("<h1>docs</h1>");
  }

  @Test
  void aDirectoryWithoutTrailingSlashIsRedirectedToIt() throws Exception {
    HttpResponse docs = serve("/static/docs?v=2");
    assertThat(docs.status()).isEqualTo(301);
    assertThat(docs.headers().first("Location")).isEqualTo("/static/docs/?v=2");
    assertThat(serve("/static").headers().first("Location")).isEqualTo("/static/");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "/static/missing.txt",
        "/static/empty/", // a directory without index.html
        "/static/data/", // a file asked as a directory
        "/static/%zz", // a malformed escape
        "/static/%C3%28", // malformed UTF-8
      })
  void whatIsNotThereIs404(String target) throws Exception {
    assertThat(serve(target).status()).isEqualTo(404);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "/static/../secret.txt",
        "/static/docs/../../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/%2E%2E%2Fsecret.txt",
        "/static/..%2fsecret.txt",
        "/static/.%2e/secret.txt",
        "/static/docs/%2e%2e/%2e%2e/secret.txt",
        "/static/./index.html",
        "/static//etc/passwd",
        "/static/%2Fetc%2Fpasswd",
        "/static/docs//index.html",
        "/static/..%5csecret.txt",
        "/static/%5c..%5csecret.txt",
        "/static/C:%5cwindows",
        "/static/index.html%00.js",
        "/static/leak.txt", // a symbolic link to a file outside
        "/static/out/inner.txt", // through a symbolic link to a directory outside
        "/static/out/",
      })
  void everyWayOutOfTheDirectoryIs404(String target) throws Exception {
    HttpResponse r = serve(target);
    assertThat(r.status()).isEqualTo(404);
    assertThat(body(r)).doesNotContain("secret");
  }

  @Test
  void aPathOutsideTheMountIsNotTheMounts() throws Exception {
    assertThat(router.find("GET", "/staticfoo")).isEqualTo(router.find("GET", "/nothing"));
    assertThat(serve("/staticfoo").status()).isEqualTo(404);
  }

  @Test
  void otherMethodsAre405AllowingGetAndHead() throws Exception {
    HttpResponse r = serve("PUT", "/static/app.css");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.headers().first("Allow")).isEqualTo("GET, HEAD");
  }

  @Test
  void theLongestMountWins(@TempDir Path other) throws Exception {
    Files.writeString(other.resolve("app.js"), "from the inner mount");
    router =
        Router.<String>builder()
            .staticFiles("/", tmp.resolve("www"))
            .staticFiles("/static/v2/", other)
            .build();
    assertThat(body(serve("/static/v2/app.js"))).isEqualTo("from the inner mount");
    assertThat(body(serve("/app.js"))).isEqualTo("console.log('hi')");
    assertThat(body(serve("/"))).isEqualTo("<h1>home</h1>");
  }

  @Test
  void headOfAFileOverAConnectionHasItsLengthAndNoBody() {
    HttpConnection<String> c = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    c.receive(buffer("HEAD /static/docs/ HTTP/1.1\r\nHost: a\r\n\r\n"), 0);
    assertThat(drain(c))
        .isEqualTo(
            "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: 13\r\n"
                + "\r\n");
  }

  @Test
  void anEncodedTraversalOverAConnectionIs404() {
    HttpConnection<String> c = new HttpConnection<>(router, HttpLimits.defaults(), 0);
    ByteBuffer in = buffer("GET /static/%2e%2e/secret.txt HTTP/1.1\r\nHost: a\r\n\r\n");
    c.receive(in, 0);
    assertThat(drain(c)).startsWith("HTTP/1.1 404 Not Found\r\n").doesNotContain("top secret");
  }

  @Test
  void aMissingDirectoryIsRefusedWhenMounted() {
    assertThatThrownBy(
            () -> Router.<String>builder().staticFiles("/s", tmp.resolve("nope")).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> Router.<String>builder().staticFiles("/s", tmp.resolve("secret.txt")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a directory");
  }

  @Test
  void percentDecodingIsUtf8() {
    assertThat(StaticFiles.decode("caf%C3%A9%20au%20lait")).isEqualTo("café au lait");
    assertThat(StaticFiles.decode("100%")).isNull();
  }
}
