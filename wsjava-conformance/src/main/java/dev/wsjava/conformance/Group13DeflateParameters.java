package dev.wsjava.conformance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Group 13, permessage-deflate parameters (RFC 7692 §7.1), as the reference suite has it: seven
 * negotiations, each run with the same eighteen message sizes and fragmentations as group 12 of
 * the reference, the messages cut one after another from a large JSON document.
 *
 * <p>The negotiations, in the reference's terms (offers: server_no_context_takeover requested,
 * server_max_window_bits requested; answers: client_no_context_takeover requested,
 * client_max_window_bits requested). Every offer also says {@code client_no_context_takeover} and
 * a bare {@code client_max_window_bits}, as the reference's do, so a server may ask for either:
 *
 * <ol>
 *   <li>offers [(no, -)], answers [(no, -)]
 *   <li>offers [(yes, -)], answers [(yes, -)]
 *   <li>offers [(no, 9)], answers [(no, 9)]
 *   <li>offers [(no, 15)], answers [(no, 15)]
 *   <li>offers [(yes, 9)], answers [(yes, 9)]
 *   <li>offers [(yes, 15)], answers [(yes, 15)]
 *   <li>offers [(yes, 9), (yes, -), (no, -)], answers [(yes, 9), (yes, -), (no, -)]
 * </ol>
 *
 * <p>A server that declines every offer, or a client that offers no {@code
 * client_max_window_bits} where the answer needs it, gets UNIMPLEMENTED; a peer that accepts must
 * keep to what was agreed: the suite compresses within the agreed window and resets its inflater
 * after each message where the peer agreed not to take over its context. The reference sends
 * 1000 messages per case; the suite sends 2 to 50, about 256 KiB (the messages of a case are held
 * in memory for the judge).
 */
final class Group13DeflateParameters {
  /** The reference's sizes: payload bytes and auto-fragment size (0: one frame). */
  private static final int[][] SIZES = {
    {16, 0}, {64, 0}, {256, 0}, {1024, 0}, {4096, 0}, {8192, 0}, {16384, 0}, {32768, 0},
    {65536, 0}, {131072, 0}, {8192, 256}, {16384, 256}, {32768, 256}, {65536, 256},
    {131072, 256}, {131072, 1024}, {131072, 4096}, {131072, 32768},
  };
  /** The reference's windows: 9 bits, since zlib refuses raw DEFLATE with 8. */
  private static final int SMALL = 9;
  private static final int LARGE = 15;
  private static final int DOCUMENT_SIZE = 194_056;

  private Group13DeflateParameters() {}

  static List<Case> cases() {
    List<DeflateNegotiation> negotiations = List.of(
        new DeflateNegotiation(List.of(offer(false, 0)), List.of(answer(false, 0))),
        new DeflateNegotiation(List.of(offer(true, 0)), List.of(answer(true, 0))),
        new DeflateNegotiation(List.of(offer(false, SMALL)), List.of(answer(false, SMALL))),
        new DeflateNegotiation(List.of(offer(false, LARGE)), List.of(answer(false, LARGE))),
        new DeflateNegotiation(List.of(offer(true, SMALL)), List.of(answer(true, SMALL))),
        new DeflateNegotiation(List.of(offer(true, LARGE)), List.of(answer(true, LARGE))),
        new DeflateNegotiation(
            List.of(offer(true, SMALL), offer(true, 0), offer(false, 0)),
            List.of(answer(true, SMALL), answer(true, 0), answer(false, 0))));
    byte[] document = document();
    List<Case> out = new ArrayList<>();
    for (int j = 0; j < negotiations.size(); j++) {
      DeflateNegotiation n = negotiations.get(j);
      String how = "the client offers \"" + n.offerHeader() + "\"; as server the suite answers "
          + n.answers().stream().map(a -> "\"" + a.describe() + "\"").toList()
          + ", the first that fits an offer.";
      int position = 0;
      for (int i = 0; i < SIZES.length; i++) {
        int size = SIZES[i][0];
        int fragment = SIZES[i][1];
        int count = Math.max(2, Math.min(50, 256 * 1024 / size));
        List<DataMessage> messages = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
          messages.add(DataMessage.text(slice(document, position, size)));
          position = (position + size) % document.length;
        }
        String description = "Send " + count + " compressed text messages of " + Cases.size(size)
            + " cut one after another from a JSON document, "
            + (fragment == 0 ? "each in one frame" : "in frames of " + fragment + " bytes")
            + "; " + how;
        out.add(Group12Deflate.deflate("13." + (j + 1) + "." + (i + 1), description, messages,
                fragment)
            .withDeflate(n)
            .withTimeout(Duration.ofSeconds(30)));
      }
    }
    return out;
  }

  /**
   * An offer as the reference's: {@code client_no_context_takeover} and a bare {@code
   * client_max_window_bits} (the client accepts either), and what it asks of the server.
   */
  private static DeflateParameters offer(boolean serverNoContextTakeover, int serverWindowBits) {
    return new DeflateParameters(serverNoContextTakeover, true,
        serverWindowBits == 0 ? DeflateParameters.ABSENT : serverWindowBits,
        DeflateParameters.NO_VALUE);
  }

  /** An answer as the reference's: what the server asks of the client. */
  private static DeflateParameters answer(boolean clientNoContextTakeover, int clientWindowBits) {
    return new DeflateParameters(false, clientNoContextTakeover, DeflateParameters.ABSENT,
        clientWindowBits == 0 ? DeflateParameters.ABSENT : clientWindowBits);
  }

  private static byte[] slice(byte[] document, int from, int size) {
    byte[] m = new byte[size];
    for (int copied = 0; copied < size; ) {
      int n = Math.min(size - copied, document.length - from);
      System.arraycopy(document, from, m, copied, n);
      copied += n;
      from = (from + n) % document.length;
    }
    return m;
  }

  /** A JSON document of records with repeated keys and varied values, ASCII only. */
  static byte[] document() {
    SplittableRandom r = new SplittableRandom(13);
    String[] cities = {"Aarhus", "Bergen", "Cadiz", "Dresden", "Evora", "Florence", "Graz"};
    String[] tags = {"alpha", "beta", "gamma", "delta", "stable", "nightly", "lts"};
    StringBuilder s = new StringBuilder(DOCUMENT_SIZE + 400);
    s.append("[\n");
    for (int id = 1; s.length() < DOCUMENT_SIZE; id++) {
      s.append("  {\"id\": ").append(id)
          .append(", \"name\": \"user").append(r.nextInt(100_000)).append('"')
          .append(", \"city\": \"").append(cities[r.nextInt(cities.length)]).append('"')
          .append(", \"score\": ").append(r.nextInt(10_000) / 100.0)
          .append(", \"active\": ").append(r.nextBoolean())
          .append(", \"tags\": [\"").append(tags[r.nextInt(tags.length)]).append("\", \"")
          .append(tags[r.nextInt(tags.length)]).append("\"]")
          .append(", \"created\": \"2026-").append(1 + r.nextInt(12)).append('-')
          .append(1 + r.nextInt(28)).append("T").append(r.nextInt(24)).append(":00:00Z\"},\n");
    }
    return java.util.Arrays.copyOf(s.toString().getBytes(StandardCharsets.US_ASCII),
        DOCUMENT_SIZE);
  }
}
