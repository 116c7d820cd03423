/**
 * The RFC 6455 §4 opening handshake, sans-I/O: an incremental HTTP/1.1 head parser with limits, the
 * {@code Sec-WebSocket-Accept} computation, and the client and server sides of the upgrade
 * (validation, subprotocol and extension negotiation), fed bytes and returning bytes.
 *
 * <p>May import {@code dev.wsjava.extension} (and through it {@code dev.wsjava.protocol}) and the
 * API's leaf type {@code dev.wsjava.Headers}, whose package-private parts it reaches through {@link
 * dev.wsjava.handshake.HeadersAccess}. Nothing here opens a socket, starts a thread or reads a
 * clock. Not exported: hooks and handlers see requests as {@code dev.wsjava.http.HttpRequest}.
 */
package dev.wsjava.handshake;
