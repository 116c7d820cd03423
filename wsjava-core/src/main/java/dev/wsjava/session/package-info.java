/**
 * The sans-I/O WebSocket connection after the handshake: {@link dev.wsjava.session.Session} is fed
 * received bytes and hands out events (messages, pings, the close), and turns sends into encoded
 * bytes on an outbound queue. It owns the close handshake, fragment assembly, the extension chain
 * and the limits; time is passed in, never read.
 *
 * <p>May import {@code dev.wsjava.protocol} and {@code dev.wsjava.extension}. Internal: not
 * exported by the module; both transports drive it.
 */
package dev.wsjava.session;
