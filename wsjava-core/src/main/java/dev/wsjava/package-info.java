/**
 * The API a user programs against: {@link dev.wsjava.WebSocketServer} and {@link
 * dev.wsjava.WebSocketClient} with their builders, the {@link dev.wsjava.WebSocket} a listener is
 * handed, {@link dev.wsjava.WebSocketListener} (push) and {@code receive} (pull), {@link
 * dev.wsjava.WebSocketConfig}, reconnection and proxies.
 *
 * <p>Depends on every layer below it (protocol, extension, handshake, http, session, proxy and the
 * two transports), and is the only package that picks a transport: the rest of the module never
 * imports this one. Exported by the module. Some types here are implementation (the
 * package-private {@code WebSocketImpl}, {@code ReconnectingWebSocket}, {@code Transports}); see
 * docs/ARCHITECTURE.md for the public surface and the plan for it.
 */
package dev.wsjava;
