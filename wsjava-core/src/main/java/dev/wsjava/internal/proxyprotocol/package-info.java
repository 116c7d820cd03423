/**
 * The PROXY protocol (versions 1 and 2, haproxy's {@code proxy-protocol.txt}), which a load
 * balancer sends before anything else on a connection to say whom it carries; and the
 * trusted-proxy reading of {@code Forwarded} (RFC 7239) and {@code X-Forwarded-For}. Sans-I/O:
 * fed bytes and header values, no sockets, no clocks. Internal: not exported by the module.
 */
package dev.wsjava.internal.proxyprotocol;
