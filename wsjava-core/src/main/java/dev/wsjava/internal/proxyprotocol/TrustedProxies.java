package dev.wsjava.internal.proxyprotocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxies whose {@code Forwarded} (RFC 7239) and {@code X-Forwarded-For} fields a server
 * believes, as address ranges (CIDR), and the reading of those fields: the client is the
 * right-most address that is not a trusted proxy. Each proxy appends the address it received the
 * request from, so everything right of that address was written by a trusted proxy and everything
 * left of it may be made up by the client. Immutable; thread-safe.
 */
public final class TrustedProxies {
  private static final TrustedProxies NONE = new TrustedProxies(List.of());

  private final List<Range> ranges;

  private record Range(byte[] network, int bits) {
    boolean contains(byte[] a) {
      if (a.length != network.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (a[i] != network[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xFF << (8 - rest)) & 0xFF;
      return (a[full] & mask) == (network[full] & mask);
    }
  }

  private TrustedProxies(List<Range> ranges) {
    this.ranges = ranges;
  }

  /**
   * Returns the empty set: no forwarding field is believed.
   *
   * @return the set trusting nobody
   */
  public static TrustedProxies none() {
    return NONE;
  }

  /**
   * Parses address ranges.
   *
   * @param cidrs each an IP literal ({@code 127.0.0.1}, {@code ::1}) or a range ({@code
   *     10.0.0.0/8}, {@code fd00::/8}); host names are refused, never looked up
   * @return the set
   * @throws IllegalArgumentException naming the first entry that is not an address or range
   */
  public static TrustedProxies of(List<String> cidrs) {
    List<Range> ranges = new ArrayList<>();
    for (String cidr : cidrs) {
      String s = cidr.strip();
      int slash = s.indexOf('/');
      InetAddress a = IpLiteral.parse(slash < 0 ? s : s.substring(0, slash));
      if (a == null) {
        throw new IllegalArgumentException(
            "a trusted proxy is an IP address or a CIDR range such as 10.0.0.0/8, not " + cidr);
      }
      byte[] network = a.getAddress();
      int bits = network.length * 8;
      if (slash >= 0) {
        bits = IpLiteral.decimal(s.substring(slash + 1), 3);
        if (bits < 0 || bits > network.length * 8) {
          throw new IllegalArgumentException(
              "the prefix length of " + cidr + " is not 0 to " + network.length * 8);
        }
      }
      ranges.add(new Range(network, bits));
    }
    return new TrustedProxies(List.copyOf(ranges));
  }

  /**
   * Returns whether no proxy is trusted.
   *
   * @return true for the empty set
   */
  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  /**
   * Returns whether {@code address} is a trusted proxy's.
   *
   * @param address an address, or null
   * @return true when one of the ranges holds it
   */
  public boolean trusts(InetAddress address) {
    if (address == null) {
      return false;
    }
    byte[] a = address.getAddress();
    for (Range r : ranges) {
      if (r.contains(a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the client a request comes from: {@code peer} unless it is a trusted proxy; then the
   * right-most address of the forwarding fields that is not a trusted proxy (or the left-most one
   * when all are). {@code Forwarded} is read when the request has one, else {@code
   * X-Forwarded-For}. An element that is not an address (RFC 7239's {@code unknown} and obfuscated
   * identifiers, garbage) ends the walk: the last address reached is the answer.
   *
   * @param peer the address the connection comes from (after the PROXY header, if any)
   * @param forwarded the {@code Forwarded} field values, in order
   * @param xForwardedFor the {@code X-Forwarded-For} field values, in order
   * @return the client's address; {@code peer} itself when nothing changes it
   */
  public InetSocketAddress client(
      InetSocketAddress peer, List<String> forwarded, List<String> xForwardedFor) {
    if (peer == null || ranges.isEmpty() || !trusts(peer.getAddress())) {
      return peer;
    }
    List<String> chain = new ArrayList<>();
    boolean rfc7239 = !forwarded.isEmpty();
    for (String value : rfc7239 ? forwarded : xForwardedFor) {
      for (String element : value.split(",", -1)) {
        chain.add(element.strip());
      }
    }
    InetSocketAddress client = peer;
    for (int i = chain.size() - 1; i >= 0; i--) {
      InetSocketAddress next = rfc7239 ? forwardedFor(chain.get(i)) : node(chain.get(i));
      if (next == null) {
        return client;
      }
      client = next;
      if (!trusts(next.getAddress())) {
        return client;
      }
    }
    return client;
  }

  /** The {@code for} parameter of one RFC 7239 element, as an address; null when unusable. */
  private static InetSocketAddress forwardedFor(String element) {
    for (String pair : element.split(";", -1)) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).strip().equalsIgnoreCase("for")) {
        String v = pair.substring(eq + 1).strip();
        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
          v = v.substring(1, v.length() - 1);
        }
        return node(v);
      }
    }
    return null;
  }

  /**
   * A node (RFC 7239 §6): {@code 192.0.2.43}, {@code 192.0.2.43:47011}, {@code [2001:db8::1]},
   * {@code [2001:db8::1]:4711}; X-Forwarded-For also carries bare IPv6. Null when not an address.
   */
  private static InetSocketAddress node(String s) {
    String host = s;
    int port = 0;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        return null;
      }
      host = s.substring(1, close);
      String rest = s.substring(close + 1);
      if (!rest.isEmpty()) {
        if (rest.charAt(0) != ':' || (port = IpLiteral.decimal(rest.substring(1), 5)) < 0) {
          return null;
        }
      }
    } else if (s.indexOf(':') == s.lastIndexOf(':') && s.indexOf(':') > 0) {
      int colon = s.indexOf(':');
      host = s.substring(0, colon);
      port = IpLiteral.decimal(s.substring(colon + 1), 5);
      if (port < 0) {
        return null;
      }
    }
    InetAddress a = IpLiteral.parse(host);
    return a == null || port > 65535 ? null : new InetSocketAddress(a, port);
  }
}
