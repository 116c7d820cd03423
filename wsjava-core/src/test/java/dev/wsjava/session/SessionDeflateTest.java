package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.protocol.Hex;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The session with permessage-deflate negotiated: RFC 7692 §7.2.3 on the wire, byte for byte. */
class SessionDeflateTest {

  final Recorder events = new Recorder();

  /** Negotiates deflate with the given config on both sides; returns {client, server}. */
  static Extension[] negotiate(PerMessageDeflate config) throws Exception {
    ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
    return new Extension[] {config.clientAccept(accepted.response()), accepted.extension()};
  }

  static PerMessageDeflate everything() {
    return PerMessageDeflate.builder().minCompressSize(0).build();
  }

  static Session session(Role role, PerMessageDeflate config, Limits limits) throws Exception {
    Extension[] ext = negotiate(config);
    return new Session(
        role, SessionConfig.DEFAULTS.withLimits(limits), List.of(ext[role == Role.CLIENT ? 0 : 1]));
  }

  static String sentHex(Session s) {
    return Hex.of(SessionRoundTripTest.drainRaw(s));
  }

  @Test
  void aCompressedHelloInOneFrameIsDecoded() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    client.receive(Hex.buffer("c1 07 f2 48 cd c9 c9 07 00"), events); // RFC 7692 §7.2.3.1
    assertThat(events.events).containsExactly("text:Hello");
  }

  @Test
  void aCompressedHelloInTwoFramesIsDecoded() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    // RFC 7692 §7.2.3.1: RSV1 on the first frame only.
    client.receive(Hex.buffer("41 03 f2 48 cd  80 04 c9 c9 07 00"), events);
    assertThat(events.events).containsExactly("text:Hello");
  }

  @Test
  void theTalliesCountMessagesAndTheirDecompressedBytesNotFrames() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    assertThat(client.messagesIn()).isZero();
    client.receive(Hex.buffer("c1 07 f2 48 cd c9 c9 07 00"), events);
    client.receive(Hex.buffer("41 03 f2 48 cd  80 04 c9 c9 07 00"), events);
    client.receive(Hex.buffer("89 00"), events); // a ping is not a message
    assertThat(client.messagesIn()).isEqualTo(2);
    assertThat(client.bytesIn()).isEqualTo(10);

    Session server = session(Role.SERVER, everything(), Limits.DEFAULTS);
    server.sendText("Hello");
    server.sendFragment(Opcode.BINARY, ByteBuffer.wrap(new byte[3]), false);
    assertThat(server.messagesOut()).as("a message counts at its final fragment").isEqualTo(1);
    server.sendFragment(Opcode.BINARY, ByteBuffer.wrap(new byte[4]), true);
    server.sendPing(ByteBuffer.allocate(2));
    assertThat(server.messagesOut()).isEqualTo(2);
    assertThat(server.bytesOut()).as("bytes before compression").isEqualTo(12);

    // A frame encoded once for a topic counts its payload, whatever its header's length.
    server.sendEncoded(Hex.buffer("82 02 00 00"));
    ByteBuffer longer = ByteBuffer.allocate(4 + 200).put(Hex.buffer("82 7e 00 c8"));
    server.sendEncoded(longer.position(0));
    assertThat(server.messagesOut()).isEqualTo(4);
    assertThat(server.bytesOut()).isEqualTo(12 + 2 + 200);
  }

  @Test
  void twoHellosWithContextTakeoverShareTheWindow() throws Exception {
    Session server = session(Role.SERVER, everything(), Limits.DEFAULTS);
    server.sendText("Hello");
    server.sendText("Hello");
    // RFC 7692 §7.2.3.2: the second message refers back into the first.
    assertThat(sentHex(server)).isEqualTo("c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00");
  }

  @Test
  void twoHellosWithoutContextTakeoverAreCompressedAlike() throws Exception {
    PerMessageDeflate config =
        PerMessageDeflate.builder().minCompressSize(0).serverNoContextTakeover(true).build();
    Session server = session(Role.SERVER, config, Limits.DEFAULTS);
    server.sendText("Hello");
    server.sendText("Hello");
    assertThat(sentHex(server)).isEqualTo("c1 07 f2 48 cd c9 c9 07 00 c1 07 f2 48 cd c9 c9 07 00");
  }

  @Test
  void aMessageOfTwoDeflateBlocksIsDecoded() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    // RFC 7692 §7.2.3.5: "He" in one block, an empty stored block, then "llo"
    client.receive(Hex.buffer("c1 0d f2 48 05 00 00 00 ff ff ca c9 c9 07 00"), events);
    assertThat(events.events).containsExactly("text:Hello");
  }

  @Test
  void controlFramesAreNeverCompressed() throws Exception {
    Session server = session(Role.SERVER, everything(), Limits.DEFAULTS);
    server.sendPing(ByteBuffer.wrap("Hello".getBytes()));
    assertThat(sentHex(server)).isEqualTo("89 05 48 65 6c 6c 6f");
  }

  @Test
  void rsv1OnAContinuationFrameFails() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    client.receive(Hex.buffer("41 03 f2 48 cd  c0 04 c9 c9 07 00"), events);
    assertThat(events.events).containsExactly("failure:1002");
  }

  @Test
  void rsv1OnAControlFrameFails() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    client.receive(Hex.buffer("c9 00"), events);
    assertThat(events.events).containsExactly("failure:1002");
  }

  @Test
  void corruptCompressedDataFailsWith1007() throws Exception {
    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS);
    client.receive(Hex.buffer("c1 03 ff ff ff"), events);
    assertThat(events.events).containsExactly("failure:1007");
  }

  @Test
  void aDecompressionBombStopsAtTheMessageLimitWith1009() throws Exception {
    // 64 MiB of zeros compress to about 64 KiB; the limit is 1 MiB.
    Deflater d = new Deflater(9, true);
    d.setInput(new byte[1 << 20]);
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    byte[] buf = new byte[65536];
    for (int i = 0; i < 64; i++) {
      d.setInput(new byte[1 << 20]);
      int n;
      while ((n = d.deflate(buf, 0, buf.length, Deflater.NO_FLUSH)) > 0) {
        compressed.write(buf, 0, n);
      }
    }
    int n;
    while ((n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH)) > 0) {
      compressed.write(buf, 0, n);
    }
    d.end();
    byte[] payload = compressed.toByteArray();
    payload = java.util.Arrays.copyOf(payload, payload.length - 4); // strip 00 00 ff ff

    Session client = session(Role.CLIENT, everything(), Limits.DEFAULTS.withMaxMessageSize(1 << 20));
    ByteBuffer frame = ByteBuffer.allocate(payload.length + 10);
    dev.wsjava.protocol.FrameEncoder.encode(frame, true, 0x40, Opcode.BINARY, ByteBuffer.wrap(payload), false, 0);
    client.receive(frame.flip(), events);
    int receives = 1;
    while (client.mustFeedAgain()) { // inflation gives way after each 512 KiB slice
      assertThat(events.events).isEmpty();
      client.receive(frame, events);
      receives++;
    }
    assertThat(receives).as("receives to inflate 1 MiB and a chunk").isEqualTo(3);
    assertThat(events.events).containsExactly("failure:1009");
    assertThat(events.failure).hasMessageContaining("message size").hasMessageContaining("1048576");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("dev.wsjava.protocol.Seeds#fewer")
  void messagesArriveUnchangedThroughDeflateBothWays(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    PerMessageDeflate config =
        PerMessageDeflate.builder()
            .minCompressSize(r.nextInt(3) == 0 ? 0 : 16)
            .serverNoContextTakeover(r.nextBoolean())
            .clientNoContextTakeover(r.nextBoolean())
            .build();
    Extension[] ext = negotiate(config);
    Session client = new Session(Role.CLIENT, SessionConfig.DEFAULTS, List.of(ext[0]));
    Session server = new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of(ext[1]));
    SessionRoundTripTest.check(r, client, server);
    SessionRoundTripTest.check(r, server, client);
  }
}
