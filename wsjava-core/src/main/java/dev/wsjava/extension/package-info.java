/**
 * WebSocket extensions (RFC 6455 §9): the {@link dev.wsjava.extension.Extension} SPI, offers and
 * their negotiation, and permessage-deflate (RFC 7692) with its bounded inflater (decompression
 * bombs stop at the configured size) and its own deflate block encoder.
 *
 * <p>Sans-I/O; may import only {@code dev.wsjava.protocol}. Exported by the module: the SPI and
 * {@link dev.wsjava.extension.PerMessageDeflate} configure a server or client; the deflate
 * machinery itself is package-private.
 */
package dev.wsjava.extension;
