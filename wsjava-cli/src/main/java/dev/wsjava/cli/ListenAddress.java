package dev.wsjava.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --host} option of the commands that listen ({@code serve}, {@code conformance
 * server}), and how the address reads in the URLs they print.
 */
final class ListenAddress {
  @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "Address to listen on; 0.0.0.0 (or ::) for every interface.")
  String host;

  /**
   * Checks that the address can be resolved, so that a typo says so rather than failing deep in
   * the server's start.
   *
   * @throws java.net.UnknownHostException "cannot resolve host NAME"
   */
  void checkResolvable() throws java.net.UnknownHostException {
    if (everyInterface()) {
      return;
    }
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
        : host;
    try {
      java.net.InetAddress.getByName(bare);
    } catch (java.net.UnknownHostException e) {
      throw new java.net.UnknownHostException("cannot resolve host " + host);
    }
  }

  /** Whether the address is a wildcard: every interface. */
  boolean everyInterface() {
    return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") || host.isEmpty();
  }

  /**
   * The host and port a client on this machine reaches the server at: 127.0.0.1 for a wildcard
   * address, IPv6 in brackets.
   */
  String authority(int port) {
    String shown = everyInterface() ? "127.0.0.1"
        : host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return shown + ":" + port;
  }
}
