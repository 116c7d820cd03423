package dev.wsjava.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code wsjava aot-training}: the workload the {@code ./wsjava} launcher trains its JDK 25
 * ahead-of-time cache with (JEP 483, 514, 515): {@code wsjava serve} with its defaults on a free
 * loopback port, and a raw client in this process that drives the paths a deployed server runs
 * hot: small binary and text echoes pipelined and one at a time, 64 KiB echoes, and the HTTP page.
 * The JVM records which classes were loaded and linked, and the method profiles, when this
 * command exits; a server started with that cache skips the loading and compiles its hot methods
 * sooner. Hidden: a launcher's tool, not a user's command. Bounded: a few seconds.
 */
@Command(name = "aot-training", hidden = true,
    description = "Run a short loopback echo workload (the launcher's ahead-of-time cache training).")
final class AotTrainingCommand implements Callable<Integer> {
  @ParentCommand private WsjavaCommand parent;

  @Option(names = "--messages", paramLabel = "N", defaultValue = "300000",
      description = "Small pipelined echoes to run (the bulk of the workload).")
  private int messages;

  @Override
  public Integer call() throws Exception {
    Io quiet = new Io(InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()),
        parent.io().err(), false);
    CommandLine.ParseResult parsed =
        Main.commandLine(quiet).parseArgs("serve", "--port", "0", "--host", "127.0.0.1");
    ServeCommand serve = parsed.subcommand().commandSpec().commandLine().getCommand();
    long start = System.nanoTime();
    try (ServeCommand.Running running = serve.start()) {
      int port = running.port();
      page(port);
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setTcpNoDelay(true);
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        upgrade(in, out);
        echo(in, out, 0x2, 300, messages, 64);
        echo(in, out, 0x1, 300, messages / 10, 64);
        echo(in, out, 0x2, 32, 2_000, 1);
        echo(in, out, 0x2, 64 * 1024, 400, 4);
        out.write(new byte[] {(byte) 0x88, (byte) 0x82, 0, 0, 0, 0, 0x03, (byte) 0xe8});
        out.flush();
      }
    }
    parent.io().err().printf("wsjava aot-training: %d echoes in %d ms%n",
        messages + messages / 10 + 2_400, (System.nanoTime() - start) / 1_000_000);
    return 0;
  }

  private static void page(int port) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      s.getInputStream().readAllBytes();
    }
  }

  private static void upgrade(InputStream in, OutputStream out) throws IOException {
    out.write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed during the upgrade: " + head);
      }
      head.write(b);
      matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    if (!head.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 101")) {
      throw new IOException("the server refused the upgrade: " + head);
    }
  }

  /**
   * Sends {@code count} masked frames of {@code size} ASCII bytes, {@code window} at a time, and
   * reads each batch's echoes back (unmasked frames of the same size).
   */
  private static void echo(InputStream in, OutputStream out, int opcode, int size, int count,
      int window) throws IOException {
    byte[] frame = frame(opcode, size);
    int echoHeader = size < 126 ? 2 : size < 65_536 ? 4 : 10;
    byte[] batch = new byte[frame.length * window];
    for (int i = 0; i < window; i++) {
      System.arraycopy(frame, 0, batch, i * frame.length, frame.length);
    }
    byte[] sink = new byte[(echoHeader + size) * window];
    for (int sent = 0; sent < count; sent += window) {
      int n = Math.min(window, count - sent);
      out.write(batch, 0, n * frame.length);
      out.flush();
      int want = n * (echoHeader + size);
      for (int got = 0; got < want; ) {
        int r = in.read(sink, 0, Math.min(sink.length, want - got));
        if (r < 0) {
          throw new IOException("the server closed after " + (sent + got / (echoHeader + size))
              + " echoes");
        }
        got += r;
      }
    }
  }

  /** One client frame: FIN, the opcode, masked with the key 0 (a valid key), ASCII payload. */
  private static byte[] frame(int opcode, int size) {
    int header = size < 126 ? 6 : size < 65_536 ? 8 : 14;
    byte[] f = new byte[header + size];
    f[0] = (byte) (0x80 | opcode);
    if (size < 126) {
      f[1] = (byte) (0x80 | size);
    } else if (size < 65_536) {
      f[1] = (byte) (0x80 | 126);
      f[2] = (byte) (size >>> 8);
      f[3] = (byte) size;
    } else {
      f[1] = (byte) (0x80 | 127);
      for (int i = 0; i < 8; i++) {
        f[2 + i] = (byte) ((long) size >>> (56 - 8 * i));
      }
    }
    for (int i = header; i < f.length; i++) {
      f[i] = (byte) ('a' + i % 26);
    }
    return f;
  }
}
