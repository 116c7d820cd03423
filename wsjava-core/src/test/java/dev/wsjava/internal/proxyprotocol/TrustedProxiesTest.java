package dev.wsjava.internal.proxyprotocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {
  private static final TrustedProxies NGINX = TrustedProxies.of(List.of("127.0.0.1", "10.0.0.0/8"));
  private static final InetSocketAddress FROM_NGINX = new InetSocketAddress("127.0.0.1", 40000);

  private static InetSocketAddress xff(TrustedProxies t, InetSocketAddress peer, String... values) {
    return t.client(peer, List.of(), List.of(values));
  }

  @Test
  void theRightMostUntrustedAddressIsTheClient() {
    // the client forged 6.6.6.6; nginx appended the address it saw, 203.0.113.7
    assertThat(xff(NGINX, FROM_NGINX, "6.6.6.6, 203.0.113.7").getAddress().getHostAddress())
        .isEqualTo("203.0.113.7");
    // through two trusted hops
    assertThat(xff(NGINX, FROM_NGINX, "6.6.6.6, 203.0.113.7, 10.1.2.3").getAddress().getHostAddress())
        .isEqualTo("203.0.113.7");
    // several fields are one list, in order
    assertThat(xff(NGINX, FROM_NGINX, "6.6.6.6", "203.0.113.7").getAddress().getHostAddress())
        .isEqualTo("203.0.113.7");
  }

  @Test
  void fieldsFromAnUntrustedPeerAreIgnored() {
    InetSocketAddress direct = new InetSocketAddress("198.51.100.9", 5000);
    assertThat(xff(NGINX, direct, "6.6.6.6")).isSameAs(direct);
    assertThat(xff(TrustedProxies.none(), FROM_NGINX, "6.6.6.6")).isSameAs(FROM_NGINX);
  }

  @Test
  void allTrustedGivesTheLeftMost() {
    assertThat(xff(NGINX, FROM_NGINX, "10.0.0.1, 10.0.0.2").getAddress().getHostAddress())
        .isEqualTo("10.0.0.1");
  }

  @Test
  void anElementThatIsNotAnAddressEndsTheWalk() {
    assertThat(xff(NGINX, FROM_NGINX, "203.0.113.7, unknown").getAddress().getHostAddress())
        .isEqualTo("127.0.0.1");
    assertThat(xff(NGINX, FROM_NGINX, "example.com")).isSameAs(FROM_NGINX);
    assertThat(xff(NGINX, FROM_NGINX, "")).isSameAs(FROM_NGINX);
  }

  @Test
  void forwardedOfRfc7239IsPreferredAndCarriesPorts() {
    InetSocketAddress client =
        NGINX.client(
            FROM_NGINX,
            List.of("for=192.0.2.60;proto=http;by=203.0.113.43", "for=\"[2001:db8:cafe::17]:4711\""),
            List.of("6.6.6.6"));
    assertThat(client).isEqualTo(new InetSocketAddress("2001:db8:cafe::17", 4711));
    assertThat(
            NGINX.client(FROM_NGINX, List.of("For=\"192.0.2.43:47011\""), List.of()))
        .isEqualTo(new InetSocketAddress("192.0.2.43", 47011));
    assertThat(NGINX.client(FROM_NGINX, List.of("for=_hidden"), List.of())).isSameAs(FROM_NGINX);
  }

  @Test
  void rangesMatchByPrefix() throws Exception {
    TrustedProxies t = TrustedProxies.of(List.of("192.168.4.0/22", "fd00::/8", "::1"));
    assertThat(t.trusts(InetAddress.getByName("192.168.7.255"))).isTrue();
    assertThat(t.trusts(InetAddress.getByName("192.168.8.0"))).isFalse();
    assertThat(t.trusts(InetAddress.getByName("fdab::1"))).isTrue();
    assertThat(t.trusts(InetAddress.getByName("fe00::1"))).isFalse();
    assertThat(t.trusts(InetAddress.getByName("::1"))).isTrue();
    assertThat(t.trusts(InetAddress.getByName("127.0.0.1"))).isFalse();
    assertThat(TrustedProxies.of(List.of("0.0.0.0/0")).trusts(InetAddress.getByName("8.8.8.8")))
        .isTrue();
  }

  @Test
  void hostNamesAndBadPrefixesAreRefused() {
    assertThatThrownBy(() -> TrustedProxies.of(List.of("localhost")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("localhost");
    assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
