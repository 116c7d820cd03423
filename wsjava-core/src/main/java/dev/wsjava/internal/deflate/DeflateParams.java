package dev.wsjava.internal.deflate;

import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import dev.wsjava.extension.PerMessageDeflate;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 7692 §7.1: the four permessage-deflate parameters of one offer or response, parsed and
 * checked, and the rules that relate a response to the offer it accepts.
 *
 * <p>Window bits are {@link #ABSENT} when the parameter is not there, {@link #NO_VALUE} when it is
 * there without a value (allowed only for {@code client_max_window_bits} in an offer), else
 * 8..15.
 *
 * @param serverNoContextTakeover {@code server_no_context_takeover} is present
 * @param clientNoContextTakeover {@code client_no_context_takeover} is present
 * @param serverMaxWindowBits the {@code server_max_window_bits} value, or {@link #ABSENT}
 * @param clientMaxWindowBits the {@code client_max_window_bits} value, {@link #NO_VALUE} or
 *     {@link #ABSENT}
 */
public record DeflateParams(
    boolean serverNoContextTakeover,
    boolean clientNoContextTakeover,
    int serverMaxWindowBits,
    int clientMaxWindowBits) {

  public static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
  public static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
  public static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
  public static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

  /** A window-bits parameter that is not there. */
  public static final int ABSENT = 0;
  /** {@code client_max_window_bits} given without a value (offer only, §7.1.2.2). */
  public static final int NO_VALUE = -1;
  /** The smallest LZ77 window RFC 7692 allows: 2^8 bytes. */
  public static final int MIN_WINDOW_BITS = 8;
  /** The largest LZ77 window, and the only one java.util.zip's Deflater compresses with. */
  public static final int MAX_WINDOW_BITS = 15;

  /**
   * Parses the parameters of an offer (client to server) or a response (server to client). Names
   * are compared exactly, as registered; values arrive already unquoted.
   *
   * @param element the header element
   * @param inOffer true for an offer, false for a response (where every value is required)
   * @return the parameters
   * @throws ExtensionNegotiationException naming the rule of §7 that the element breaks
   */
  public static DeflateParams parse(ExtensionOffer element, boolean inOffer)
      throws ExtensionNegotiationException {
    boolean snct = false;
    boolean cnct = false;
    int smwb = ABSENT;
    int cmwb = ABSENT;
    List<ExtensionOffer.Param> seen = new ArrayList<>(element.params().size());
    for (ExtensionOffer.Param p : element.params()) {
      for (ExtensionOffer.Param earlier : seen) {
        if (earlier.name().equals(p.name())) {
          throw new ExtensionNegotiationException(
              "parameter " + p.name() + " given twice (RFC 7692 §7)");
        }
      }
      seen.add(p);
      switch (p.name()) {
        case SERVER_NO_CONTEXT_TAKEOVER -> {
          requireNoValue(p, "§7.1.1.1");
          snct = true;
        }
        case CLIENT_NO_CONTEXT_TAKEOVER -> {
          requireNoValue(p, "§7.1.1.2");
          cnct = true;
        }
        case SERVER_MAX_WINDOW_BITS -> smwb = windowBits(p, "§7.1.2.1");
        case CLIENT_MAX_WINDOW_BITS ->
            cmwb = p.value() == null && inOffer ? NO_VALUE : windowBits(p, "§7.1.2.2");
        default ->
            throw new ExtensionNegotiationException(
                "unknown parameter " + p.name() + " (RFC 7692 §7 defines only"
                    + " server_no_context_takeover, client_no_context_takeover,"
                    + " server_max_window_bits and client_max_window_bits)");
      }
    }
    return new DeflateParams(snct, cnct, smwb, cmwb);
  }

  private static void requireNoValue(ExtensionOffer.Param p, String section)
      throws ExtensionNegotiationException {
    if (p.value() != null) {
      throw new ExtensionNegotiationException(
          p.name() + " takes no value, got \"" + p.value() + "\" (RFC 7692 " + section + ")");
    }
  }

  /** §7.1.2: a decimal integer 8..15 without sign or leading zeros; quoting was removed before. */
  private static int windowBits(ExtensionOffer.Param p, String section)
      throws ExtensionNegotiationException {
    String v = p.value();
    if (v == null) {
      throw new ExtensionNegotiationException(
          p.name() + " needs a value from 8 to 15 (RFC 7692 " + section + ")");
    }
    int bits = -1;
    if (v.length() == 1 && v.charAt(0) >= '8' && v.charAt(0) <= '9') {
      bits = v.charAt(0) - '0';
    } else if (v.length() == 2 && v.charAt(0) == '1' && v.charAt(1) >= '0' && v.charAt(1) <= '5') {
      bits = 10 + v.charAt(1) - '0';
    }
    if (bits < 0) {
      throw new ExtensionNegotiationException(
          p.name() + "=\"" + v + "\" is not an integer from 8 to 15 written without sign or"
              + " leading zeros (RFC 7692 " + section + ")");
    }
    return bits;
  }

  /**
   * Checks this response against one offer the client sent.
   *
   * @param offer the parameters of the offer
   * @return null when this response may accept the offer, else the rule it breaks
   */
  public String misfitAsResponseTo(DeflateParams offer) {
    if (clientMaxWindowBits != ABSENT && offer.clientMaxWindowBits == ABSENT) {
      return "the response has client_max_window_bits but the offer did not"
          + " (RFC 7692 §7.1.2.2)";
    }
    if (offer.serverNoContextTakeover && !serverNoContextTakeover) {
      return "server_no_context_takeover was offered but the response lacks it"
          + " (RFC 7692 §7.1.1.1)";
    }
    if (offer.serverMaxWindowBits != ABSENT) {
      if (serverMaxWindowBits == ABSENT) {
        return "server_max_window_bits=" + offer.serverMaxWindowBits
            + " was offered but the response lacks it (RFC 7692 §7.1.2.1)";
      }
      if (serverMaxWindowBits > offer.serverMaxWindowBits) {
        return "server_max_window_bits=" + serverMaxWindowBits + " in the response exceeds the "
            + offer.serverMaxWindowBits + " offered (RFC 7692 §7.1.2.1)";
      }
    }
    if (offer.clientMaxWindowBits > 0 && clientMaxWindowBits > offer.clientMaxWindowBits) {
      return "client_max_window_bits=" + clientMaxWindowBits + " in the response exceeds the "
          + offer.clientMaxWindowBits + " offered (RFC 7692 §7.1.2.2)";
    }
    return null;
  }

  /**
   * Formats these parameters as a header element, in the order §7.1 lists them.
   *
   * @return {@code permessage-deflate} with the parameters that are present
   */
  public ExtensionOffer toElement() {
    List<ExtensionOffer.Param> params = new ArrayList<>(4);
    if (serverNoContextTakeover) {
      params.add(new ExtensionOffer.Param(SERVER_NO_CONTEXT_TAKEOVER, null));
    }
    if (clientNoContextTakeover) {
      params.add(new ExtensionOffer.Param(CLIENT_NO_CONTEXT_TAKEOVER, null));
    }
    if (serverMaxWindowBits != ABSENT) {
      params.add(
          new ExtensionOffer.Param(SERVER_MAX_WINDOW_BITS, Integer.toString(serverMaxWindowBits)));
    }
    if (clientMaxWindowBits != ABSENT) {
      params.add(
          new ExtensionOffer.Param(
              CLIENT_MAX_WINDOW_BITS,
              clientMaxWindowBits == NO_VALUE ? null : Integer.toString(clientMaxWindowBits)));
    }
    return new ExtensionOffer(PerMessageDeflate.NAME, params);
  }
}
