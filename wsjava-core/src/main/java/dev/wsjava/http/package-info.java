/**
 * Plain HTTP routes beside the WebSocket ones: the {@link dev.wsjava.http.HttpHandler} a route
 * runs, the {@link dev.wsjava.http.HttpRequest} it reads (the WebSocket handshake hook reads the
 * same view) and the {@link dev.wsjava.http.HttpResponse} it answers with. Routes are added with
 * {@code WebSocketServer.Builder.get} and {@code route}.
 *
 * <p>Exported by the module. The HTTP/1.1 connection that parses, routes and writes
 * (keep-alive, pipelining, bodies, limits) is internal to the module.
 */
package dev.wsjava.http;
