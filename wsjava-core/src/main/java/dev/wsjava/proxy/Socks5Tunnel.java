package dev.wsjava.proxy;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * RFC 1928: a SOCKS5 CONNECT, with RFC 1929 username/password authentication when credentials are
 * given. One step at a time: the method negotiation (offering "no authentication", plus
 * "username/password" when there are credentials), the authentication if the proxy chose it, then
 * CONNECT. The target goes as an IPv4 (ATYP 1) or IPv6 (ATYP 4) address when it is an IP literal,
 * else as a domain name (ATYP 3) that the proxy resolves: the client never looks the name up
 * itself. Each reply is read to its last byte and no further, so whatever follows the CONNECT
 * reply stays in the input for the tunnelled stream.
 */
public final class Socks5Tunnel extends Tunnel {
  private static final int VERSION = 5;
  private static final int AUTH_VERSION = 1; // RFC 1929 §2
  private static final int NO_AUTH = 0x00;
  private static final int USER_PASSWORD = 0x02;
  private static final int NO_ACCEPTABLE = 0xFF;
  private static final int CONNECT = 0x01;
  private static final int IPV4 = 0x01;
  private static final int DOMAIN = 0x03;
  private static final int IPV6 = 0x04;

  private enum Stage {
    METHOD,
    AUTH,
    CONNECT,
    DONE
  }

  private final byte[] connectRequest;
  private Stage stage = Stage.METHOD;

  /** The reply being read: the longest is a CONNECT reply with a 255-byte name (4+1+255+2). */
  private final byte[] reply = new byte[262];

  private int have;

  Socks5Tunnel(ProxySpec proxy, String targetHost, int targetPort) {
    super(proxy, targetHost, targetPort);
    this.connectRequest = connectRequest(targetHost, targetPort);
    send(
        proxy.user() == null
            ? new byte[] {VERSION, 1, NO_AUTH}
            : new byte[] {VERSION, 2, NO_AUTH, USER_PASSWORD});
  }

  @Override
  public Step receive(ByteBuffer in) throws TunnelException {
    while (true) {
      switch (stage) {
        case METHOD -> {
          if (!fill(in, 2)) {
            return Step.NEED_MORE;
          }
          method();
        }
        case AUTH -> {
          if (!fill(in, 2)) {
            return Step.NEED_MORE;
          }
          authenticated();
        }
        case CONNECT -> {
          if (!fill(in, 5)) {
            return Step.NEED_MORE;
          }
          checkConnectReply();
          if (!fill(in, connectReplyLength())) {
            return Step.NEED_MORE;
          }
          stage = Stage.DONE;
          return Step.DONE;
        }
        case DONE -> throw new IllegalStateException("the SOCKS5 exchange is over");
      }
    }
  }

  /** Reads from {@code in} until {@code length} reply bytes are held; never past them. */
  private boolean fill(ByteBuffer in, int length) {
    int n = Math.min(length - have, in.remaining());
    if (n > 0) {
      in.get(reply, have, n);
      have += n;
    }
    return have >= length;
  }

  private void method() throws TunnelException {
    checkVersion(VERSION, "method selection");
    int method = reply[1] & 0xFF;
    have = 0;
    if (method == NO_AUTH) {
      sendConnect();
    } else if (method == USER_PASSWORD && proxy().user() != null) {
      authRequest();
    } else if (method == NO_ACCEPTABLE) {
      throw fail(
          "accepts none of the authentication methods offered ("
              + (proxy().user() == null
                  ? "no authentication; give a user and password if it wants them"
                  : "no authentication, username/password")
              + ") (RFC 1928 §3)");
    } else {
      throw fail("chose authentication method " + hex(method) + ", which was not offered");
    }
  }

  private void authRequest() {
    byte[] user = proxy().user().getBytes(StandardCharsets.UTF_8);
    byte[] password = proxy().password().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream b = new ByteArrayOutputStream(3 + user.length + password.length);
    b.write(AUTH_VERSION);
    b.write(user.length);
    b.writeBytes(user);
    b.write(password.length);
    b.writeBytes(password);
    send(b.toByteArray());
    stage = Stage.AUTH;
  }

