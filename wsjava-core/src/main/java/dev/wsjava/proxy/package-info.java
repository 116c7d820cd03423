/**
 * Client proxy tunnels, sans-I/O: HTTP CONNECT (RFC 9110 §9.3.6, Basic credentials per RFC 7617)
 * and SOCKS5 (RFC 1928, with RFC 1929 username/password). A {@link dev.wsjava.proxy.Tunnel} is fed
 * the proxy's bytes and says what to send next, when the tunnel is open, and what the proxy's
 * refusal meant; both transports drive the same tunnels. May import {@code dev.wsjava.handshake}
 * (for the HTTP head parser). Internal: not exported by the module.
 */
package dev.wsjava.proxy;
