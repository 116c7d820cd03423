package dev.wsjava.internal.proxyprotocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A PROXY protocol header (haproxy's {@code proxy-protocol.txt}, versions 1 and 2), as a load
 * balancer sends it before the first byte of its client's: who connected ({@link #source()}) and
 * to what ({@link #destination()}). {@link #parse} is fed the connection's first bytes and either
 * needs more (and consumes nothing), or consumes exactly the header and returns it, or refuses.
 *
 * <p>Bounded: a version 1 line is at most {@link #V1_MAX} bytes with its CRLF (the spec's worst
 * case), a version 2 header at most {@link #V2_MAX} bytes with its TLVs (nginx's bound; AWS and
 * GCP balancers send well under 300). A prefix that cannot begin either version is refused at once,
 * so a client speaking HTTP or TLS straight to a server that requires the header is turned away on
 * its first bytes instead of waiting out a timeout.
 *
 * @param version 1 or 2
 * @param source the client's address and port, or null when the header says to use the
 *     connection's own (version 1 {@code UNKNOWN}; version 2 {@code LOCAL}, a health check of the
 *     balancer itself; or a family other than TCP over IPv4 or IPv6)
 * @param destination the address the client connected to, or null with a null source
 */
public record ProxyHeader(int version, InetSocketAddress source, InetSocketAddress destination) {
  /** The longest version 1 line, CRLF included: {@code PROXY UNKNOWN} and two full IPv6 forms. */
  public static final int V1_MAX = 107;

  /** The longest version 2 header accepted, TLVs included. */
  public static final int V2_MAX = 4096;

  private static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] V2_SIGNATURE = {
    0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A
  };
  private static final int V2_FIXED = 16;

  /**
   * Parses the header at {@code in}'s position.
   *
   * @param in the connection's first bytes, position to limit
   * @return the header, with {@code in} advanced past it; or null when more bytes are needed, with
   *     {@code in} untouched
   * @throws ProxyHeaderException when the bytes are not a valid header (position untouched)
   */
  public static ProxyHeader parse(ByteBuffer in) throws ProxyHeaderException {
    int n = in.remaining();
    if (n == 0) {
      return null;
    }
    int p = in.position();
    if (in.get(p) == 'P') {
      if (!startsWith(in, V1_PREFIX)) {
        throw new ProxyHeaderException("the connection does not start with a PROXY header");
      }
      return n < V1_PREFIX.length ? null : v1(in);
    }
    if (in.get(p) == 0x0D) {
      if (!startsWith(in, V2_SIGNATURE)) {
        throw new ProxyHeaderException("the connection does not start with a PROXY header");
      }
      return n < V2_FIXED ? null : v2(in);
    }
    throw new ProxyHeaderException("the connection does not start with a PROXY header");
  }

  /** Whether the available bytes agree with {@code prefix} as far as they go. */
  private static boolean startsWith(ByteBuffer in, byte[] prefix) {
    int p = in.position();
    int n = Math.min(in.remaining(), prefix.length);
    for (int i = 0; i < n; i++) {
      if (in.get(p + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  // ---- version 1: "PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n" ----

  private static ProxyHeader v1(ByteBuffer in) throws ProxyHeaderException {
    int p = in.position();
    int n = Math.min(in.remaining(), V1_MAX);
    int end = -1;
    for (int i = 0; i < n; i++) {
      byte b = in.get(p + i);
      if (b == '\r') {
        if (i + 1 == n) {
          if (n == V1_MAX) {
            break;
          }
          return null; // the LF may come next
        }
        if (in.get(p + i + 1) != '\n') {
          throw new ProxyHeaderException("a PROXY v1 line has CR without LF");
        }
        end = i;
        break;
      }
      if (b < 0x20 || b > 0x7E) {
        throw new ProxyHeaderException("a PROXY v1 line holds a byte that is not printable ASCII");
      }
    }
    if (end < 0) {
      if (in.remaining() >= V1_MAX) {
        throw new ProxyHeaderException("a PROXY v1 line has no CRLF within " + V1_MAX + " bytes");
      }
      return null;
    }
    byte[] line = new byte[end];
    in.get(p, line);
    String[] f = new String(line, StandardCharsets.US_ASCII).split(" ", -1);
    ProxyHeader header;
    // f[0] is "PROXY"
    if (f.length >= 2 && f[1].equals("UNKNOWN")) {
      header = new ProxyHeader(1, null, null); // the rest of the line is ignored (spec 2.1)
    } else if (f.length == 6 && (f[1].equals("TCP4") || f[1].equals("TCP6"))) {
      boolean v6 = f[1].equals("TCP6");
      InetAddress src = v6 ? ipv6(f[2]) : ipv4(f[2]);
      InetAddress dst = v6 ? ipv6(f[3]) : ipv4(f[3]);
      header =
          new ProxyHeader(
              1, new InetSocketAddress(src, port(f[4])), new InetSocketAddress(dst, port(f[5])));
    } else {
      throw new ProxyHeaderException(
          "a PROXY v1 line is \"PROXY TCP4|TCP6 SRC DST SPORT DPORT\" or \"PROXY UNKNOWN\"");
    }
    in.position(p + end + 2);
    return header;
  }

  private static InetAddress ipv4(String s) throws ProxyHeaderException {
    InetAddress a = IpLiteral.ipv4(s);
    if (a == null) {
      throw new ProxyHeaderException("not an IPv4 address in a PROXY v1 line: " + s);
    }
    return a;
  }

  private static InetAddress ipv6(String s) throws ProxyHeaderException {
    InetAddress a = IpLiteral.ipv6(s);
    if (a == null) {
      throw new ProxyHeaderException("not an IPv6 address in a PROXY v1 line: " + s);
    }
    return a;
  }

  private static int port(String s) throws ProxyHeaderException {
    int v = IpLiteral.decimal(s, 5);
    if (v < 0 || v > 65535) {
      throw new ProxyHeaderException("not a port in a PROXY v1 line: " + s);
    }
    return v;
  }

  // ---- version 2: signature, version and command, family and transport, length, addresses, TLVs

  private static ProxyHeader v2(ByteBuffer in) throws ProxyHeaderException {
    int p = in.position();
    int verCmd = in.get(p + 12) & 0xFF;
    int famProto = in.get(p + 13) & 0xFF;
    int length = in.getShort(p + 14) & 0xFFFF;
    if (verCmd >> 4 != 2) {
      throw new ProxyHeaderException("a PROXY v2 header of version " + (verCmd >> 4));
    }
    int command = verCmd & 0x0F;
    if (command > 1) {
      throw new ProxyHeaderException("a PROXY v2 header with command " + command + " (0 or 1)");
    }
    int family = famProto >> 4;
    int transport = famProto & 0x0F;
    if (family > 3 || transport > 2) {
      throw new ProxyHeaderException(
          "a PROXY v2 header with family " + family + " and transport " + transport);
    }
    if (V2_FIXED + length > V2_MAX) {
      throw new ProxyHeaderException(
          "a PROXY v2 header of " + (V2_FIXED + length) + " bytes; at most " + V2_MAX);
    }
    if (in.remaining() < V2_FIXED + length) {
      return null;
    }
    int addresses =
        switch (family) {
          case 1 -> 12; // two IPv4 addresses, two ports
          case 2 -> 36; // two IPv6 addresses, two ports
          case 3 -> 216; // two UNIX paths
          default -> 0;
        };
    if (length < addresses) {
      throw new ProxyHeaderException(
          "a PROXY v2 header of family " + family + " needs " + addresses
              + " address bytes, has " + length);
    }
    int a = p + V2_FIXED;
    checkTlvs(in, a + addresses, a + length);
    ProxyHeader header;
    if (command == 0 || transport != 1 || (family != 1 && family != 2)) {
      // LOCAL (the balancer's own health check), or not TCP: the connection's own addresses.
      header = new ProxyHeader(2, null, null);
    } else {
      int size = family == 1 ? 4 : 16;
      byte[] src = new byte[size];
      byte[] dst = new byte[size];
      in.get(a, src);
      in.get(a + size, dst);
      int sport = in.getShort(a + 2 * size) & 0xFFFF;
      int dport = in.getShort(a + 2 * size + 2) & 0xFFFF;
      header =
          new ProxyHeader(
              2,
              new InetSocketAddress(IpLiteral.byAddress(src), sport),
              new InetSocketAddress(IpLiteral.byAddress(dst), dport));
    }
    in.position(p + V2_FIXED + length);
    return header;
  }

  /** The TLVs after the addresses must tile their space exactly: type, 16-bit length, value. */
  private static void checkTlvs(ByteBuffer in, int from, int to) throws ProxyHeaderException {
    int i = from;
    while (i < to) {
      if (to - i < 3) {
        throw new ProxyHeaderException("a PROXY v2 TLV is cut short");
      }
      int len = in.getShort(i + 1) & 0xFFFF;
      i += 3 + len;
    }
    if (i != to) {
      throw new ProxyHeaderException("a PROXY v2 TLV runs past the header's length");
    }
  }
}