  private void authenticated() throws TunnelException {
    checkVersion(AUTH_VERSION, "username/password reply");
    int status = reply[1] & 0xFF;
    have = 0;
    if (status != 0) {
      throw fail(
          "rejected the username/password of user '"
              + proxy().user()
              + "' (RFC 1929 status "
              + status
              + ")");
    }
    sendConnect();
  }

  /** VER CMD RSV ATYP DST.ADDR DST.PORT (RFC 1928 §4). */
  private static byte[] connectRequest(String host, int port) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(262);
    b.writeBytes(new byte[] {VERSION, CONNECT, 0});
    byte[] ip = ipLiteral(host);
    if (ip != null) {
      b.write(ip.length == 4 ? IPV4 : IPV6);
      b.writeBytes(ip);
    } else {
      byte[] name = host.getBytes(StandardCharsets.US_ASCII);
      if (name.length > 255) {
        throw new IllegalArgumentException(
            "a host name for SOCKS5 is at most 255 bytes (RFC 1928 §5): " + name.length);
      }
      b.write(DOMAIN);
      b.write(name.length);
      b.writeBytes(name);
    }
    b.write(port >>> 8);
    b.write(port & 0xFF);
    return b.toByteArray();
  }

  private void sendConnect() {
    send(connectRequest);
    stage = Stage.CONNECT;
  }

  private void checkConnectReply() throws TunnelException {
    checkVersion(VERSION, "CONNECT reply");
    int code = reply[1] & 0xFF;
    if (code != 0) {
      throw fail("refused CONNECT " + target() + ": reply " + code + " (" + meaning(code) + ")");
    }
    int atyp = reply[3] & 0xFF;
    if (atyp != IPV4 && atyp != DOMAIN && atyp != IPV6) {
      throw fail("answered CONNECT with unknown address type " + hex(atyp) + " (RFC 1928 §6)");
    }
  }

  /** The whole CONNECT reply's length, from its first five bytes. */
  private int connectReplyLength() {
    return switch (reply[3] & 0xFF) {
      case IPV4 -> 4 + 4 + 2;
      case IPV6 -> 4 + 16 + 2;
      default -> 4 + 1 + (reply[4] & 0xFF) + 2;
    };
  }

  private void checkVersion(int expected, String what) throws TunnelException {
    int version = reply[0] & 0xFF;
    if (version != expected) {
      throw fail(
          "is not a SOCKS5 proxy: its "
              + what
              + " has version "
              + version
              + ", expected "
              + expected);
    }
  }

  @Override
  public TunnelException endOfStream() {
    String during =
        switch (stage) {
          case METHOD -> "the method selection";
          case AUTH -> "the username/password check";
          default -> "CONNECT " + target();
        };
    return failure("closed the connection before answering " + during);
  }

  private TunnelException fail(String what) {
    stage = Stage.DONE;
    return failure(what);
  }

  /**
   * The meaning of a SOCKS5 reply code (RFC 1928 §6).
   *
   * @param code the REP field
   * @return its meaning, as the RFC names it
   */
  public static String meaning(int code) {
    return switch (code) {
      case 0 -> "succeeded";
      case 1 -> "general SOCKS server failure";
      case 2 -> "connection not allowed by ruleset";
      case 3 -> "network unreachable";
      case 4 -> "host unreachable";
      case 5 -> "connection refused";
      case 6 -> "TTL expired";
      case 7 -> "command not supported";
      case 8 -> "address type not supported";
      default -> "unassigned reply code " + hex(code);
    };
  }

  private static String hex(int b) {
    return String.format("0x%02X", b);
  }

  /**
   * Returns the address bytes of an IP literal, without any name lookup: dotted-quad IPv4, or
   * IPv6 (anything with a colon).
   *
   * @param host a host as in a URI, IPv6 without brackets
   * @return 4 or 16 bytes, or null when {@code host} is a name (or a malformed literal)
   */
  public static byte[] ipLiteral(String host) {
    if (host.indexOf(':') >= 0) {
      try {
        return InetAddress.getByName(host).getAddress(); // a colon: parsed as IPv6, never looked up
      } catch (UnknownHostException e) {
        return null;
      }
    }
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] ip = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int v = Integer.parseInt(p);
      if (v > 255) {
        return null;
      }
      ip[i] = (byte) v;
    }
    return ip;
  }
}
