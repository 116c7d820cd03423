/**
 * wsjava: a WebSocket toolkit (RFC 6455, RFC 7692).
 *
 * <p>Exported: {@code dev.wsjava.protocol} (the RFC's nouns: opcodes, close codes, limits, protocol
 * errors) and {@code dev.wsjava.extension} (the extension SPI and permessage-deflate). The handshake
 * and session layers are internal: transports in this module use them, users do not.
 */
module dev.wsjava {
  exports dev.wsjava.protocol;
  exports dev.wsjava.extension;
}
