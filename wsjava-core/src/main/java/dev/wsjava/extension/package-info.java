/**
 * WebSocket extensions (RFC 6455 §9): the {@link dev.wsjava.extension.Extension} SPI, offers and
 * their negotiation, and {@link dev.wsjava.extension.PerMessageDeflate}, the settings of
 * permessage-deflate (RFC 7692) that a server or client is configured with.
 *
 * <p>Sans-I/O; the protocol layer and the deflate codec it uses are internal to the module.
 * Exported by the module; the deflate codec itself is not.
 */
package dev.wsjava.extension;
