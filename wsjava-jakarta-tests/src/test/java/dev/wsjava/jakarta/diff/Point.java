package dev.wsjava.jakarta.diff;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;

/**
 * The application type the coder cases decode into and encode from, with the four decoder and
 * encoder kinds of §4.1.2/§4.1.3 (text, text stream, binary, binary stream). Text form {@code
 * "x,y"}; binary form two big-endian ints.
 *
 * @param x the first coordinate
 * @param y the second
 */
public record Point(int x, int y) {
  /** The point one step further along both axes. */
  Point next() {
    return new Point(x + 1, y + 1);
  }

  static Point parse(String s) throws DecodeException {
    String[] parts = s.substring(s.indexOf(':') + 1).trim().split(",");
    try {
      return new Point(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    } catch (RuntimeException e) {
      throw new DecodeException(s, "not a point", e);
    }
  }

  @Override
  public String toString() {
    return x + "," + y;
  }

  /** "x,y" text; willDecode only when there is a comma, so other text goes elsewhere. */
  public static final class TextDecoder implements Decoder.Text<Point> {
    /** For the container. */
    public TextDecoder() {}

    @Override
    public Point decode(String s) throws DecodeException {
      return parse(s);
    }

    @Override
    public boolean willDecode(String s) {
      return s.contains(",");
    }
  }

  /** "x,y" text. */
  public static final class TextEncoder implements Encoder.Text<Point> {
    /** For the container. */
    public TextEncoder() {}

    @Override
    public String encode(Point p) {
      return "point:" + p;
    }
  }

  /** "x,y" read from a Reader. */
  public static final class TextStreamDecoder implements Decoder.TextStream<Point> {
    /** For the container. */
    public TextStreamDecoder() {}

    @Override
    public Point decode(Reader reader) throws DecodeException, IOException {
      StringBuilder sb = new StringBuilder();
      char[] buf = new char[64];
      for (int n; (n = reader.read(buf)) != -1; ) {
        sb.append(buf, 0, n);
      }
      return parse(sb.toString());
    }
  }

  /** "x,y" written to a Writer. */
  public static final class TextStreamEncoder implements Encoder.TextStream<Point> {
    /** For the container. */
    public TextStreamEncoder() {}

    @Override
    public void encode(Point p, Writer writer) throws IOException {
      writer.write("stream-point:" + p);
    }
  }

  /** Two ints; exactly 8 bytes or a DecodeException. */
  public static final class BinaryDecoder implements Decoder.Binary<Point> {
    /** For the container. */
    public BinaryDecoder() {}

    @Override
    public Point decode(ByteBuffer b) throws DecodeException {
      if (b.remaining() != 8) {
        throw new DecodeException(b, "a point is 8 bytes");
      }
      return new Point(b.getInt(), b.getInt());
    }

    @Override
    public boolean willDecode(ByteBuffer b) {
      return true;
    }
  }

  /** Two ints. */
  public static final class BinaryEncoder implements Encoder.Binary<Point> {
    /** For the container. */
    public BinaryEncoder() {}

    @Override
    public ByteBuffer encode(Point p) {
      return ByteBuffer.allocate(8).putInt(p.x).putInt(p.y).flip();
    }
  }

  /** Two ints from a stream. */
  public static final class BinaryStreamDecoder implements Decoder.BinaryStream<Point> {
    /** For the container. */
    public BinaryStreamDecoder() {}

    @Override
    public Point decode(InputStream in) throws DecodeException, IOException {
      DataInputStream data = new DataInputStream(in);
      return new Point(data.readInt(), data.readInt());
    }
  }

  /** Two ints to a stream. */
  public static final class BinaryStreamEncoder implements Encoder.BinaryStream<Point> {
    /** For the container. */
    public BinaryStreamEncoder() {}

    @Override
    public void encode(Point p, OutputStream out) throws EncodeException, IOException {
      out.write(ByteBuffer.allocate(8).putInt(p.x).putInt(p.y).array());
    }
  }

  /** Counts init/destroy calls, so the coder lifecycle of §4.1.2 shows in a transcript. */
  public static final class CountingDecoder implements Decoder.Text<Point> {
    static final java.util.concurrent.atomic.AtomicInteger INITS =
        new java.util.concurrent.atomic.AtomicInteger();
    static final java.util.concurrent.atomic.AtomicInteger DESTROYS =
        new java.util.concurrent.atomic.AtomicInteger();

    /** For the container. */
    public CountingDecoder() {}

    @Override
    public void init(jakarta.websocket.EndpointConfig config) {
      INITS.incrementAndGet();
    }

    @Override
    public void destroy() {
      DESTROYS.incrementAndGet();
    }

    @Override
    public Point decode(String s) throws DecodeException {
      return parse(s);
    }

    @Override
    public boolean willDecode(String s) {
      return true;
    }
  }
}
