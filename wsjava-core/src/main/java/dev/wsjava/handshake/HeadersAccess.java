package dev.wsjava.handshake;

import dev.wsjava.Headers;

/**
 * Reaches the package-private parts of {@link Headers}, which the API package owns while the head
 * parser and the handshakes in this package build and write it: a header list over the parser's
 * arrays without a copy, a head written out field by field, and the single-token check the upgrade
 * fields need. {@code Headers} installs the bridge when its class is initialised; nothing else may.
 */
public final class HeadersAccess {
  /** What {@code Headers} lends this package. */
  public interface Access {
    /**
     * Wraps arrays the caller gives up.
     *
     * @param names field names, validated by the caller
     * @param values field values, validated by the caller
     * @param size how many of the slots are fields
     * @return the header list over them
     */
    Headers make(String[] names, String[] values, int size);

    /**
     * Writes every field as {@code name: value CRLF}.
     *
     * @param headers the fields
     * @param out where to write
     */
    void appendTo(Headers headers, StringBuilder out);

    /**
     * Tells whether a list field holds one element, the given token (case-insensitively).
     *
     * @param headers the fields
     * @param name the field name
     * @param only the token
     * @return true for exactly that one element
     */
    boolean isOnlyToken(Headers headers, String name, String only);
  }

  private static Access access; // written once, in Headers' class initialisation

  private HeadersAccess() {}

  /**
   * Installs the bridge; {@code Headers} calls it once, from its static initialiser.
   *
   * @param a the bridge
   * @throws IllegalStateException when one is already installed
   */
  public static void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("Headers' access is installed already");
    }
    access = a;
  }

  static Access get() {
    Access a = access;
    if (a == null) {
      Headers.empty(); // initialises Headers, which installs the bridge (and publishes it)
      a = access;
    }
    return a;
  }
}
