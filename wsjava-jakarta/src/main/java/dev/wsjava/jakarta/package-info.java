/**
 * Jakarta WebSocket 2.2 on wsjava: {@link dev.wsjava.jakarta.JakartaServer}, the standalone server
 * container that deploys {@code @ServerEndpoint} classes on a wsjava server beside its own routes,
 * and {@link dev.wsjava.jakarta.JakartaProperties}, the user-property keys the client container
 * reads. The client container itself is reached through {@code
 * jakarta.websocket.ContainerProvider.getWebSocketContainer()}. Exported by the module; the
 * implementation lives in {@code dev.wsjava.jakarta.internal}, which is not. docs/JAKARTA.md says
 * what is supported.
 */
package dev.wsjava.jakarta;
