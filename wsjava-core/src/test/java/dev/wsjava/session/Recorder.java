package dev.wsjava.session;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test listener: records every event as a short line, and whole messages as bytes. */
final class Recorder implements SessionListener {
  final List<String> events = new ArrayList<>();
  final List<byte[]> messages = new ArrayList<>();
  ProtocolException failure;

  static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  static String text(ByteBuffer b) {
    return new String(bytes(b), StandardCharsets.UTF_8);
  }

  @Override
  public void onMessage(Opcode type, ByteBuffer payload) {
    messages.add(bytes(payload));
    events.add(type == Opcode.TEXT ? "text:" + text(payload) : "binary:" + payload.remaining());
  }

  @Override
  public void onMessagePart(Opcode type, ByteBuffer chunk, boolean last) {
    events.add("part:" + type + ":" + text(chunk) + (last ? ":last" : ""));
  }

  @Override
  public void onPing(ByteBuffer payload) {
    events.add("ping:" + text(payload));
  }

  @Override
  public void onPong(ByteBuffer payload) {
    events.add("pong:" + text(payload));
  }

  @Override
  public void onClose(int code, String reason) {
    events.add("close:" + code + (reason.isEmpty() ? "" : ":" + reason));
  }

  @Override
  public void onFailure(ProtocolException cause) {
    failure = cause;
    events.add("failure:" + cause.closeCode());
  }
}
