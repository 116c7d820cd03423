package dev.wsjava.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Role;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionTest {

  final Recorder events = new Recorder();

  static Session server() {
    return new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of());
  }

  static Session client() {
    return new Session(Role.CLIENT, SessionConfig.DEFAULTS, List.of());
  }

  static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aWholeMessageIsReported() {
    Session s = client();
    s.receive(new Wire(Role.CLIENT).frame(0x81, "Hello").buffer(), events);
    assertThat(events.events).containsExactly("text:Hello");
  }

  @Test
  void aFragmentedMessageWithAPingBetweenItsFragmentsIsReassembled() throws Exception {
    Session s = server();
    ByteBuffer in =
        new Wire(Role.SERVER).frame(0x01, "Hel").frame(0x89, "p").frame(0x80, "lo").buffer();
    s.receive(in, events);
    assertThat(events.events).containsExactly("ping:p", "text:Hello");
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).singleElement().satisfies(f -> {
      assertThat(f.opcode()).isEqualTo(Opcode.PONG);
      assertThat(f.text()).isEqualTo("p");
    });
  }

  @Test
  void bytesFedOneAtATimeGiveTheSameEvents() {
    Session s = server();
    byte[] in = new Wire(Role.SERVER).frame(0x01, "Hé").frame(0x80, "llo").frame(0x82, "ab").bytes();
    for (byte b : in) {
      s.receive(ByteBuffer.wrap(new byte[] {b}), events);
    }
    assertThat(events.events).containsExactly("text:Héllo", "binary:2");
  }

  @Test
  void aCodePointSplitAcrossFragmentsIsAccepted() {
    Session s = client();
    byte[] euro = "€".getBytes(StandardCharsets.UTF_8); // e2 82 ac
    s.receive(
        new Wire(Role.CLIENT)
            .frame(0x01, new byte[] {euro[0]})
            .frame(0x00, new byte[] {euro[1]})
            .frame(0x80, new byte[] {euro[2]})
            .buffer(),
        events);
    assertThat(events.events).containsExactly("text:€");
  }

  @Test
  void invalidUtf8FailsAtTheFirstBadFragmentNotAtTheEndOfTheMessage() {
    Session s = client();
    // The first fragment already holds an impossible byte; the message is not finished.
    s.receive(new Wire(Role.CLIENT).frame(0x01, new byte[] {'o', 'k', (byte) 0xFF}).buffer(), events);
    assertThat(events.events).containsExactly("failure:1007");
    assertThat(events.failure).hasMessageContaining("at byte 2");
  }

  @Test
  void aTextMessageEndingInsideACodePointIsNeverDelivered() {
    Session s = client();
    // Whole in one read (the zero-copy path) and in two reads (the assembling path).
    s.receive(new Wire(Role.CLIENT).frame(0x81, new byte[] {'a', (byte) 0xE2, (byte) 0x82}).buffer(), events);
    assertThat(events.events).containsExactly("failure:1007");
    Recorder other = new Recorder();
    Session t = client();
    byte[] frame = new Wire(Role.CLIENT).frame(0x81, new byte[] {'a', (byte) 0xE2, (byte) 0x82}).bytes();
    t.receive(ByteBuffer.wrap(frame, 0, 3), other);
    t.receive(ByteBuffer.wrap(frame, 3, frame.length - 3), other);
    assertThat(other.events).containsExactly("failure:1007");
  }

  @Test
  void streamingReportsPiecesAsTheyArrive() {
    Session s = new Session(Role.CLIENT, SessionConfig.DEFAULTS.withStreamMessages(true), List.of());
    s.receive(new Wire(Role.CLIENT).frame(0x01, "Hel").buffer(), events);
    assertThat(events.events).containsExactly("part:TEXT:Hel");
    s.receive(new Wire(Role.CLIENT).frame(0x80, "lo").buffer(), events);
    // The piece that ends the message is the last: no empty piece after it.
    assertThat(events.events).containsExactly("part:TEXT:Hel", "part:TEXT:lo:last");
  }

  @Test
  void aStreamedMessageEndedByAnEmptyFrameEndsWithAnEmptyPiece() {
    Session s = new Session(Role.CLIENT, SessionConfig.DEFAULTS.withStreamMessages(true), List.of());
    s.receive(new Wire(Role.CLIENT).frame(0x01, "Hel").buffer(), events);
    s.receive(new Wire(Role.CLIENT).frame(0x80, "").buffer(), events);
    assertThat(events.events).containsExactly("part:TEXT:Hel", "part:TEXT::last");
  }

  @Test
  void aStreamedTextMessageEndingInsideACharacterIsRefusedBeforeItsLastPiece() {
    Session s = new Session(Role.CLIENT, SessionConfig.DEFAULTS.withStreamMessages(true), List.of());
    byte[] euro = "\u20ac".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteBuffer wire = ByteBuffer.allocate(4).put((byte) 0x81).put((byte) 2).put(euro, 0, 2).flip();
    s.receive(wire, events);
    assertThat(events.events).noneMatch(e -> e.startsWith("part:"));
    assertThat(events.failure).isNotNull();
    assertThat(events.failure.getMessage()).contains("inside a UTF-8 sequence");
  }

  @Test
  void pingIsAnsweredWithAPongCarryingTheSamePayload() throws Exception {
    Session s = server();
    s.receive(new Wire(Role.SERVER).frame(0x89, "Hello").buffer(), events);
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).opcode()).isEqualTo(Opcode.PONG);
    assertThat(sent.get(0).text()).isEqualTo("Hello");
  }

  @Test
  void aSessionAnswersItsFirstControlFrameEvenWhenTheFrameArrivesInPieces() throws Exception {
    Session s = server();
    ByteBuffer wire = new Wire(Role.SERVER).frame(0x89, "first ping").buffer();
    while (wire.hasRemaining()) {
      ByteBuffer one = wire.slice(wire.position(), 1);
      wire.position(wire.position() + 1);
      s.receive(one, events);
    }
    assertThat(events.events).containsExactly("ping:first ping");
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).extracting(Wire.Sent::opcode).containsExactly(Opcode.PONG);
    assertThat(sent.get(0).text()).isEqualTo("first ping");
  }

  @Test
  void pingsBehindALongQueueAreAnsweredOnceWithTheNewestPayload() throws Exception {
    Session s = server();
    s.sendMessage(Opcode.BINARY, ByteBuffer.allocate(Session.PONG_BACKLOG + 1000));
    s.receive(new Wire(Role.SERVER).frame(0x89, "a").buffer(), events);
    s.receive(new Wire(Role.SERVER).frame(0x89, "b").buffer(), events);
    s.receive(new Wire(Role.SERVER).frame(0x89, "c").buffer(), events);
    assertThat(events.events).containsExactly("ping:a", "ping:b", "ping:c");
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent)
        .extracting(Wire.Sent::opcode)
        .containsExactly(Opcode.BINARY, Opcode.PONG, Opcode.PONG);
    assertThat(sent.get(1).text()).isEqualTo("a");
    assertThat(sent.get(2).text()).isEqualTo("c"); // "b" was superseded while it waited
  }

  @Test
  void autoPongCanBeTurnedOff() throws Exception {
    Session s = new Session(Role.SERVER, SessionConfig.DEFAULTS.withAutoPong(false), List.of());
    s.receive(new Wire(Role.SERVER).frame(0x89, "x").buffer(), events);
    assertThat(events.events).containsExactly("ping:x");
    assertThat(s.hasOutbound()).isFalse();
  }

  @ParameterizedTest(name = "close code {0} is echoed")
  @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
  void aValidCloseIsEchoedWithTheSameCode(int code) throws Exception {
    Session s = server();
    s.receive(new Wire(Role.SERVER).close(code, "bye").frame(0x81, "ignored").buffer(), events);
    assertThat(events.events).containsExactly("close:" + code + ":bye");
    assertThat(s.state()).isEqualTo(Session.State.CLOSED);
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).singleElement().satisfies(f -> {
      assertThat(f.opcode()).isEqualTo(Opcode.CLOSE);
      assertThat(f.closeCode()).isEqualTo(code);
    });
  }

  @Test
  void anEmptyCloseIsReportedAs1005AndAnsweredWithAnEmptyClose() throws Exception {
    Session s = client();
    s.receive(new Wire(Role.CLIENT).frame(0x88, "").buffer(), events);
    assertThat(events.events).containsExactly("close:1005");
    assertThat(Wire.drain(s)).singleElement().satisfies(f -> assertThat(f.payload()).isEmpty());
  }

  @Test
  void aCloseWithA123ByteReasonIsAccepted() throws Exception {
    Session s = server();
    String reason = "r".repeat(123);
    s.receive(new Wire(Role.SERVER).close(1000, reason).buffer(), events);
    assertThat(events.events).containsExactly("close:1000:" + reason);
  }

  @Test
  void theClosingHandshakeStartedHereEndsWhenThePeerAnswers() throws Exception {
    Session s = client();
    s.close(1000, "done");
    assertThat(s.state()).isEqualTo(Session.State.CLOSE_SENT);
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).singleElement().satisfies(f -> {
      assertThat(f.closeCode()).isEqualTo(1000);
      assertThat(new String(f.payload(), 2, f.payload().length - 2, StandardCharsets.UTF_8)).isEqualTo("done");
    });
    // Messages the peer sent before it saw our close are still delivered.
    s.receive(new Wire(Role.CLIENT).frame(0x81, "late").close(1000, "").buffer(), events);
    assertThat(events.events).containsExactly("text:late", "close:1000");
    assertThat(s.state()).isEqualTo(Session.State.CLOSED);
    assertThat(s.hasOutbound()).as("no second close frame").isFalse();
  }

  @Test
  void sendingAfterCloseIsTheCallersMistake() {
    Session s = client();
    s.close(1000, "");
    assertThatThrownBy(() -> s.sendText("x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after close()");
    assertThatThrownBy(() -> s.sendPing(ByteBuffer.allocate(0))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closeCodesThatMayNotBeSentAreRefused() {
    Session s = client();
    assertThatThrownBy(() -> s.close(1006, "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.close(1015, "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.close(999, "")).isInstanceOf(IllegalArgumentException.class);
    assertThat(s.state()).isEqualTo(Session.State.OPEN);
  }

  @Test
  void aLongCloseReasonIsCutAtACharacterBoundary() throws Exception {
    Session s = server();
    s.close(1000, "é".repeat(100)); // 200 bytes of UTF-8
    Wire.Sent close = Wire.drain(s).get(0);
    assertThat(close.payload().length).isLessThanOrEqualTo(125);
    String reason = new String(close.payload(), 2, close.payload().length - 2, StandardCharsets.UTF_8);
    assertThat(reason).isEqualTo("é".repeat(61));
  }

  @Test
  void theEndOfTheStreamWithoutACloseFrameIs1006() {
    Session s = client();
    s.receiveEnd(events);
    assertThat(events.events).containsExactly("close:1006");
    assertThat(s.state()).isEqualTo(Session.State.CLOSED);
    assertThat(s.closeCode()).isEqualTo(1006);
  }

  @Test
  void aControlFrameLargerThan125BytesIsRefusedToTheCaller() {
    Session s = client();
    assertThatThrownBy(() -> s.sendPing(ByteBuffer.allocate(126)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exceeds 125");
  }

  @Test
  void aFragmentedSendCannotBeInterruptedByAWholeMessage() throws Exception {
    Session s = server();
    s.sendFragment(Opcode.TEXT, utf8("Hel"), false);
    assertThatThrownBy(() -> s.sendText("x")).isInstanceOf(IllegalStateException.class);
    s.sendPing(utf8("p")); // control frames may go between fragments
    s.sendFragment(Opcode.TEXT, utf8("lo"), true);
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).extracting(Wire.Sent::opcode)
        .containsExactly(Opcode.TEXT, Opcode.PING, Opcode.CONTINUATION);
    assertThat(sent).extracting(Wire.Sent::fin).containsExactly(false, true, true);
  }

  @Test
  void clientFramesAreMaskedWithFreshKeysAndServerFramesAreNot() {
    Session c = client();
    c.sendText("Hello");
    c.sendText("Hello");
    ByteBuffer[] out = new ByteBuffer[4];
    int n = c.gatherOutbound(out, 0);
    assertThat(n).isEqualTo(1); // small frames share one buffer
    ByteBuffer b = out[0];
    assertThat(b.get(1) & 0x80).isEqualTo(0x80);
    int key1 = b.getInt(2);
    int key2 = b.getInt(11 + 2);
    assertThat(key1).isNotEqualTo(key2);

    Session s = server();
    s.sendText("Hello");
    s.gatherOutbound(out, 0);
    assertThat(out[0].get(1) & 0x80).isZero();
  }

  @Test
  void writtenBytesLeaveTheQueueAndPartialWritesKeepTheirPlace() {
    Session s = server();
    s.sendText("Hello");
    assertThat(s.outboundBytes()).isEqualTo(7);
    ByteBuffer[] out = new ByteBuffer[1];
    s.gatherOutbound(out, 0);
    out[0].position(out[0].position() + 3); // a partial write
    s.written(3);
    assertThat(s.outboundBytes()).isEqualTo(4);
    s.sendText("!"); // appended behind the unwritten rest
    s.gatherOutbound(out, 0);
    byte[] rest = Recorder.bytes(out[0]);
    assertThat(rest).containsExactly('e', 'l', 'l', 'o', 0x81, 0x01, '!');
    out[0].position(out[0].limit());
    s.written(7);
    assertThat(s.hasOutbound()).isFalse();
    assertThat(s.outboundTotal()).isEqualTo(10);
  }

  @Test
  void aLargeMessageGetsABufferOfItsOwn() throws Exception {
    Session s = new Session(Role.SERVER, new SessionConfig(Limits.DEFAULTS, true, false, 200_000), List.of());
    s.sendMessage(Opcode.BINARY, ByteBuffer.allocate(100_000));
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).singleElement().satisfies(f -> assertThat(f.payload()).hasSize(100_000));
  }

  @Test
  void aMessageLargerThanTheOutboundFrameSizeGoesOutInFramesOfThatSize() throws Exception {
    Session s = new Session(Role.SERVER, new SessionConfig(Limits.DEFAULTS, true, false, 65536), List.of());
    byte[] message = new byte[150_000];
    new java.util.Random(7).nextBytes(message);
    s.sendMessage(Opcode.BINARY, ByteBuffer.wrap(message));
    List<Wire.Sent> sent = Wire.drain(s);
    assertThat(sent).extracting(f -> f.payload().length).containsExactly(65536, 65536, 150_000 - 131072);
    assertThat(sent).extracting(Wire.Sent::opcode)
        .containsExactly(Opcode.BINARY, Opcode.CONTINUATION, Opcode.CONTINUATION);
    assertThat(sent).extracting(Wire.Sent::fin).containsExactly(false, false, true);
  }

  // ---- an idle session holds neither half; each is made, and works, at its first use ----

  @Test
  void anIdleSessionHoldsNeitherHalfAndAnswersQuestionsAboutItsQueue() {
    Session s = server();
    assertThat(s.madeInbound()).isFalse();
    assertThat(s.madeOutbound()).isFalse();
    assertThat(s.hasOutbound()).isFalse();
    assertThat(s.outboundBytes()).isZero();
    assertThat(s.outboundTotal()).isZero();
    assertThat(s.gatherOutbound(new ByteBuffer[4], 0)).isZero();
    s.written(0);
    s.trim();
    assertThat(s.state()).isEqualTo(Session.State.OPEN);
    assertThat(s.closeCode()).isEqualTo(1006);
    assertThat(s.closeReason()).isEmpty();
    assertThat(s.madeInbound()).isFalse();
    assertThat(s.madeOutbound()).isFalse();
  }

  @Test
  void theFirstMessageAfterIdleIsDeliveredEvenWhenItsFirstReadHoldsOneByte() {
    Session s = server();
    byte[] frame = new Wire(Role.SERVER).frame(0x81, "first").bytes();
    s.receive(ByteBuffer.wrap(frame, 0, 1), events);
    assertThat(events.events).isEmpty();
    assertThat(s.madeInbound()).isTrue();
    s.receive(ByteBuffer.wrap(frame, 1, frame.length - 1), events);
    assertThat(events.events).containsExactly("text:first");
    assertThat(s.madeOutbound()).as("receiving a message queues nothing").isFalse();
  }

  @Test
  void theFirstTextAfterBinaryMessagesIsStillCheckedForUtf8() {
    Session s = server();
    byte[] overlongNul = {(byte) 0xC0, (byte) 0x80};
    s.receive(new Wire(Role.SERVER).frame(0x82, "bin").frame(0x81, overlongNul).buffer(), events);
    assertThat(events.events).containsExactly("binary:3", "failure:1007");
  }

  @Test
  void theFirstSendAfterIdleIsQueuedAndAClientMasksIt() throws Exception {
    for (Session s : List.of(server(), client())) {
      s.sendText("hello");
      assertThat(s.madeOutbound()).isTrue();
      assertThat(s.madeInbound()).as("sending parses nothing").isFalse();
      assertThat(Wire.drain(s)) // the peer's parser refuses frames masked the wrong way
          .singleElement()
          .satisfies(f -> assertThat(f.text()).isEqualTo("hello"));
    }
  }

  @Test
  void theFirstPingAfterIdleIsAnsweredAndReported() throws Exception {
    Session s = server();
    s.receive(new Wire(Role.SERVER).frame(0x89, "are you there").buffer(), events);
    assertThat(events.events).containsExactly("ping:are you there");
    assertThat(Wire.drain(s)).singleElement().satisfies(f -> {
      assertThat(f.opcode()).isEqualTo(Opcode.PONG);
      assertThat(f.text()).isEqualTo("are you there");
    });
  }

  @Test
  void aSessionClosedWhileIdleSendsItsCloseAndEndsWithThePeersAnswer() throws Exception {
    Session s = client();
    s.close(1001, "going");
    assertThat(s.state()).isEqualTo(Session.State.CLOSE_SENT);
    assertThat(Wire.drain(s)).singleElement().satisfies(f -> {
      assertThat(f.opcode()).isEqualTo(Opcode.CLOSE);
      assertThat(f.closeCode()).isEqualTo(1001);
    });
    s.receive(new Wire(Role.CLIENT).close(1001, "").buffer(), events);
    assertThat(s.state()).isEqualTo(Session.State.CLOSED);
    assertThat(s.closeCode()).isEqualTo(1001);
    assertThat(events.events).containsExactly("close:1001");
  }

  @Test
  void aPeersCloseWhileIdleIsEchoed() throws Exception {
    Session s = server();
    s.receive(new Wire(Role.SERVER).close(1000, "bye").buffer(), events);
    assertThat(events.events).containsExactly("close:1000:bye");
    assertThat(s.closeReason()).isEqualTo("bye");
    assertThat(Wire.drain(s))
        .singleElement()
        .satisfies(f -> assertThat(f.closeCode()).isEqualTo(1000));
  }

  @Test
  void aStreamEndingWhileIdleIs1006AndMakesNeitherHalf() {
    Session s = server();
    s.receiveEnd(events);
    assertThat(events.events).containsExactly("close:1006");
    assertThat(s.state()).isEqualTo(Session.State.CLOSED);
    s.receive(new Wire(Role.SERVER).frame(0x81, "late").buffer(), events);
    assertThat(events.events).containsExactly("close:1006");
    assertThat(s.madeInbound()).isFalse();
    assertThat(s.madeOutbound()).isFalse();
  }

  @Test
  void extensionsThatClaimTheSameRsvBitAreRefusedAtOnceNotAtTheFirstFrame() {
    Extension a = new RsvOnly("a", Extension.RSV1);
    Extension b = new RsvOnly("b", Extension.RSV1);
    assertThatThrownBy(() -> new Session(Role.SERVER, SessionConfig.DEFAULTS, List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("extension b");
  }

  /** An extension that only claims an RSV bit. */
  private record RsvOnly(String name, int rsvBits) implements Extension {
    @Override
    public void decode(int messageRsv, boolean fin, ByteBuffer payload, ByteSink out)
        throws ProtocolException {
      out.accept(payload);
    }

    @Override
    public int encode(boolean first, boolean fin, ByteBuffer payload, ByteSink out)
        throws ProtocolException {
      out.accept(payload);
      return 0;
    }

    @Override
    public void close() {}
  }
}
