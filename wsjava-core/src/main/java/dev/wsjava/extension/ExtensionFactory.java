package dev.wsjava.extension;

import java.util.List;

/**
 * Negotiates one extension during the opening handshake (RFC 6455 §9.1) and creates its
 * per-connection {@link Extension}. A third-party extension implements this interface and is
 * handed to the client or server configuration; the session needs no change.
 *
 * <p>Implementations are immutable and thread-safe: one factory serves every connection.
 */
public interface ExtensionFactory {

  /**
   * What a server accepted: the header element for its response and the extension instance.
   *
   * @param response the element to put in the server's {@code Sec-WebSocket-Extensions}
   * @param extension the extension for this connection
   */
  record Accepted(ExtensionOffer response, Extension extension) {}

  /**
   * Returns the extension name this factory negotiates.
   *
   * @return for example {@code permessage-deflate}
   */
  String name();

  /**
   * Client side: the offers to send, most preferred first.
   *
   * @return one or more offers, all with {@link #name()}
   */
  List<ExtensionOffer> clientOffers();

  /**
   * Client side: validates the server's response element for this extension and creates the
   * extension.
   *
   * @param response the element the server returned
   * @return the extension configured as the server answered
   * @throws ExtensionNegotiationException when the response is malformed or matches no offer;
   *     the client handshake then fails
   */
  Extension clientAccept(ExtensionOffer response) throws ExtensionNegotiationException;

  /**
   * Server side: picks the first acceptable offer among the client's offers for this extension.
   * Offers with unknown, duplicate or out-of-range parameters are declined, and the next is
   * tried.
   *
   * @param offers the client's offers with {@link #name()}, in the client's order
   * @return what was accepted, or {@code null} when every offer is declined
   */
  Accepted serverAccept(List<ExtensionOffer> offers);
}
