package dev.wsjava;

import java.nio.ByteBuffer;

/** A received message, for the pull style ({@link WebSocket#receive()}). */
public sealed interface Message permits Message.Text, Message.Binary {

  /**
   * A text message.
   *
   * @param text the message
   */
  record Text(String text) implements Message {}

  /**
   * A binary message.
   *
   * @param data the message (a copy owned by the caller)
   */
  record Binary(ByteBuffer data) implements Message {}
}
