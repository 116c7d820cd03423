package dev.wsjava.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.PerMessageDeflate;
import dev.wsjava.protocol.Limits;
import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import dev.wsjava.protocol.Role;
import dev.wsjava.protocol.Utf8Validator;
import dev.wsjava.session.Session;
import dev.wsjava.session.SessionConfig;
import dev.wsjava.session.SessionListener;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * A session fed arbitrary bytes. Input: byte 0 picks the role (bit 0), a negotiated
 * permessage-deflate (bit 1), streamed messages (bit 2), auto-pong (bit 3) and no context takeover
 * (bit 4); byte 1 the chunking; the rest is the wire.
 *
 * <p>Properties: nothing escapes {@code receive}; nothing is reported after {@code onFailure} or
 * {@code onClose}; no message (whole or the sum of its parts) passes the size limit; whole text
 * messages are valid UTF-8; outbound bytes stay bounded; the session fails exactly when {@link
 * SessionRules} says the stream breaks a rule, with the code it names (1002, 1007 or 1009).
 */
class SessionFuzzTest {
  static final Limits LIMITS = new Limits(512, 1024, 8);

  @FuzzTest(maxDuration = "30s")
  void session(byte[] data) throws Exception {
    int flags = Chunks.at(data, 0);
    Role role = (flags & 1) == 0 ? Role.SERVER : Role.CLIENT;
    // Judged before the session reads the bytes: it unmasks them in place.
    Set<Integer> expected = SessionRules.judge(data, Math.min(2, data.length), role == Role.SERVER,
        (flags & 2) != 0, (flags & 16) != 0, LIMITS);
    List<Extension> extensions = List.of();
    if ((flags & 2) != 0) {
      PerMessageDeflate config =
          PerMessageDeflate.builder()
              .minCompressSize(0)
              .serverNoContextTakeover((flags & 16) != 0)
              .clientNoContextTakeover((flags & 16) != 0)
              .build();
      ExtensionFactory.Accepted accepted = config.serverAccept(config.clientOffers());
      Extension ext =
          role == Role.SERVER ? accepted.extension() : config.clientAccept(accepted.response());
      extensions = List.of(ext);
    }
    SessionConfig config = new SessionConfig(LIMITS, (flags & 8) != 0, (flags & 4) != 0);
    Session session = new Session(role, config, extensions);
    Checker checker = new Checker();
    for (ByteBuffer in : Chunks.split(data, Math.min(2, data.length), Chunks.at(data, 1))) {
      session.receive(in, checker);
      assertThat(in.hasRemaining()).as("receive consumes all input").isFalse();
      // Control frames answered (pongs, the close reply) are all that a peer can make it queue.
      assertThat(session.outboundBytes()).isLessThanOrEqualTo(1L << 16);
      drain(session);
    }
    session.receiveEnd(checker);
    assertThat(session.state()).isEqualTo(Session.State.CLOSED);
    if (expected.isEmpty()) {
      assertThat(checker.failure).as("a failure on a stream that breaks no rule").isNull();
    } else {
      assertThat(checker.failure).as("no failure on a stream that breaks a rule: " + expected)
          .isNotNull();
      assertThat(expected).as(checker.failure.getMessage()).contains(checker.failure.closeCode());
    }
  }

  private static void drain(Session session) {
    ByteBuffer[] dst = new ByteBuffer[64];
    while (session.hasOutbound()) {
      int n = session.gatherOutbound(dst, 0);
      long total = 0;
      for (int i = 0; i < n; i++) {
        total += dst[i].remaining();
        dst[i].position(dst[i].limit());
      }
      session.written(total);
    }
  }

  /** Checks the listener contract as events arrive. */
  static final class Checker implements SessionListener {
    boolean ended;
    ProtocolException failure;
    long partial;
    final Utf8Validator utf8 = new Utf8Validator();

    private void live(String what) {
      assertThat(ended).as(what + " reported after onFailure/onClose").isFalse();
    }

    @Override
    public void onMessage(Opcode type, ByteBuffer payload) {
      live("onMessage");
      assertThat(type).isIn(Opcode.TEXT, Opcode.BINARY);
      assertThat((long) payload.remaining()).isLessThanOrEqualTo(LIMITS.maxMessageSize());
      if (type == Opcode.TEXT) {
        assertThat(Utf8Validator.isValid(payload)).as("text message is UTF-8").isTrue();
      }
    }

    @Override
    public void onMessagePart(Opcode type, ByteBuffer chunk, boolean last) {
      live("onMessagePart");
      assertThat(type).isIn(Opcode.TEXT, Opcode.BINARY);
      partial += chunk.remaining();
      assertThat(partial).isLessThanOrEqualTo(LIMITS.maxMessageSize());
      if (type == Opcode.TEXT) {
        assertThat(utf8.validate(chunk)).as("text part is UTF-8 so far").isEqualTo(-1);
        if (last) {
          assertThat(utf8.isComplete()).as("text message ends on a code point").isTrue();
        }
      }
      if (last) {
        partial = 0;
        utf8.reset();
      }
    }

    @Override
    public void onPing(ByteBuffer payload) {
      live("onPing");
      assertThat(payload.remaining()).isLessThanOrEqualTo(125);
    }

    @Override
    public void onPong(ByteBuffer payload) {
      live("onPong");
      assertThat(payload.remaining()).isLessThanOrEqualTo(125);
    }

    @Override
    public void onClose(int code, String reason) {
      live("onClose");
      ended = true;
    }

    @Override
    public void onFailure(ProtocolException cause) {
      live("onFailure");
      failure = cause;
      ended = true;
    }
  }
}
