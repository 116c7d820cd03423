package dev.wsjava.handshake;

import dev.wsjava.Headers;
import dev.wsjava.extension.ExtensionFactory;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a server answers RFC 6455 §4.2 opening handshakes: the hooks that decide origin, subprotocol
 * and extensions, and what else goes in the 101 response. Immutable and shared by every connection;
 * each {@code with} method returns a copy. The hooks must be thread-safe.
 *
 * @param originPolicy decides whether to serve the {@code Origin} a request carries; it is given
 *     the value, or {@code null} when the request has none (non-browser clients). Refusal is
 *     answered 403. A server that browsers reach should accept only its own origins, since browsers
 *     let any page open a WebSocket to any host (RFC 6455 §10.2).
 * @param subprotocolSelector given the subprotocols the client offered (in its order, never empty),
 *     returns the one to use or {@code null} for none; it is not called when the client offers none
 * @param extensions the extensions the server supports; one factory per name
 * @param headers more header fields for the 101 response; none of the fields the handshake writes
 *     itself
 * @param limits limits on the request head
 */
public record ServerHandshakeConfig(
    Predicate<String> originPolicy,
    Function<List<String>, String> subprotocolSelector,
    List<ExtensionFactory> extensions,
    Headers headers,
    HttpHeadLimits limits) {

  private static final ServerHandshakeConfig DEFAULTS =
      new ServerHandshakeConfig(
          origin -> true, offered -> null, List.of(), Headers.empty(), HttpHeadLimits.defaults());

  /**
   * Creates a configuration.
   *
   * @param originPolicy the origin check
   * @param subprotocolSelector the subprotocol choice
   * @param extensions factories with distinct token names; copied
   * @param headers extra 101 fields, none owned by the handshake
   * @param limits request head limits
   * @throws IllegalArgumentException when two factories share a name or {@code headers} holds a
   *     field the handshake owns
   */
  public ServerHandshakeConfig {
    Objects.requireNonNull(originPolicy, "originPolicy");
    Objects.requireNonNull(subprotocolSelector, "subprotocolSelector");
    extensions = HandshakeFields.extensions(extensions);
    HandshakeFields.checkNotOwned(Objects.requireNonNull(headers, "headers"), false);
    Objects.requireNonNull(limits, "limits");
  }

  /**
   * Returns the defaults: any origin, no subprotocol, no extension, no extra header, default
   * limits.
   *
   * @return the shared default configuration
   */
  public static ServerHandshakeConfig defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a copy with another origin check.
   *
   * @param value given the {@code Origin} value or {@code null}; true to serve
   * @return the new configuration
   */
  public ServerHandshakeConfig withOriginPolicy(Predicate<String> value) {
    return new ServerHandshakeConfig(value, subprotocolSelector, extensions, headers, limits);
  }

  /**
   * Returns a copy with another subprotocol choice.
   *
   * @param value given the offers in order, the chosen one or {@code null}
   * @return the new configuration
   */
  public ServerHandshakeConfig withSubprotocolSelector(Function<List<String>, String> value) {
    return new ServerHandshakeConfig(originPolicy, value, extensions, headers, limits);
  }

  /**
   * Returns a copy supporting other extensions.
   *
   * @param value the factories
   * @return the new configuration
   */
  public ServerHandshakeConfig withExtensions(List<ExtensionFactory> value) {
    return new ServerHandshakeConfig(originPolicy, subprotocolSelector, value, headers, limits);
  }

  /**
   * Returns a copy with other extra 101 header fields.
   *
   * @param value the fields
   * @return the new configuration
   */
  public ServerHandshakeConfig withHeaders(Headers value) {
    return new ServerHandshakeConfig(originPolicy, subprotocolSelector, extensions, value, limits);
  }

  /**
   * Returns a copy with other request head limits.
   *
   * @param value the limits
   * @return the new configuration
   */
  public ServerHandshakeConfig withLimits(HttpHeadLimits value) {
    return new ServerHandshakeConfig(originPolicy, subprotocolSelector, extensions, headers, value);
  }
}
