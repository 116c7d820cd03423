package dev.wsjava.handshake;

import dev.wsjava.Headers;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.ExtensionOffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a client asks for in its RFC 6455 §4.1 opening handshake, shared by its connections.
 * Immutable; each {@code with} method returns a copy.
 *
 * @param origin the {@code Origin} to send, or {@code null} to send none (browsers always send one;
 *     other clients need not)
 * @param subprotocols the subprotocols to offer, most preferred first; tokens, no duplicates
 * @param extensions the extensions to offer, in this order; one factory per name
 * @param headers more header fields to send (cookies, authorization); none of the fields the
 *     handshake writes itself
 * @param limits limits on the server's response head
 */
public record ClientHandshakeConfig(
    String origin,
    List<String> subprotocols,
    List<ExtensionFactory> extensions,
    Headers headers,
    HttpHeadLimits limits) {

  private static final ClientHandshakeConfig DEFAULTS =
      new ClientHandshakeConfig(
          null, List.of(), List.of(), Headers.empty(), HttpHeadLimits.defaults());

  /**
   * Creates a configuration.
   *
   * @param origin the origin, or {@code null}
   * @param subprotocols tokens, no duplicates; copied
   * @param extensions factories with distinct names; copied
   * @param headers extra fields, none owned by the handshake
   * @param limits response head limits
   * @throws IllegalArgumentException when a subprotocol is not a token or repeated, two factories
   *     share a name, or {@code headers} holds a field the handshake owns
   */
  public ClientHandshakeConfig {
    if (origin != null && (origin.isEmpty() || HttpSyntax.firstInvalidValueChar(origin) >= 0)) {
      throw new IllegalArgumentException("origin must be a non-empty field value: " + origin);
    }
    subprotocols = List.copyOf(subprotocols);
    Set<String> seen = new HashSet<>();
    for (String p : subprotocols) {
      if (!HttpSyntax.isToken(p)) {
        throw new IllegalArgumentException(
            "subprotocol \"" + p + "\" is not a token (RFC 6455 §4.1)");
      }
      if (!seen.add(p)) {
        throw new IllegalArgumentException(
            "subprotocol " + p + " is offered twice; offers must be unique (RFC 6455 §4.1)");
      }
    }
    extensions = HandshakeFields.extensions(extensions);
    HandshakeFields.checkNotOwned(Objects.requireNonNull(headers, "headers"), true);
    Objects.requireNonNull(limits, "limits");
  }

  /**
   * Returns the defaults: no origin, no subprotocol, no extension, no extra header, default limits.
   *
   * @return the shared default configuration
   */
  public static ClientHandshakeConfig defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a copy with another origin.
   *
   * @param value the origin, for example {@code https://example.com}, or {@code null}
   * @return the new configuration
   */
  public ClientHandshakeConfig withOrigin(String value) {
    return new ClientHandshakeConfig(value, subprotocols, extensions, headers, limits);
  }

  /**
   * Returns a copy offering other subprotocols.
   *
   * @param value most preferred first
   * @return the new configuration
   */
  public ClientHandshakeConfig withSubprotocols(List<String> value) {
    return new ClientHandshakeConfig(origin, value, extensions, headers, limits);
  }

  /**
   * Returns a copy offering other extensions.
   *
   * @param value factories in offer order
   * @return the new configuration
   */
  public ClientHandshakeConfig withExtensions(List<ExtensionFactory> value) {
    return new ClientHandshakeConfig(origin, subprotocols, value, headers, limits);
  }

  /**
   * Returns a copy sending other extra header fields.
   *
   * @param value the fields
   * @return the new configuration
   */
  public ClientHandshakeConfig withHeaders(Headers value) {
    return new ClientHandshakeConfig(origin, subprotocols, extensions, value, limits);
  }

  /**
   * Returns a copy with other response head limits.
   *
   * @param value the limits
   * @return the new configuration
   */
  public ClientHandshakeConfig withLimits(HttpHeadLimits value) {
    return new ClientHandshakeConfig(origin, subprotocols, extensions, headers, value);
  }

  /** Returns the offers every factory makes, in order, each checked to carry its name. */
  List<ExtensionOffer> extensionOffers() {
    List<ExtensionOffer> offers = new ArrayList<>();
    for (ExtensionFactory f : extensions) {
      List<ExtensionOffer> mine = f.clientOffers();
      if (mine.isEmpty()) {
        throw new IllegalStateException("extension factory " + f.name() + " made no offer");
      }
      for (ExtensionOffer o : mine) {
        if (!o.name().equals(f.name())) {
          throw new IllegalStateException(
              "extension factory " + f.name() + " offered " + o.name() + " under another name");
        }
        offers.add(o);
      }
    }
    return offers;
  }

}
