package dev.wsjava.internal.proxyprotocol;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IP address literals as balancers write them, read without ever asking DNS: a text that is not
 * a literal is refused, never looked up. Stateless.
 */
final class IpLiteral {
  private IpLiteral() {}

  /** A literal of either family, or null. */
  static InetAddress parse(String s) {
    return s.indexOf(':') >= 0 ? ipv6(s) : ipv4(s);
  }

  /** A dotted quad, each part 1 to 3 digits up to 255; or null. */
  static InetAddress ipv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] a = new byte[4];
    for (int i = 0; i < 4; i++) {
      int v = decimal(parts[i], 3);
      if (v < 0 || v > 255) {
        return null;
      }
      a[i] = (byte) v;
    }
    return byAddress(a);
  }

  /**
   * An IPv6 literal (an IPv4-mapped one may end in a dotted quad); or null. Checked to hold only
   * its characters before the JDK reads it: a text with a colon is then parsed, never looked up.
   */
  static InetAddress ipv6(String s) {
    if (s.isEmpty() || s.length() > 45 || s.indexOf(':') < 0 || s.charAt(0) == '.') {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
        return null;
      }
    }
    try {
      InetAddress a = InetAddress.getByName(s);
      return a instanceof Inet6Address || s.indexOf('.') >= 0 ? a : null;
    } catch (UnknownHostException | RuntimeException e) {
      return null;
    }
  }

  /** Digits only, 1 to {@code max} of them; -1 otherwise. */
  static int decimal(String s, int max) {
    if (s.isEmpty() || s.length() > max) {
      return -1;
    }
    int v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  static InetAddress byAddress(byte[] a) {
    try {
      return InetAddress.getByAddress(a);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("4 or 16 bytes are an address", e);
    }
  }
}
