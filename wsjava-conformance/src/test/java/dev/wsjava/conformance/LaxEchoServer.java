package dev.wsjava.conformance;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A deliberately broken echo server on raw sockets, to show that the judge can fail a peer: it
 * echoes whatever it can read (reserved bits, reserved opcodes, invalid UTF-8 alike) and, in
 * {@link Flaw#MASKS_ITS_FRAMES}, masks what it sends, which a server must not do.
 */
final class LaxEchoServer implements AutoCloseable {

  enum Flaw {
    /** Accepts everything and echoes it. */
    ACCEPTS_EVERYTHING,
    /** Also masks its own frames (RFC 6455 §5.1 forbids it for a server). */
    MASKS_ITS_FRAMES,
    /** Never answers a close frame. */
    IGNORES_CLOSE,
    /** Checks UTF-8, but only once a text message is complete (then fails it with 1007). */
    CHECKS_UTF8_AT_THE_END,
    /**
     * Accepts permessage-deflate offers as they are, but compresses with context takeover even
     * where it granted server_no_context_takeover.
     */
    KEEPS_CONTEXT_IT_PROMISED_TO_DROP
  }

  private final ServerSocket listener;
  private final Flaw flaw;

  LaxEchoServer(Flaw flaw) throws IOException {
    this.flaw = flaw;
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(this::acceptLoop);
  }

  URI uri() {
    return URI.create("ws://127.0.0.1:" + listener.getLocalPort() + "/echo");
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket s = listener.accept();
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        return;
      }
    }
  }

  private Compression compression;

  private void serve(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      HttpHead head = HttpHead.read(in);
      String extension = "";
      compression = null;
      List<DeflateParameters> offers =
          DeflateParameters.parse(head.header("Sec-WebSocket-Extensions"), true);
      if (flaw == Flaw.KEEPS_CONTEXT_IT_PROMISED_TO_DROP && !offers.isEmpty()) {
        DeflateParameters o = offers.get(0);
        DeflateParameters granted = new DeflateParameters(o.serverNoContextTakeover(),
            o.clientNoContextTakeover(), o.serverMaxWindowBits(), DeflateParameters.ABSENT);
        extension = "Sec-WebSocket-Extensions: " + granted.element() + "\r\n";
        compression = new Compression(granted, false, 15, false);
      }
      out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: " + HttpHead.accept(head.header("Sec-WebSocket-Key"))
          + "\r\n" + extension + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      FrameReader frames = new FrameReader(in, 1 << 24);
      ByteArrayOutputStream message = null;
      int opcode = 0;
      boolean compressed = false;
      WireFrame f;
      while ((f = frames.next()) != null) {
        switch (f.opcode()) {
          case Frame.CLOSE -> {
            if (flaw != Flaw.IGNORES_CLOSE) {
              send(out, Frame.close(f.payload().length >= 2 ? Cases.slice(f.payload(), 0, 2)
                  : new byte[0]));
              return;
            }
          }
          case Frame.PING -> send(out, Frame.pong(f.payload()));
          case Frame.PONG -> { }
          default -> {
            if (f.opcode() != Frame.CONTINUATION || message == null) {
              message = new ByteArrayOutputStream();
              opcode = f.opcode() == Frame.CONTINUATION ? Frame.TEXT : f.opcode();
              compressed = compression != null && (f.rsv() & 4) != 0;
            }
            message.writeBytes(f.payload());
            if (f.fin()) {
              if (flaw == Flaw.CHECKS_UTF8_AT_THE_END && opcode == Frame.TEXT
                  && !Utf8Check.isValid(message.toByteArray())) {
                send(out, Frame.close(1007, "invalid UTF-8"));
                return;
              }
              if (compressed) {
                byte[] plain = compression.decompress(message.toByteArray(), 1 << 24);
                send(out, Frame.of(opcode, compression.compress(plain)).rsv(4));
              } else {
                send(out, Frame.of(opcode, message.toByteArray()));
              }
              message = null;
            }
          }
        }
      }
    } catch (IOException | java.util.zip.DataFormatException e) {
      // the suite closed the connection
    }
  }

  private void send(OutputStream out, Frame f) throws IOException {
    out.write(Frames.encode(f, flaw == Flaw.MASKS_ITS_FRAMES, 0x12345678));
    out.flush();
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
