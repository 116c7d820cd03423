package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Path templates: how a request path finds its route when exact paths do not match. */
class RouterTemplateTest {
  private static final HttpHandler ECHO_PARAMS =
      r -> HttpResponse.text(200, r.pathParams().toString());

  private static HttpResponse answer(Router<String> router, String method, String target)
      throws Exception {
    HttpRequest r = request(method + " " + target + " HTTP/1.1\r\nHost: a\r\n\r\n");
    return ((Router.Plain<String>) router.find(r.method(), r.path())).handler().handle(r);
  }

  private static String body(HttpResponse r) {
    return java.nio.charset.StandardCharsets.UTF_8.decode(r.body()).toString();
  }

  @Test
  void aTemplateMatchesOneNonEmptySegmentPerParameterAndDecodesIt() throws Exception {
    Router<String> router =
        Router.<String>builder().get("/rooms/{room}/users/{user}", ECHO_PARAMS).build();
    HttpResponse r = answer(router, "GET", "/rooms/caf%C3%A9/users/a+b?x=1");
    assertThat(r.status()).isEqualTo(200);
    assertThat(body(r)).isEqualTo("{room=café, user=a+b}");
    assertThat(answer(router, "GET", "/rooms//users/u").status()).as("empty segment").isEqualTo(404);
    assertThat(answer(router, "GET", "/rooms/r/users").status()).as("fewer").isEqualTo(404);
    assertThat(answer(router, "GET", "/rooms/r/users/u/").status()).as("more").isEqualTo(404);
    assertThat(answer(router, "GET", "/rooms/r/people/u").status()).as("literal").isEqualTo(404);
  }

  @Test
  void anExactPathBeatsATemplateAndAnswersAlone() throws Exception {
    Router<String> router =
        Router.<String>builder()
            .get("/rooms/{room}", ECHO_PARAMS)
            .route("POST", "/rooms/{room}", ECHO_PARAMS)
            .get("/rooms/lobby", r -> HttpResponse.text(200, "lobby"))
            .build();
    assertThat(body(answer(router, "GET", "/rooms/lobby"))).isEqualTo("lobby");
    assertThat(body(answer(router, "GET", "/rooms/7"))).isEqualTo("{room=7}");
    HttpResponse post = answer(router, "POST", "/rooms/lobby");
    assertThat(post.status()).as("the exact route decides: it has no POST").isEqualTo(405);
    assertThat(post.headers().all("Allow")).containsExactly("GET, HEAD");
  }

  @Test
  void aLiteralSegmentBeatsAParameterAtTheFirstSegmentWhereTheyDiffer() throws Exception {
    Router<String> router =
        Router.<String>builder()
            .get("/{any}/{room}/log", r -> HttpResponse.text(200, "any"))
            .get("/rooms/{room}/log", r -> HttpResponse.text(200, "rooms"))
            .get("/rooms/{room}/{what}", r -> HttpResponse.text(200, "what"))
            .build();
    assertThat(body(answer(router, "GET", "/rooms/1/log"))).isEqualTo("rooms");
    assertThat(body(answer(router, "GET", "/halls/1/log"))).isEqualTo("any");
    assertThat(body(answer(router, "GET", "/rooms/1/tail"))).isEqualTo("what");
  }

  @Test
  void theDecidingTemplateAnswers405WithItsMethods() throws Exception {
    Router<String> router =
        Router.<String>builder()
            .route("PUT", "/items/{id}", ECHO_PARAMS)
            .route("DELETE", "/items/{id}", ECHO_PARAMS)
            .build();
    HttpResponse r = answer(router, "GET", "/items/3");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.headers().all("Allow")).containsExactly("PUT, DELETE");
    assertThat(body(answer(router, "DELETE", "/items/3"))).isEqualTo("{id=3}");
  }

  @Test
  void aWebSocketTemplateTakesEveryMethodAndItsParametersAreReadable() {
    Router<String> router = Router.<String>builder().websocket("/chat/{room}", "chat").build();
    assertThat(router.find("GET", "/chat/a")).isInstanceOf(Router.WebSocket.class);
    assertThat(router.find("POST", "/chat/a")).isInstanceOf(Router.WebSocket.class);
    assertThat(Router.pathParams("/chat/{room}").apply("/chat/a%2Fb")).isEqualTo(Map.of("room", "a/b"));
    assertThat(Router.pathParams("/chat/{room}").apply("/elsewhere")).isEmpty();
    assertThat(Router.pathParams("/chat").apply("/chat")).isEmpty();
  }

  @Test
  void templatesOfOneShapeWithOtherNamesOrKindsAreRefused() {
    assertThatThrownBy(
            () -> Router.<String>builder().get("/a/{x}", ECHO_PARAMS).route("POST", "/a/{y}", ECHO_PARAMS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other parameter names");
    assertThatThrownBy(() -> Router.<String>builder().get("/a/{x}", ECHO_PARAMS).websocket("/a/{x}", "w"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Router.<String>builder().websocket("/a/{x}", "w").get("/a/{y}", ECHO_PARAMS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Router.<String>builder().get("/a/x{y}", ECHO_PARAMS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole segment");
    assertThatThrownBy(() -> Router.<String>builder().get("/{a}/{a}", ECHO_PARAMS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("twice");
  }

  @Test
  void staticMountsComeAfterTemplates() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("static");
    try {
      Router<String> router =
          Router.<String>builder()
              .staticFiles("/files/", dir)
              .get("/files/{name}", ECHO_PARAMS)
              .build();
      assertThat(body(answer(router, "GET", "/files/a.txt"))).isEqualTo("{name=a.txt}");
    } finally {
      java.nio.file.Files.delete(dir);
    }
  }
}
