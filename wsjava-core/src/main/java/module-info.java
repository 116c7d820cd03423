/**
 * wsjava: a WebSocket toolkit (RFC 6455, RFC 7692).
 *
 * <p>Exported: {@code dev.wsjava} (the API: WebSocket, listeners, server and client builders,
 * configuration), {@code dev.wsjava.protocol} (the RFC's nouns: opcodes, close codes, limits, protocol
 * errors) and {@code dev.wsjava.extension} (the extension SPI and permessage-deflate). The handshake,
 * session, HTTP and transport layers are internal: the API uses them, users do not.
 */
module dev.wsjava {
  exports dev.wsjava;
  exports dev.wsjava.protocol;
  exports dev.wsjava.extension;
}
