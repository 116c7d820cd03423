package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * Group 13, permessage-deflate parameters (RFC 7692 §7.1): every combination of
 * {@code server_no_context_takeover} and {@code client_no_context_takeover}, each with no window
 * parameter, with {@code server_max_window_bits} of 8 to 15 and with {@code client_max_window_bits}
 * of 8 to 15. As client the suite offers the combination; as server it answers with it where the
 * client's offer allows. A peer that declines gets UNIMPLEMENTED; one that accepts must keep to
 * what was agreed (the suite resets its inflater after each message where the peer agreed not to
 * take over its context, and compresses within the agreed window).
 */
final class Group13DeflateParameters {
  private Group13DeflateParameters() {}

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    List<DataMessage> small = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      small.add(Group12Deflate.payload(Group12Deflate.Kind.JSON_TEXT, 1024, i));
    }
    List<DataMessage> large = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      large.add(Group12Deflate.payload(
          i % 2 == 0 ? Group12Deflate.Kind.REPEATED_TEXT : Group12Deflate.Kind.RANDOM_BINARY,
          16384, i));
    }
    int sub = 0;
    for (int window = 0; window <= 16; window++) {
      int smwb = window >= 1 && window <= 8 ? window + 7 : DeflateParameters.ABSENT;
      int cmwb = window >= 9 ? window - 1 : DeflateParameters.ABSENT;
      sub++;
      int n = 0;
      for (int nct = 0; nct < 4; nct++) {
        DeflateParameters params =
            new DeflateParameters((nct & 1) != 0, (nct & 2) != 0, smwb, cmwb);
        out.add(Group12Deflate.deflate("13." + sub + "." + ++n, "With " + params.describe()
            + ", send 20 compressed JSON-like text messages of 1 KiB.", small, 0)
            .withDeflate(params));
        out.add(Group12Deflate.deflate("13." + sub + "." + ++n, "With " + params.describe()
            + ", send 4 compressed messages of 16 KiB, text and random binary.", large, 0)
            .withDeflate(params));
      }
    }
    return out;
  }
}
