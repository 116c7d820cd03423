package dev.wsjava.extension;

import dev.wsjava.internal.deflate.DeflateExtension;
import dev.wsjava.internal.deflate.DeflateParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PerMessageDeflateTest {

  private static final Map<String, PerMessageDeflate> CONFIGS =
      Map.of(
          "defaults", PerMessageDeflate.defaults(),
          "snct", PerMessageDeflate.builder().serverNoContextTakeover(true).build(),
          "cnct", PerMessageDeflate.builder().clientNoContextTakeover(true).build(),
          "both",
          PerMessageDeflate.builder()
              .serverNoContextTakeover(true)
              .clientNoContextTakeover(true)
              .build(),
          "smwb10", PerMessageDeflate.builder().serverMaxWindowBits(10).build(),
          "smwb15", PerMessageDeflate.builder().serverMaxWindowBits(15).build(),
          "snct+smwb9",
          PerMessageDeflate.builder().serverNoContextTakeover(true).serverMaxWindowBits(9).build());

  // Server: config | the client's offers, in order | response, or DECLINE | outbound reset |
  // inbound reset | outbound window bits
  @ParameterizedTest(name = "[{index}] server {0}: {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
          defaults | permessage-deflate | permessage-deflate | false | false | 15
          defaults | permessage-deflate; client_max_window_bits | permessage-deflate | false | false | 15
          defaults | permessage-deflate; client_max_window_bits=10 | permessage-deflate | false | false | 15
          defaults | permessage-deflate; client_max_window_bits="8" | permessage-deflate | false | false | 15
          defaults | permessage-deflate; server_no_context_takeover | permessage-deflate; server_no_context_takeover | true | false | 15
          defaults | permessage-deflate; client_no_context_takeover | permessage-deflate; client_no_context_takeover | false | true | 15
          defaults | permessage-deflate; server_no_context_takeover; client_no_context_takeover | permessage-deflate; server_no_context_takeover; client_no_context_takeover | true | true | 15
          defaults | permessage-deflate; server_max_window_bits=15 | permessage-deflate; server_max_window_bits=15 | false | false | 15
          defaults | permessage-deflate; server_max_window_bits="15" | permessage-deflate; server_max_window_bits=15 | false | false | 15
          defaults | permessage-deflate; server_max_window_bits=14 | permessage-deflate; server_max_window_bits=14 | false | false | 14
          defaults | permessage-deflate; server_max_window_bits=9 | permessage-deflate; server_max_window_bits=9 | false | false | 9
          defaults | permessage-deflate; server_max_window_bits=8 | permessage-deflate; server_max_window_bits=8 | false | false | 8
          defaults | permessage-deflate; server_max_window_bits="12" | permessage-deflate; server_max_window_bits=12 | false | false | 12
          defaults | permessage-deflate; server_max_window_bits=10, permessage-deflate | permessage-deflate; server_max_window_bits=10 | false | false | 10
          defaults | permessage-deflate; server_max_window_bits=10; server_no_context_takeover, permessage-deflate; client_no_context_takeover | permessage-deflate; server_no_context_takeover; server_max_window_bits=10 | true | false | 10
          defaults | permessage-deflate; client_no_context_takeover; client_max_window_bits; server_max_window_bits=9 | permessage-deflate; client_no_context_takeover; server_max_window_bits=9 | false | true | 9
          defaults | permessage-deflate; client_no_context_takeover; client_max_window_bits; server_no_context_takeover; server_max_window_bits=9 | permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9 | true | true | 9
          defaults | permessage-deflate; server_max_window_bits | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=16 | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=7 | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=015 | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=+15 | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=15.0 | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits="" | DECLINE | false | false | 0
          defaults | permessage-deflate; server_max_window_bits=7, permessage-deflate; server_max_window_bits=11 | permessage-deflate; server_max_window_bits=11 | false | false | 11
          defaults | permessage-deflate; client_max_window_bits=16 | DECLINE | false | false | 0
          defaults | permessage-deflate; client_max_window_bits=09 | DECLINE | false | false | 0
          defaults | permessage-deflate; client_max_window_bits=abc | DECLINE | false | false | 0
          defaults | permessage-deflate; server_no_context_takeover=1 | DECLINE | false | false | 0
          defaults | permessage-deflate; client_no_context_takeover="" | DECLINE | false | false | 0
          defaults | permessage-deflate; server_no_context_takeover; server_no_context_takeover | DECLINE | false | false | 0
          defaults | permessage-deflate; client_max_window_bits; client_max_window_bits=10 | DECLINE | false | false | 0
          defaults | permessage-deflate; x_unknown | DECLINE | false | false | 0
          defaults | permessage-deflate; Server_No_Context_Takeover | DECLINE | false | false | 0
          defaults | permessage-deflate; x_unknown, permessage-deflate; server_no_context_takeover | permessage-deflate; server_no_context_takeover | true | false | 15
          defaults | x-webkit-deflate-frame | DECLINE | false | false | 0
          snct | permessage-deflate | permessage-deflate; server_no_context_takeover | true | false | 15
          cnct | permessage-deflate | permessage-deflate; client_no_context_takeover | false | true | 15
          both | permessage-deflate; server_max_window_bits=15 | permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=15 | true | true | 15
          both | permessage-deflate; server_max_window_bits=12 | permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12 | true | true | 12
          smwb10 | permessage-deflate | permessage-deflate | false | false | 15
          """)
  void serverAnswersEachOfferListAsTheTableSays(
      String config,
      String offers,
      String expected,
      boolean outboundReset,
      boolean inboundReset,
      int outboundWindowBits) {
    ExtensionFactory.Accepted accepted = CONFIGS.get(config).serverAccept(Elements.list(offers));
    if (expected.equals("DECLINE")) {
      assertThat(accepted).isNull();
      return;
    }
    assertThat(accepted).isNotNull();
    assertThat(Elements.format(accepted.response())).isEqualTo(expected);
    try (DeflateExtension ext = (DeflateExtension) accepted.extension()) {
      assertThat(ext.outboundNoContextTakeover())
          .as("server compressor reset")
          .isEqualTo(outboundReset);
      assertThat(ext.inboundNoContextTakeover())
          .as("server decompressor reset")
          .isEqualTo(inboundReset);
      assertThat(ext.outboundWindowBits())
          .as("server compressor window")
          .isEqualTo(outboundWindowBits);
    }
  }

  @Test
  void serverDeclinesAnEmptyOfferList() {
    assertThat(PerMessageDeflate.defaults().serverAccept(List.of())).isNull();
  }

  // Client: config | what it offers
  @ParameterizedTest(name = "[{index}] client {0} offers {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          defaults | permessage-deflate; client_max_window_bits
          snct | permessage-deflate; server_no_context_takeover; client_max_window_bits
          cnct | permessage-deflate; client_no_context_takeover; client_max_window_bits
          both | permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits
          smwb10 | permessage-deflate; server_max_window_bits=10; client_max_window_bits, permessage-deflate; client_max_window_bits
          smwb15 | permessage-deflate; server_max_window_bits=15; client_max_window_bits, permessage-deflate; client_max_window_bits
          snct+smwb9 | permessage-deflate; server_no_context_takeover; server_max_window_bits=9; client_max_window_bits, permessage-deflate; client_max_window_bits
          """)
  void clientOffersWhatItsConfigAsks(String config, String offers) {
    assertThat(Elements.format(CONFIGS.get(config).clientOffers())).isEqualTo(offers);
  }

  // Client: config | the server's response | OK <outbound reset> <inbound reset> <outbound window
  // bits>, or the failure
  @ParameterizedTest(name = "[{index}] client {0}: {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          defaults | permessage-deflate | OK false false 15
          defaults | permessage-deflate; server_no_context_takeover | OK false true 15
          defaults | permessage-deflate; client_no_context_takeover | OK true false 15
          defaults | permessage-deflate; client_no_context_takeover; server_no_context_takeover | OK true true 15
          defaults | permessage-deflate; server_max_window_bits=10 | OK false false 15
          defaults | permessage-deflate; server_max_window_bits=8 | OK false false 15
          defaults | permessage-deflate; client_max_window_bits=10 | OK false false 10
          defaults | permessage-deflate; client_max_window_bits=8 | OK false false 8
          defaults | permessage-deflate; client_max_window_bits=15 | OK false false 15
          defaults | permessage-deflate; client_no_context_takeover; client_max_window_bits=9 | OK true false 9
          defaults | permessage-deflate; client_max_window_bits | client_max_window_bits needs a value from 8 to 15 (RFC 7692 §7.1.2.2)
          defaults | permessage-deflate; client_max_window_bits=7 | client_max_window_bits="7" is not an integer from 8 to 15
          defaults | permessage-deflate; x_unknown | unknown parameter x_unknown
          defaults | permessage-deflate; server_no_context_takeover; server_no_context_takeover | parameter server_no_context_takeover given twice (RFC 7692 §7)
          defaults | permessage-deflate; server_no_context_takeover=true | server_no_context_takeover takes no value, got "true" (RFC 7692 §7.1.1.1)
          defaults | permessage-deflate; server_max_window_bits | server_max_window_bits needs a value from 8 to 15 (RFC 7692 §7.1.2.1)
          defaults | permessage-deflate; server_max_window_bits=16 | server_max_window_bits="16" is not an integer from 8 to 15
          defaults | permessage-deflate; server_max_window_bits=010 | server_max_window_bits="010" is not an integer from 8 to 15
          defaults | x-webkit-deflate-frame | response names extension x-webkit-deflate-frame, not permessage-deflate
          snct | permessage-deflate; server_no_context_takeover | OK false true 15
          snct | permessage-deflate | server_no_context_takeover was offered but the response lacks it (RFC 7692 §7.1.1.1)
          cnct | permessage-deflate | OK true false 15
          smwb10 | permessage-deflate; server_max_window_bits=10 | OK false false 15
          smwb10 | permessage-deflate; server_max_window_bits=9 | OK false false 15
          smwb10 | permessage-deflate; server_max_window_bits=12 | OK false false 15
          smwb10 | permessage-deflate | OK false false 15
          smwb10 | permessage-deflate; client_max_window_bits=10 | OK false false 10
          snct+smwb9 | permessage-deflate; server_no_context_takeover; server_max_window_bits=9 | OK false true 15
          snct+smwb9 | permessage-deflate | OK false false 15
          """)
  void clientChecksEachResponseAsTheTableSays(String config, String response, String expected)
      throws Exception {
    PerMessageDeflate factory = CONFIGS.get(config);
    if (!expected.startsWith("OK")) {
      assertThatThrownBy(() -> factory.clientAccept(Elements.element(response)))
          .isInstanceOf(ExtensionNegotiationException.class)
          .hasMessageContaining(expected);
      return;
    }
    String[] ok = expected.split(" ");
    try (DeflateExtension ext = (DeflateExtension) factory.clientAccept(Elements.element(response))) {
      assertThat(ext.outboundNoContextTakeover())
          .as("client compressor reset")
          .isEqualTo(Boolean.parseBoolean(ok[1]));
      assertThat(ext.inboundNoContextTakeover())
          .as("client decompressor reset")
          .isEqualTo(Boolean.parseBoolean(ok[2]));
      assertThat(ext.outboundWindowBits())
          .as("client compressor window")
          .isEqualTo(Integer.parseInt(ok[3]));
    }
  }

  // A response against one offer alone (without the plain fallback a real client adds).
  // offer | response | null when it fits, else the start of the rule it breaks
  @ParameterizedTest(name = "[{index}] offer {0}: response {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "FITS",
      textBlock =
          """
          permessage-deflate; server_max_window_bits=10 | permessage-deflate; server_max_window_bits=10 | FITS
          permessage-deflate; server_max_window_bits=10 | permessage-deflate; server_max_window_bits=8 | FITS
          permessage-deflate; server_max_window_bits=10 | permessage-deflate; server_max_window_bits=12 | server_max_window_bits=12 in the response exceeds the 10 offered
          permessage-deflate; server_max_window_bits=10 | permessage-deflate | server_max_window_bits=10 was offered but the response lacks it
          permessage-deflate | permessage-deflate; server_max_window_bits=12 | FITS
          permessage-deflate; client_max_window_bits | permessage-deflate; client_max_window_bits=12 | FITS
          permessage-deflate; client_max_window_bits=10 | permessage-deflate; client_max_window_bits=12 | client_max_window_bits=12 in the response exceeds the 10 offered
          permessage-deflate; server_no_context_takeover | permessage-deflate | server_no_context_takeover was offered but the response lacks it
          permessage-deflate | permessage-deflate; server_no_context_takeover; client_no_context_takeover | FITS
          """)
  void responseFitsAnOfferOnlyWithinWhatSection7Allows(
      String offer, String response, String misfit) throws Exception {
    DeflateParams o = DeflateParams.parse(Elements.element(offer), true);
    DeflateParams r = DeflateParams.parse(Elements.element(response), false);
    if (misfit == null) {
      assertThat(r.misfitAsResponseTo(o)).isNull();
    } else {
      assertThat(r.misfitAsResponseTo(o)).startsWith(misfit);
    }
  }

  @Test
  void aClientAndAServerOfThisLibraryAgreeOnEveryConfiguration() throws Exception {
    for (PerMessageDeflate client : CONFIGS.values()) {
      for (PerMessageDeflate server : CONFIGS.values()) {
        ExtensionFactory.Accepted accepted = server.serverAccept(client.clientOffers());
        assertThat(accepted).as("%s offered to %s", client, server).isNotNull();
        try (DeflateExtension c = (DeflateExtension) client.clientAccept(accepted.response());
            DeflateExtension s = (DeflateExtension) accepted.extension()) {
          assertThat(c.outboundNoContextTakeover())
              .as("client resets what the server expects")
              .isEqualTo(s.inboundNoContextTakeover() || client.clientNoContextTakeover());
          assertThat(c.inboundNoContextTakeover()).isEqualTo(s.outboundNoContextTakeover());
          assertThat(s.outboundWindowBits())
              .as("the server keeps to the window the client asked for")
              .isEqualTo(client.serverMaxWindowBits() == 0 ? 15 : client.serverMaxWindowBits());
          assertThat(c.outboundWindowBits()).isEqualTo(15);
        }
      }
    }
  }

  @Test
  void defaultsAreTheNamedConstants() {
    PerMessageDeflate d = PerMessageDeflate.defaults();
    assertThat(d.compressionLevel()).isEqualTo(PerMessageDeflate.DEFAULT_COMPRESSION_LEVEL);
    assertThat(d.minCompressSize()).isEqualTo(PerMessageDeflate.DEFAULT_MIN_COMPRESS_SIZE);
    assertThat(d.serverNoContextTakeover())
        .isEqualTo(PerMessageDeflate.DEFAULT_SERVER_NO_CONTEXT_TAKEOVER);
    assertThat(d.clientNoContextTakeover())
        .isEqualTo(PerMessageDeflate.DEFAULT_CLIENT_NO_CONTEXT_TAKEOVER);
    assertThat(d.serverMaxWindowBits()).isEqualTo(PerMessageDeflate.WINDOW_BITS_NOT_OFFERED);
    assertThat(d.name()).isEqualTo("permessage-deflate");
  }

  @Test
  void toBuilderRoundTripsEveryComponent() {
    PerMessageDeflate custom =
        PerMessageDeflate.builder()
            .compressionLevel(9)
            .minCompressSize(100)
            .serverNoContextTakeover(true)
            .clientNoContextTakeover(true)
            .serverMaxWindowBits(12)
            .build();
    assertThat(custom.toBuilder().build()).isEqualTo(custom);
    assertThat(custom.toBuilder().compressionLevel(1).build().compressionLevel()).isEqualTo(1);
  }

  @Test
  void outOfRangeConfigurationIsRefusedWithTheRule() {
    assertThatThrownBy(() -> PerMessageDeflate.builder().compressionLevel(10).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use 0 to 9");
    assertThatThrownBy(() -> PerMessageDeflate.builder().compressionLevel(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PerMessageDeflate.builder().minCompressSize(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> PerMessageDeflate.builder().serverMaxWindowBits(7).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use 8 to 15");
    assertThatThrownBy(() -> PerMessageDeflate.builder().serverMaxWindowBits(16).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
