/**
 * wsjava: a WebSocket toolkit (RFC 6455, RFC 7692).
 *
 * <p>Exported: {@code dev.wsjava} (the API: WebSocket, listeners, server and client builders,
 * configuration), {@code dev.wsjava.protocol} (the RFC's nouns: opcodes, close codes, limits, protocol
 * errors), {@code dev.wsjava.extension} (the extension SPI and permessage-deflate), {@code
 * dev.wsjava.http} (plain HTTP routes: handler, request, response) and {@code
 * dev.wsjava.handshake} (request heads and headers, which handlers and handshake hooks see). The
 * session and transport layers, and the Flight Recorder events ({@code dev.wsjava.events}), are
 * internal.
 */
module dev.wsjava {
  requires jdk.jfr; // the events of dev.wsjava.events; a JDK module, no dependency
  exports dev.wsjava;
  exports dev.wsjava.protocol;
  exports dev.wsjava.extension;
  exports dev.wsjava.http;
  exports dev.wsjava.handshake;
}
