package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.handshake.ServerHandshakeConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RouterTest {
  private static final HttpHandler HOME = r -> HttpResponse.text(200, "home");
  private static final HttpHandler CREATE = r -> HttpResponse.empty(201);

  private static HttpResponse answer(Router<String> router, String method, String target)
      throws Exception {
    HttpRequest r = request(method + " " + target + " HTTP/1.1\r\nHost: a\r\n\r\n");
    return ((Router.Plain<String>) router.find(r.method(), r.path())).handler().handle(r);
  }

  @Test
  void anExactPathFindsItsHandlerAndItsQueryDoesNotMatter() throws Exception {
    Router<String> router = Router.<String>builder().get("/", HOME).build();
    assertThat(router.find("GET", "/")).isEqualTo(new Router.Plain<String>(HOME));
    assertThat(answer(router, "GET", "/?page=2").status()).isEqualTo(200);
    assertThat(answer(router, "GET", "/index.html").status()).isEqualTo(404);
  }

  @Test
  void aGetRouteAnswersHeadUnlessHeadHasItsOwn() throws Exception {
    HttpHandler head = r -> HttpResponse.empty(204);
    Router<String> router =
        Router.<String>builder().get("/", HOME).get("/h", HOME).route("HEAD", "/h", head).build();
    assertThat(router.find("HEAD", "/")).isEqualTo(new Router.Plain<String>(HOME));
    assertThat(router.find("HEAD", "/h")).isEqualTo(new Router.Plain<String>(head));
  }

  @Test
  void anotherMethodGets405ListingTheRoutesMethodsInOrder() throws Exception {
    Router<String> router =
        Router.<String>builder()
            .route("POST", "/items", CREATE)
            .get("/items", HOME)
            .route("DELETE", "/items", CREATE)
            .build();
    HttpResponse r = answer(router, "PUT", "/items");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.headers().all("Allow")).containsExactly("POST, GET, HEAD, DELETE");
    assertThat(answer(router, "POST", "/items").status()).isEqualTo(201);
  }

  @Test
  void methodsAreCaseSensitive() throws Exception {
    Router<String> router = Router.<String>builder().get("/", HOME).build();
    assertThat(answer(router, "get", "/").status()).isEqualTo(405);
  }

  @Test
  void pathsMatchAsSentWithoutDecodingOrNormalizing() throws Exception {
    Router<String> router = Router.<String>builder().get("/a%20b", HOME).build();
    assertThat(answer(router, "GET", "/a%20b").status()).isEqualTo(200);
    assertThat(answer(router, "GET", "/a%20b/").status()).isEqualTo(404);
    assertThat(answer(router, "GET", "/./a%20b").status()).isEqualTo(404);
  }

  @Test
  void aWebSocketRouteIsFoundWhateverTheMethodWithTheDefaultHandshake() {
    ServerHandshakeConfig own = ServerHandshakeConfig.defaults().withOriginPolicy(o -> false);
    ServerHandshakeConfig shared =
        ServerHandshakeConfig.defaults().withSubprotocolSelector(List::getFirst);
    Router<String> router =
        Router.<String>builder()
            .websocket("/chat", "chat")
            .websocket("/admin", "admin", own)
            .handshake(shared)
            .build();
    assertThat(router.find("GET", "/chat")).isEqualTo(new Router.WebSocket<>("chat", shared));
    assertThat(router.find("POST", "/chat")).isEqualTo(new Router.WebSocket<>("chat", shared));
    assertThat(router.find("GET", "/admin")).isEqualTo(new Router.WebSocket<>("admin", own));
  }

  @Test
  void theBuilderIsRefusedConflictingRoutes() {
    Router.Builder<String> b = Router.<String>builder().get("/", HOME).websocket("/ws", "ws");
    assertThatThrownBy(() -> b.get("/", HOME)).hasMessageContaining("GET / is already routed");
    assertThatThrownBy(() -> b.websocket("/", "x")).hasMessageContaining("already routed");
    assertThatThrownBy(() -> b.websocket("/ws", "x")).hasMessageContaining("already routed");
    assertThatThrownBy(() -> b.get("/ws", HOME)).hasMessageContaining("WebSocket route");
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "relative", "/with space", "/q?x", "/frag#x", "/é"})
  void aRoutePathIsAnAbsolutePathOfVisibleAscii(String path) {
    assertThatThrownBy(() -> Router.<String>builder().get(path, HOME))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "GET POST", "G\u00c9T", "(GET)"})
  void aMethodIsAToken(String method) {
    assertThatThrownBy(() -> Router.<String>builder().route(method, "/", HOME))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("token");
  }

  @Test
  void aBuiltRouterDoesNotSeeLaterRoutes() throws Exception {
    Router.Builder<String> b = Router.<String>builder().get("/", HOME);
    Router<String> first = b.build();
    b.get("/later", HOME);
    assertThat(answer(first, "GET", "/later").status()).isEqualTo(404);
    assertThat(answer(b.build(), "GET", "/later").status()).isEqualTo(200);
  }
}
