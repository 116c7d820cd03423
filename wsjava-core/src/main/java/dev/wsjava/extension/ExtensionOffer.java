package dev.wsjava.extension;

import java.util.List;
import java.util.Objects;

/**
 * One element of a {@code Sec-WebSocket-Extensions} header (RFC 6455 §9.1): an extension name and
 * its parameters in the order given. Used both for client offers and for a server's response.
 *
 * @param name the extension token, for example {@code permessage-deflate}
 * @param params the parameters in order; duplicates are kept so an extension can reject them
 */
public record ExtensionOffer(String name, List<Param> params) {

  /**
   * One extension parameter.
   *
   * @param name the parameter token
   * @param value the value with any quoting removed, or {@code null} when the parameter has none
   */
  public record Param(String name, String value) {
    /**
     * Creates a parameter.
     *
     * @param name the parameter token
     * @param value the unquoted value, or {@code null}
     */
    public Param {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * Creates an offer.
   *
   * @param name the extension token
   * @param params the parameters, copied
   */
  public ExtensionOffer {
    Objects.requireNonNull(name, "name");
    params = List.copyOf(params);
  }
}
