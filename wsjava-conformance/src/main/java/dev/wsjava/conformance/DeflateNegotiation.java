package dev.wsjava.conformance;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a case negotiates for permessage-deflate (RFC 7692 §5, §7), in the reference suite's
 * manner: as client the suite sends the offers in order, in one header; as server it tries the
 * answers in order, each against every offer of the client's in turn, and the first answer that
 * fits an offer is given ({@link DeflateParameters#answer}). A case whose answers fit none is
 * UNIMPLEMENTED, as is a server's decline of every offer.
 *
 * @param offers the client's offers, most preferred first; at least one
 * @param answers the server's answers, most preferred first; at least one
 */
public record DeflateNegotiation(List<DeflateParameters> offers, List<DeflateParameters> answers) {

  /** The usual negotiation: {@link DeflateParameters#DEFAULT} both ways. */
  public static final DeflateNegotiation DEFAULT = of(DeflateParameters.DEFAULT);

  /**
   * Checks and copies the lists.
   *
   * @param offers not empty
   * @param answers not empty
   */
  public DeflateNegotiation {
    if (offers.isEmpty() || answers.isEmpty()) {
      throw new IllegalArgumentException("a negotiation needs an offer and an answer");
    }
    offers = List.copyOf(offers);
    answers = List.copyOf(answers);
  }

  /**
   * One set of parameters, offered as client and answered with as server.
   *
   * @param parameters the parameters
   * @return the negotiation
   */
  public static DeflateNegotiation of(DeflateParameters parameters) {
    return new DeflateNegotiation(List.of(parameters), List.of(parameters));
  }

  /**
   * Returns the offers as one {@code Sec-WebSocket-Extensions} value.
   *
   * @return the elements joined with commas
   */
  public String offerHeader() {
    return offers.stream().map(DeflateParameters::offerElement).collect(Collectors.joining(", "));
  }
}
