package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * RFC 7692 §7.1: the four permessage-deflate parameters of an offer or a response, with the
 * suite's own parser and the rules that tie a response to its offer (written here, not shared
 * with the stack under test).
 *
 * @param serverNoContextTakeover {@code server_no_context_takeover} is present
 * @param clientNoContextTakeover {@code client_no_context_takeover} is present
 * @param serverMaxWindowBits the {@code server_max_window_bits} value, or {@link #ABSENT}
 * @param clientMaxWindowBits the {@code client_max_window_bits} value, {@link #NO_VALUE} (offer
 *     only) or {@link #ABSENT}
 */
public record DeflateParameters(
    boolean serverNoContextTakeover,
    boolean clientNoContextTakeover,
    int serverMaxWindowBits,
    int clientMaxWindowBits) {

  /** The extension's registered name. */
  public static final String NAME = "permessage-deflate";
  /** A window-bits parameter that is not there. */
  public static final int ABSENT = 0;
  /** {@code client_max_window_bits} offered without a value (§7.1.2.2). */
  public static final int NO_VALUE = -1;

  /** The suite's usual offer: {@code permessage-deflate; client_max_window_bits}. */
  public static final DeflateParameters DEFAULT = new DeflateParameters(false, false, ABSENT, NO_VALUE);

  /**
   * Formats the parameters as a response's header element, the server's parameters first, as
   * the reference suite writes them.
   *
   * @return for example {@code permessage-deflate; server_no_context_takeover}
   */
  public String element() {
    StringBuilder s = new StringBuilder(NAME);
    appendServer(s);
    appendClient(s);
    return s.toString();
  }

  /**
   * Formats the parameters as an offer's header element, the client's parameters first, as the
   * reference suite writes them.
   *
   * @return for example {@code permessage-deflate; client_max_window_bits;
   *     server_max_window_bits=9}
   */
  public String offerElement() {
    StringBuilder s = new StringBuilder(NAME);
    appendClient(s);
    appendServer(s);
    return s.toString();
  }

  private void appendServer(StringBuilder s) {
    if (serverNoContextTakeover) {
      s.append("; server_no_context_takeover");
    }
    if (serverMaxWindowBits != ABSENT) {
      s.append("; server_max_window_bits=").append(serverMaxWindowBits);
    }
  }

  private void appendClient(StringBuilder s) {
    if (clientNoContextTakeover) {
      s.append("; client_no_context_takeover");
    }
    if (clientMaxWindowBits != ABSENT) {
      s.append("; client_max_window_bits");
      if (clientMaxWindowBits != NO_VALUE) {
        s.append('=').append(clientMaxWindowBits);
      }
    }
  }

  /**
   * Parses the {@code permessage-deflate} elements of a {@code Sec-WebSocket-Extensions} value.
   *
   * @param header the header value (several headers joined with commas)
   * @param offer true for a client's offers, false for a server's response
   * @return the permessage-deflate elements, in order; other extensions are skipped
   * @throws IllegalArgumentException naming the rule a permessage-deflate element breaks
   */
  public static List<DeflateParameters> parse(String header, boolean offer) {
    List<DeflateParameters> out = new ArrayList<>();
    for (List<String> element : elements(header)) {
      if (element.get(0).equalsIgnoreCase(NAME)) {
        out.add(parseElement(element.subList(1, element.size()), offer));
      }
    }
    return out;
  }

  /**
   * Returns the extension names in a {@code Sec-WebSocket-Extensions} value.
   *
   * @param header the header value
   * @return the names, in order
   */
  public static List<String> names(String header) {
    return elements(header).stream().map(e -> e.get(0)).toList();
  }

  /** Splits a header value into elements, each a name followed by "key" or "key=value" tokens. */
  private static List<List<String>> elements(String header) {
    List<List<String>> out = new ArrayList<>();
    List<String> current = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i <= header.length(); i++) {
      char c = i < header.length() ? header.charAt(i) : ',';
      if (quoted) {
        if (c == '"') {
          quoted = false;
        } else {
          token.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ';' || c == ',') {
        String t = token.toString().replace(" ", "").replace("\t", "");
        token.setLength(0);
        if (!t.isEmpty()) {
          current.add(t);
        }
        if (c == ',' && !current.isEmpty()) {
          out.add(current);
          current = new ArrayList<>();
        }
      } else {
        token.append(c);
      }
    }
    return out;
  }

  private static DeflateParameters parseElement(List<String> params, boolean offer) {
    boolean snct = false;
    boolean cnct = false;
    int smwb = ABSENT;
    int cmwb = ABSENT;
    Set<String> seen = new HashSet<>();
    for (String p : params) {
      int eq = p.indexOf('=');
      String name = (eq < 0 ? p : p.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? null : p.substring(eq + 1);
      if (!seen.add(name)) {
        throw new IllegalArgumentException(name + " appears twice (RFC 7692 §7)");
      }
      switch (name) {
        case "server_no_context_takeover" -> snct = noValue(name, value);
        case "client_no_context_takeover" -> cnct = noValue(name, value);
        case "server_max_window_bits" -> smwb = bits(name, value);
        case "client_max_window_bits" ->
            cmwb = value == null && offer ? NO_VALUE : bits(name, value);
        default -> throw new IllegalArgumentException("unknown parameter " + name + " (RFC 7692 §7)");
      }
    }
    return new DeflateParameters(snct, cnct, smwb, cmwb);
  }

  private static boolean noValue(String name, String value) {
    if (value != null) {
      throw new IllegalArgumentException(name + " takes no value (RFC 7692 §7.1.1)");
    }
    return true;
  }

  private static int bits(String name, String value) {
    if (value == null || !value.matches("[1-9][0-9]?") || Integer.parseInt(value) < 8
        || Integer.parseInt(value) > 15) {
      throw new IllegalArgumentException(
          name + " needs a value from 8 to 15, got " + value + " (RFC 7692 §7.1.2)");
    }
    return Integer.parseInt(value);
  }

  /**
   * Client side: checks a server's response against the one offer the suite sent.
   *
   * @param offer the offer
   * @return null when the response may accept the offer, else the rule it breaks
   */
  public String misfitAsResponseTo(DeflateParameters offer) {
    if (clientMaxWindowBits == NO_VALUE) {
      return "client_max_window_bits without a value in a response (RFC 7692 §7.1.2.2)";
    }
    if (clientMaxWindowBits != ABSENT && offer.clientMaxWindowBits == ABSENT) {
      return "client_max_window_bits in the response, but it was not offered (RFC 7692 §7.1.2.2)";
    }
    if (offer.clientMaxWindowBits > 0 && clientMaxWindowBits > offer.clientMaxWindowBits) {
      return "client_max_window_bits=" + clientMaxWindowBits + " exceeds the "
          + offer.clientMaxWindowBits + " offered (RFC 7692 §7.1.2.2)";
    }
    if (offer.serverNoContextTakeover && !serverNoContextTakeover) {
      return "server_no_context_takeover was offered but the response lacks it"
          + " (RFC 7692 §7.1.1.1)";
    }
    if (offer.serverMaxWindowBits != ABSENT
        && (serverMaxWindowBits == ABSENT || serverMaxWindowBits > offer.serverMaxWindowBits)) {
      return "server_max_window_bits=" + offer.serverMaxWindowBits + " was offered but the"
          + " response has " + (serverMaxWindowBits == ABSENT ? "none" : serverMaxWindowBits)
          + " (RFC 7692 §7.1.2.1)";
    }
    return null;
  }

  /**
   * Server side: the response the suite gives to a client's offer when a case wants these
   * parameters. No-context-takeover and {@code server_max_window_bits} may always be answered
   * (§7.1.1, §7.1.2.1); {@code client_max_window_bits} only when offered (§7.1.2.2).
   *
   * @param offer the client's offer
   * @return the response parameters
   * @throws IllegalStateException naming what the offer lacks
   */
  public DeflateParameters answer(DeflateParameters offer) {
    int smwb = serverMaxWindowBits;
    if (offer.serverMaxWindowBits != ABSENT) {
      smwb = smwb == ABSENT ? offer.serverMaxWindowBits : Math.min(smwb, offer.serverMaxWindowBits);
    }
    int cmwb = ABSENT;
    if (clientMaxWindowBits > 0) {
      if (offer.clientMaxWindowBits == ABSENT) {
        throw new IllegalStateException("the client did not offer client_max_window_bits");
      }
      cmwb = offer.clientMaxWindowBits > 0
          ? Math.min(clientMaxWindowBits, offer.clientMaxWindowBits) : clientMaxWindowBits;
    }
    return new DeflateParameters(
        serverNoContextTakeover || offer.serverNoContextTakeover, clientNoContextTakeover, smwb,
        cmwb);
  }

  /**
   * Describes the parameters briefly.
   *
   * @return the parameters after the extension name, or "no parameters"
   */
  public String describe() {
    String e = offerElement();
    return e.equals(NAME) ? "no parameters" : e.substring(NAME.length() + 2);
  }
}
