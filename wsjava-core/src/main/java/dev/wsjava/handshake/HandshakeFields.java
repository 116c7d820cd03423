package dev.wsjava.handshake;

import dev.wsjava.Headers;
import dev.wsjava.extension.ExtensionFactory;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The checks both sides' handshake configurations make of what a user hands them. */
final class HandshakeFields {
  private HandshakeFields() {}

  /**
   * Copies extension factories, refusing a name that is not a token or that two share.
   *
   * @param extensions the factories
   * @return an unmodifiable copy
   */
  static List<ExtensionFactory> extensions(List<ExtensionFactory> extensions) {
    List<ExtensionFactory> copy = List.copyOf(extensions);
    Set<String> seen = new HashSet<>();
    for (ExtensionFactory f : copy) {
      if (!HttpSyntax.isToken(f.name())) {
        throw new IllegalArgumentException("extension name is not a token: " + f.name());
      }
      if (!seen.add(f.name())) {
        throw new IllegalArgumentException("two extension factories named " + f.name());
      }
    }
    return copy;
  }

  /**
   * Refuses a header field the handshake writes itself: those both sides write, and on the client
   * also {@code Host} and {@code Origin} (its origin has a setting of its own).
   *
   * @param headers the fields a user adds
   * @param client whether they go in a client's request
   */
  static void checkNotOwned(Headers headers, boolean client) {
    for (int i = 0; i < headers.size(); i++) {
      if (isOwned(headers.name(i), client)) {
        throw new IllegalArgumentException("header " + headers.name(i)
            + " is written by the handshake itself and may not be set by hand");
      }
    }
  }

  private static boolean isOwned(String name, boolean client) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.equals("upgrade")
        || n.equals("connection")
        || n.equals("content-length")
        || n.equals("transfer-encoding")
        || n.startsWith("sec-websocket-")
        || (client && (n.equals("host") || n.equals("origin")));
  }
}
