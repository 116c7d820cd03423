package dev.wsjava.jakarta.internal;

import jakarta.websocket.Decoder;

/**
 * Where one kind of message (text, binary or pong) goes in a session: the raw form the handler
 * takes, how the raw message becomes its argument (a decoder, a primitive), and the call itself.
 * Made once per session (the handler's method resolved once per endpoint class); immutable.
 */
final class Sink {
  /** The raw form a handler takes. */
  enum Raw {
    STRING(true, false, false),
    STRING_PARTIAL(true, true, false),
    READER(true, false, true),
    BYTES(false, false, false),
    BYTES_PARTIAL(false, true, false),
    BUFFER(false, false, false),
    BUFFER_PARTIAL(false, true, false),
    INPUT_STREAM(false, false, true),
    PONG(false, false, false);

    final boolean text;
    final boolean partial;
    final boolean stream;

    Raw(boolean text, boolean partial, boolean stream) {
      this.text = text;
      this.partial = partial;
      this.stream = stream;
    }
  }

  /** The handler's call: returns what an annotated method returned (sent back), or null. */
  @FunctionalInterface
  interface Invoker {
    Object invoke(Object message, boolean last) throws Throwable;
  }

  final Raw raw;
  final Invoker invoker;
  /** The largest message, in bytes (binary) or chars (text); -1 for the session's default. */
  final long maxMessageSize;
  /** Decoders to try (the first that will), or null. */
  final Decoder[] decoders;
  /** The primitive (or its box) a text message is parsed to, or null. */
  final Class<?> primitive;
  /** The handler object, for {@code getMessageHandlers} and {@code removeMessageHandler}. */
  final Object owner;

  Sink(Raw raw, Invoker invoker, long maxMessageSize, Decoder[] decoders, Class<?> primitive, Object owner) {
    this.raw = raw;
    this.invoker = invoker;
    this.maxMessageSize = maxMessageSize;
    this.decoders = decoders;
    this.primitive = primitive;
    this.owner = owner;
  }

  /** Parses text to a primitive's box (Jakarta WebSocket 2.2 §4.7: the primitive forms). */
  static Object parsePrimitive(Class<?> type, String text) throws jakarta.websocket.DecodeException {
    try {
      return switch (type.getName()) {
        case "int", "java.lang.Integer" -> Integer.valueOf(text);
        case "long", "java.lang.Long" -> Long.valueOf(text);
        case "short", "java.lang.Short" -> Short.valueOf(text);
        case "byte", "java.lang.Byte" -> Byte.valueOf(text);
        case "double", "java.lang.Double" -> Double.valueOf(text);
        case "float", "java.lang.Float" -> Float.valueOf(text);
        case "boolean", "java.lang.Boolean" -> Boolean.valueOf(text);
        case "char", "java.lang.Character" -> {
          if (text.length() != 1) {
            throw new NumberFormatException("not one character: " + text.length());
          }
          yield text.charAt(0);
        }
        default -> throw new IllegalArgumentException("not a primitive: " + type);
      };
    } catch (NumberFormatException e) {
      throw new jakarta.websocket.DecodeException(text, "cannot parse a " + type.getSimpleName(), e);
    }
  }

  static boolean isPrimitiveOrBox(Class<?> c) {
    return c.isPrimitive() && c != void.class
        || c == Integer.class || c == Long.class || c == Short.class || c == Byte.class
        || c == Double.class || c == Float.class || c == Boolean.class || c == Character.class;
  }
}
