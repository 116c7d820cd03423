/**
 * The HTTP/1.1 front of a WebSocket server, sans-I/O (RFC 9112 message syntax, RFC 9110 semantics):
 * requests parsed from received bytes, routed by exact path to handlers, static files or WebSocket
 * routes, and answered with response bytes the transport writes.
 *
 * <p>{@link dev.wsjava.http.HttpConnection} owns one TCP connection: keep-alive, pipelining,
 * limits, timeouts (time is passed in) and the hand-over to a WebSocket session after an upgrade.
 * {@link dev.wsjava.http.Router} is the immutable, shared routing table. Nothing here opens a
 * socket, starts a thread or reads a clock; only static files touch the file system.
 *
 * <p>Internal to the module for now: transports use it; the API layer will expose what users need.
 */
package dev.wsjava.http;
