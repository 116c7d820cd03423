/**
 * The RFC 6455 §4 opening handshake, sans-I/O: an incremental HTTP/1.1 head parser with limits, the
 * {@code Sec-WebSocket-Accept} computation, and the client and server sides of the upgrade
 * (validation, subprotocol and extension negotiation), fed bytes and returning bytes.
 *
 * <p>May import {@code dev.wsjava.extension} (and through it {@code dev.wsjava.protocol}). Nothing
 * here opens a socket, starts a thread or reads a clock. Exported by the module, because handlers
 * and handshake hooks see request heads and headers; the parser and the two sides of the upgrade
 * are exported with them, which issue 26 plans to undo.
 */
package dev.wsjava.handshake;
