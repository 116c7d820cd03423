package dev.wsjava.jakarta.internal;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.EndpointConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's encoders and decoders (Jakarta WebSocket 2.2 §4.1.1, §4.1.2): made and {@code
 * init}ed when the session opens, {@code destroy}ed when it closes. Not thread-safe for decoding
 * (the session's messages come one at a time); encoding is serialised by the caller's send.
 */
final class Codecs {
  /** How a decoder takes its message. */
  enum Form {
    TEXT,
    TEXT_STREAM,
    BINARY,
    BINARY_STREAM
  }

  /** A decoder class, the type it makes and the form it takes, resolved at deployment. */
  record DecoderType(Class<? extends Decoder> type, Class<?> target, Form form) {
    static DecoderType of(Class<? extends Decoder> type) throws DeploymentException {
      if (Decoder.Text.class.isAssignableFrom(type)) {
        return new DecoderType(type, Generics.typeArgument(type, Decoder.Text.class), Form.TEXT);
      }
      if (Decoder.TextStream.class.isAssignableFrom(type)) {
        return new DecoderType(
            type, Generics.typeArgument(type, Decoder.TextStream.class), Form.TEXT_STREAM);
      }
      if (Decoder.Binary.class.isAssignableFrom(type)) {
        return new DecoderType(type, Generics.typeArgument(type, Decoder.Binary.class), Form.BINARY);
      }
      if (Decoder.BinaryStream.class.isAssignableFrom(type)) {
        return new DecoderType(
            type, Generics.typeArgument(type, Decoder.BinaryStream.class), Form.BINARY_STREAM);
      }
      throw new DeploymentException(
          type.getName() + " is no Decoder.Text, TextStream, Binary or BinaryStream");
    }

    boolean text() {
      return form == Form.TEXT || form == Form.TEXT_STREAM;
    }

    boolean stream() {
      return form == Form.TEXT_STREAM || form == Form.BINARY_STREAM;
    }
  }

  /** An encoder class and the type it takes. */
  record EncoderType(Class<? extends Encoder> type, Class<?> source) {
    static EncoderType of(Class<? extends Encoder> type) throws DeploymentException {
      for (Class<?> i :
          List.of(
              Encoder.Text.class,
              Encoder.TextStream.class,
              Encoder.Binary.class,
              Encoder.BinaryStream.class)) {
        if (i.isAssignableFrom(type)) {
          return new EncoderType(type, Generics.typeArgument(type, i));
        }
      }
      throw new DeploymentException(
          type.getName() + " is no Encoder.Text, TextStream, Binary or BinaryStream");
    }
  }

  private final List<Decoder> decoders = new ArrayList<>();
  private final List<Encoder> encoders = new ArrayList<>();
  private final List<Class<?>> encoderSources = new ArrayList<>();

  Codecs(List<DecoderType> decoderTypes, List<EncoderType> encoderTypes, EndpointConfig config) {
    for (EncoderType e : encoderTypes) {
      Encoder encoder = instantiate(e.type());
      encoder.init(config);
      encoders.add(encoder);
      encoderSources.add(e.source());
    }
    for (DecoderType d : decoderTypes) {
      Decoder decoder = instantiate(d.type());
      decoder.init(config);
      decoders.add(decoder);
    }
  }

  private static <T> T instantiate(Class<T> type) {
    try {
      return type.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot make " + type.getName() + ": it needs a public no-argument constructor", e);
    }
  }

  /** Returns the session's instance of a decoder class. */
  Decoder decoder(Class<? extends Decoder> type) {
    for (Decoder d : decoders) {
      if (d.getClass() == type) {
        return d;
      }
    }
    throw new IllegalStateException("no decoder " + type.getName());
  }

  /** Decodes text with the first of {@code candidates} that will. */
  @SuppressWarnings("unchecked")
  static Object decodeText(Decoder[] candidates, String text) throws DecodeException {
    for (Decoder d : candidates) {
      Decoder.Text<Object> t = (Decoder.Text<Object>) d;
      if (t.willDecode(text)) {
        return t.decode(text);
      }
    }
    throw new DecodeException(text, "no decoder will decode this text message");
  }

  /** Decodes binary with the first of {@code candidates} that will. */
  @SuppressWarnings("unchecked")
  static Object decodeBinary(Decoder[] candidates, ByteBuffer data) throws DecodeException {
    for (Decoder d : candidates) {
      Decoder.Binary<Object> b = (Decoder.Binary<Object>) d;
      ByteBuffer view = data.duplicate();
      if (b.willDecode(view)) {
        return b.decode(data.duplicate());
      }
    }
    throw new DecodeException(data, "no decoder will decode this binary message");
  }

  @SuppressWarnings("unchecked")
  static Object decodeReader(Decoder d, Reader in) throws DecodeException, IOException {
    return ((Decoder.TextStream<Object>) d).decode(in);
  }

  @SuppressWarnings("unchecked")
  static Object decodeStream(Decoder d, InputStream in) throws DecodeException, IOException {
    return ((Decoder.BinaryStream<Object>) d).decode(in);
  }

  /** Returns the encoder for an object's class, or null when none takes it. */
  Encoder encoderFor(Class<?> type) {
    for (int i = 0; i < encoders.size(); i++) {
      if (encoderSources.get(i).isAssignableFrom(type)) {
        return encoders.get(i);
      }
    }
    return null;
  }

  /** Encodes to text, or returns null when the encoder is not a text one. */
  @SuppressWarnings("unchecked")
  static String encodeText(Encoder e, Object value) throws EncodeException {
    return ((Encoder.Text<Object>) e).encode(value);
  }

  @SuppressWarnings("unchecked")
  static ByteBuffer encodeBinary(Encoder e, Object value) throws EncodeException {
    return ((Encoder.Binary<Object>) e).encode(value);
  }

  @SuppressWarnings("unchecked")
  static void encodeTextStream(Encoder e, Object value, java.io.Writer out)
      throws EncodeException, IOException {
    ((Encoder.TextStream<Object>) e).encode(value, out);
  }

  @SuppressWarnings("unchecked")
  static void encodeBinaryStream(Encoder e, Object value, java.io.OutputStream out)
      throws EncodeException, IOException {
    ((Encoder.BinaryStream<Object>) e).encode(value, out);
  }

  /** Calls every codec's {@code destroy}, once. */
  void destroy() {
    for (Decoder d : decoders) {
      try {
        d.destroy();
      } catch (RuntimeException ignored) {
        // one failing destroy does not stop the others
      }
    }
    for (Encoder e : encoders) {
      try {
        e.destroy();
      } catch (RuntimeException ignored) {
        // as above
      }
    }
    decoders.clear();
    encoders.clear();
  }
}
