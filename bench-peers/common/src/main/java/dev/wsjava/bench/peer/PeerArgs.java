package dev.wsjava.bench.peer;

/**
 * The command line every echo server peer takes: {@code PORT [--deflate]}, and the line it prints
 * once it listens ({@code READY PORT}). Peers listen on 127.0.0.1, serve the echo at {@code /echo}
 * and, where the library can, {@code GET /} answering 200 {@code text/plain} "hello".
 *
 * @param port the port to listen on
 * @param deflate whether to accept permessage-deflate
 */
public record PeerArgs(int port, boolean deflate) {
  /** The WebSocket echo path. */
  public static final String ECHO_PATH = "/echo";
  /** The body of {@code GET /}. */
  public static final String HELLO = "hello";
  /** The largest message a peer accepts: 16 MiB, above the suite's largest (1 MiB). */
  public static final int MAX_MESSAGE = 16 << 20;

  /**
   * Parses {@code PORT [--deflate]}.
   *
   * @param args the command line
   * @return the arguments
   */
  public static PeerArgs parse(String[] args) {
    if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--deflate"))) {
      throw new IllegalArgumentException("usage: PORT [--deflate]");
    }
    return new PeerArgs(Integer.parseInt(args[0]), args.length == 2);
  }

  /**
   * Tells the suite the server listens: prints {@code READY PORT} and flushes.
   *
   * @param detail what to add after the port (for example the transport), or empty
   */
  public void ready(String detail) {
    System.out.println("READY " + port + (detail.isEmpty() ? "" : " " + detail));
    System.out.flush();
  }
}
