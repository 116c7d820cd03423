package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.handshake.ExtensionHeader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * {@code Sec-WebSocket-Extensions} parsing, and permessage-deflate negotiation on what it yields.
 * Input: field values separated by LF, as ISO-8859-1 (what the head parser hands over). Only
 * {@link ExtensionNegotiationException} may escape, exactly when the values break the grammar of
 * RFC 6455 §9.1 as {@link RequestRules} reads it; what parses formats back to the same offers.
 */
class ExtensionHeaderFuzzTest {
  static final PerMessageDeflate DEFLATE = PerMessageDeflate.defaults();

  @FuzzTest(maxDuration = "30s")
  void parse(byte[] data) {
    String text = new String(data, StandardCharsets.ISO_8859_1);
    List<String> values = Arrays.asList(text.split("\n", -1));
    boolean wellFormed = RequestRules.isExtensionList(values);
    List<ExtensionOffer> offers;
    try {
      offers = ExtensionHeader.parse(values);
    } catch (ExtensionNegotiationException e) {
      assertThat(wellFormed).as("refused a well-formed header: " + e.getMessage()).isFalse();
      return;
    }
    assertThat(wellFormed).as("took a malformed header as " + offers).isTrue();
    // What was parsed is well formed, so it formats, and formats to the same offers.
    String formatted = ExtensionHeader.format(offers);
    try {
      assertThat(ExtensionHeader.parse(List.of(formatted))).isEqualTo(offers);
    } catch (ExtensionNegotiationException e) {
      throw new AssertionError("formatted offers do not parse: " + formatted, e);
    }
    // A server picks from any offers without throwing.
    ExtensionFactory.Accepted accepted = DEFLATE.serverAccept(offers);
    if (accepted != null) {
      accepted.extension().close();
    }
    // A client checks the first as a response: accepted or refused with the checked exception.
    if (!offers.isEmpty() && offers.get(0).name().equals(PerMessageDeflate.NAME)) {
      try {
        Extension e = DEFLATE.clientAccept(offers.get(0));
        e.close();
      } catch (ExtensionNegotiationException expected) {
        // a response the client did not offer
      }
    }
  }
}
