package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebSocketProxyTest {

  @Test
  void parsesAnHttpProxyWithCredentials() {
    WebSocketProxy p = WebSocketProxy.parse("http://alice:s3cret@proxy.example:3128");
    assertThat(p).isEqualTo(WebSocketProxy.http("proxy.example", 3128, "alice", "s3cret"));
    assertThat(p.host()).isEqualTo("proxy.example");
    assertThat(p.port()).isEqualTo(3128);
  }

  @Test
  void percentDecodesCredentialsAsUtf8() {
    WebSocketProxy p = WebSocketProxy.parse("socks5://b%C3%B6b:p%40ss%3Aword@10.0.0.1:1081");
    assertThat(p).isEqualTo(WebSocketProxy.socks5("10.0.0.1", 1081, "b\u00F6b", "p@ss:word"));
  }

  @Test
  void socks5hIsSocks5BecauseTheProxyResolvesNamesEitherWay() {
    assertThat(WebSocketProxy.parse("socks5h://proxy:1080"))
        .isEqualTo(WebSocketProxy.parse("SOCKS5://proxy:1080"))
        .isEqualTo(WebSocketProxy.socks5("proxy", 1080));
  }

  @Test
  void fillsInTheSchemeAndDefaultPorts() {
    assertThat(WebSocketProxy.parse("proxy.example:8080")).isEqualTo(WebSocketProxy.http("proxy.example", 8080));
    assertThat(WebSocketProxy.parse("http://proxy.example/").port()).isEqualTo(80);
    assertThat(WebSocketProxy.parse("socks5://proxy.example").port()).isEqualTo(1080);
  }

  @Test
  void takesAnIpv6ProxyWithoutBrackets() {
    assertThat(WebSocketProxy.parse("http://[::1]:3128").host()).isEqualTo("::1");
    assertThat(WebSocketProxy.parse("http://[::1]:3128")).hasToString("http://[::1]:3128");
  }

  @Test
  void aUserWithoutPasswordHasAnEmptyPassword() {
    assertThat(WebSocketProxy.parse("http://alice@p:1")).isEqualTo(WebSocketProxy.http("p", 1, "alice", ""));
  }

  @Test
  void onlyTheFirstColonSplitsUserFromPassword() {
    assertThat(WebSocketProxy.parse("http://a:b:c@p:1")).isEqualTo(WebSocketProxy.http("p", 1, "a", "b:c"));
  }

  @Test
  void toStringNeverShowsThePassword() {
    assertThat(WebSocketProxy.parse("http://alice:s3cret@proxy.example:3128"))
        .hasToString("http://alice:***@proxy.example:3128");
    assertThat(WebSocketProxy.socks5("h", 1, "u", "pw")).hasToString("socks5://u:***@h:1");
    assertThat(WebSocketProxy.socks5("h", 1)).hasToString("socks5://h:1");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "https://alice:s3cret@p:443 | unsupported proxy scheme 'https'",
        "socks4://p:1080 | unsupported proxy scheme 'socks4'",
        "http://p:3128/path | with no path",
        "http://:3128 | no host",
        "http://p:99999 | 1 to 65535",
        "http://a%zz:s3cret@p:1 | not a proxy URI: http://a%zz:***@p:1",
      })
  void refusesWhatIsNotAProxyUriWithoutQuotingThePassword(String uri, String message) {
    assertThatThrownBy(() -> WebSocketProxy.parse(uri))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void checksCredentialsAgainstTheProtocols() {
    assertThatThrownBy(() -> WebSocketProxy.http("p", 1, "a:b", "c"))
        .hasMessageContaining("must not contain ':'");
    assertThatThrownBy(() -> WebSocketProxy.socks5("p", 1, "u", "x".repeat(256)))
        .hasMessageContaining("255");
    assertThatThrownBy(() -> WebSocketProxy.socks5("p", 1, "", "x")).hasMessageContaining("1 to 255");
    assertThatThrownBy(() -> WebSocketProxy.http("p", 1, "u", "a\r\nb")).hasMessageContaining("control");
    assertThatThrownBy(() -> WebSocketProxy.http("p", 0)).hasMessageContaining("1 to 65535");
  }

  // ---- the environment ----

  static Optional<WebSocketProxy> env(String target, String... pairs) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return WebSocketProxy.fromEnvironment(URI.create(target), Map.copyOf(m));
  }

  @Test
  void wssUsesHttpsProxyAndWsUsesHttpProxy() {
    String[] vars = {"https_proxy", "http://secure:1", "http_proxy", "http://plain:2"};
    assertThat(env("wss://echo.example/", vars)).contains(WebSocketProxy.http("secure", 1));
    assertThat(env("ws://echo.example/", vars)).contains(WebSocketProxy.http("plain", 2));
  }

  @Test
  void lowercaseWinsThenUppercaseThenAllProxy() {
    assertThat(env("ws://h/", "http_proxy", "http://lower:1", "HTTP_PROXY", "http://upper:2"))
        .contains(WebSocketProxy.http("lower", 1));
    assertThat(env("ws://h/", "http_proxy", "", "HTTP_PROXY", "http://upper:2"))
        .contains(WebSocketProxy.http("upper", 2));
    assertThat(env("wss://h/", "http_proxy", "http://plain:2", "ALL_PROXY", "socks5h://all:3"))
        .contains(WebSocketProxy.socks5("all", 3));
    assertThat(env("wss://h/", "http_proxy", "http://plain:2")).isEmpty();
    assertThat(env("wss://h/")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "*",
        "echo.example",
        "example",
        ".example",
        "*.example",
        "other.test, ECHO.Example",
        "echo.example:8443",
      })
  void noProxyBypassesMatchingHosts(String noProxy) {
    assertThat(env("wss://echo.example:8443/", "https_proxy", "http://p:1", "no_proxy", noProxy))
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"cho.example", "echo.example:443", "example.com", "10.0.0.1", ""})
  void noProxyLeavesOtherHostsToTheProxy(String noProxy) {
    assertThat(env("wss://echo.example:8443/", "https_proxy", "http://p:1", "NO_PROXY", noProxy))
        .contains(WebSocketProxy.http("p", 1));
  }

  @Test
  void noProxyMatchesIpLiteralsAsAddresses() {
    String[] proxy = {"http_proxy", "http://p:1"};
    assertThat(env("ws://127.0.0.1:9/", "http_proxy", "http://p:1", "no_proxy", "127.0.0.1")).isEmpty();
    assertThat(env("ws://[::1]:9/", "http_proxy", "http://p:1", "no_proxy", "0:0:0:0:0:0:0:1")).isEmpty();
    assertThat(env("ws://[::1]:9/", "http_proxy", "http://p:1", "no_proxy", "[::1]:9")).isEmpty();
    assertThat(env("ws://[::1]:9/", "http_proxy", "http://p:1", "no_proxy", "[::1]:10")).isPresent();
    // an address is not a domain suffix: 1.0.0.1 does not cover 11.0.0.1
    assertThat(env("ws://11.0.0.1/", "http_proxy", "http://p:1", "no_proxy", "1.0.0.1")).isPresent();
    assertThat(env("ws://127.0.0.1/", proxy)).isPresent();
  }

  @Test
  void aBadProxyVariableIsNamed() {
    assertThatThrownBy(() -> env("ws://h/", "http_proxy", "ftp://p:1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("http_proxy: unsupported proxy scheme 'ftp'");
  }
}
