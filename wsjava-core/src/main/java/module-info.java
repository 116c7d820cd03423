/**
 * wsjava: a WebSocket toolkit (RFC 6455, RFC 7692).
 *
 * <p>Exported, and nothing else: {@code dev.wsjava} (the API: WebSocket, listeners, server and
 * client builders, configuration, and the few protocol nouns user code meets: headers, close codes,
 * protocol errors), {@code dev.wsjava.http} (plain HTTP routes: handler, request, response) and
 * {@code dev.wsjava.extension} (the extension SPI and permessage-deflate's settings). Every other
 * package (protocol, handshake, session, transports, proxy, the HTTP/1.1 connection, the deflate
 * codec, the Flight Recorder events) is internal and may change in any release; docs/ARCHITECTURE.md
 * ("The public surface") says why.
 */
module dev.wsjava {
  requires jdk.jfr; // the events of dev.wsjava.events; a JDK module, no dependency
  exports dev.wsjava;
  exports dev.wsjava.http;
  exports dev.wsjava.extension;
}
