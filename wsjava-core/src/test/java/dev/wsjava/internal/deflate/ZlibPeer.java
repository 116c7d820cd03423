package dev.wsjava.internal.deflate;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: Python's zlib (the C library every other stack uses) as a permessage-deflate peer,
 * through {@code zlib_peer.py} on stdin and stdout. Its inflater is strict about the window: a
 * back-reference farther than 2^N bytes fails. Its compressor makes zlib's own stream at a window
 * of 2^N bytes, for comparison. One process serves many calls; not thread-safe.
 */
final class ZlibPeer implements AutoCloseable {
  /** What zlib answered instead of the bytes: its error message. */
  static final class ZlibError extends Exception {
    private static final long serialVersionUID = 1L;

    ZlibError(String message) {
      super(message);
    }
  }

  private final Process process;
  private final DataOutputStream in;
  private final DataInputStream out;

  private ZlibPeer(Process process) {
    this.process = process;
    this.in = new DataOutputStream(process.getOutputStream());
    this.out = new DataInputStream(process.getInputStream());
  }

  /**
   * Starts the helper with the first Python 3 found: {@code /usr/bin/python3}, else {@code
   * python3} on the PATH.
   *
   * @return the running peer
   * @throws IllegalStateException naming what to install when there is no Python 3
   */
  static ZlibPeer start() throws IOException {
    Path script;
    try {
      script = Path.of(ZlibPeer.class.getResource("zlib_peer.py").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    IOException last = null;
    for (String python : List.of("/usr/bin/python3", "python3")) {
      if (python.startsWith("/") && !new File(python).canExecute()) {
        continue;
      }
      try {
        Process p = new ProcessBuilder(python, script.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
        return new ZlibPeer(p);
      } catch (IOException e) {
        last = e;
      }
    }
    throw new IllegalStateException("these tests check our DEFLATE streams with zlib through"
        + " Python 3, and found none (neither /usr/bin/python3 nor python3 on the PATH):"
        + " install python3", last);
  }

  /**
   * Starts a fresh inflater, as a peer does for a new stream or after each message without
   * context takeover.
   *
   * @param windowBits N, 8 to 15
   */
  void startInflater(int windowBits) throws IOException, ZlibError {
    call('I', new byte[] {(byte) windowBits});
  }

  /**
   * Inflates one message strictly within the window.
   *
   * @param payload the message's frame payloads joined, as sent (trailer removed)
   * @return the message
   * @throws ZlibError with zlib's message, for example {@code invalid distance too far back}
   */
  byte[] inflate(byte[] payload) throws IOException, ZlibError {
    return call('M', payload);
  }

  /**
   * Starts zlib's compressor: raw DEFLATE, a window of 2^N bytes.
   *
   * @param windowBits N, 9 to 15 (zlib refuses 8 for raw DEFLATE)
   * @param level 0 to 9
   */
  void startCompressor(int windowBits, int level) throws IOException, ZlibError {
    call('C', new byte[] {(byte) windowBits, (byte) level});
  }

  /**
   * Compresses one message as RFC 7692 §7.2.1 says: sync flush, {@code 00 00 ff ff} removed.
   *
   * @param message the message
   * @return the payload
   */
  byte[] compress(byte[] message) throws IOException, ZlibError {
    return call('D', message);
  }

  private byte[] call(char op, byte[] body) throws IOException, ZlibError {
    in.writeByte(op);
    in.writeInt(body.length);
    in.write(body);
    in.flush();
    int kind = out.readUnsignedByte();
    byte[] answer = new byte[out.readInt()];
    out.readFully(answer);
    if (kind == 'E') {
      throw new ZlibError(new String(answer, StandardCharsets.UTF_8));
    }
    return answer;
  }

  @Override
  public void close() throws IOException {
    in.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
