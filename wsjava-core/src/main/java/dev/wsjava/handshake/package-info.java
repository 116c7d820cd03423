/**
 * The RFC 6455 §4 opening handshake, sans-I/O: an incremental HTTP/1.1 head parser with limits, the
 * {@code Sec-WebSocket-Accept} computation, and the client and server sides of the upgrade
 * (validation, subprotocol and extension negotiation), fed bytes and returning bytes.
 *
 * <p>Internal to the module: transports and the HTTP front use it, users do not. Nothing here opens
 * a socket, starts a thread or reads a clock.
 */
package dev.wsjava.handshake;
