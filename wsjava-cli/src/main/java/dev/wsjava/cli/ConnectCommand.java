package dev.wsjava.cli;

import dev.wsjava.CloseCode;
import dev.wsjava.Message;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketClosedException;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.extension.PerMessageDeflate;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code wsjava connect URL}: a WebSocket client for terminals and pipes, in the manner of
 * websocat. Each stdin line is a message; each received text message is a stdout line. At the end
 * of stdin the client lingers (replies may still be on their way), closes with 1000, waits for the
 * server's close and exits 0.
 */
@Command(
    name = "connect",
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Connect to a WebSocket server: stdin lines become text messages (--binary: binary),"
          + " received text messages become stdout lines.",
      "Received binary messages go to stdout as their raw bytes, no newline added (--hex: one"
          + " line of hex each).",
      "At the end of stdin: wait until the server closes or has sent nothing for --linger, then"
          + " close with 1000, wait for the server's close, exit.",
      ""
    },
    footer = {
      "",
      "Exit status: 0 closed normally (1000, or a close without a code), 1 connection or"
          + " handshake failed (the HTTP status is in the message), 2 usage error, 3 closed"
          + " abnormally (code and reason on stderr).",
      "Example: printf 'a\\nb\\n' | wsjava connect ws://127.0.0.1:8080/echo"
    })
public final class ConnectCommand implements Callable<Integer> {
  /** Longest wait for the connection to open, beyond the handshake timeout, before giving up. */
  private static final long CONNECT_GRACE_SECONDS = 5;
  /** Longest wait for the socket to close, beyond the close timeout that bounds it already. */
  private static final long CLOSE_GRACE_MILLIS = 1000;

  @ParentCommand private WsjavaCommand parent;

  @Parameters(index = "0", paramLabel = "URL", description = "ws:// or wss:// URL.")
  private URI url;

  @Option(names = "--binary", description = "Send each stdin line (without its newline) as a binary message.")
  private boolean binary;

  @Option(names = "--hex", description = "Print received binary messages as one line of hex each.")
  private boolean hex;

  @Option(names = "--echo",
      description = "Send every received message straight back (stdin is not read, nothing is"
          + " printed); for testing servers and conformance runners. Each echo is queued before"
          + " the next frame is read, so a frame that fails the connection never overtakes it.")
  private boolean echo;

  @Option(names = "--subprotocol", paramLabel = "NAME", split = ",",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "Offer these subprotocols, in order of preference.")
  private List<String> subprotocols = new ArrayList<>();

  @Option(names = "--deflate", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Offer permessage-deflate (--no-deflate: do not).")
  private boolean deflate;

  @Option(names = "--max-message", paramLabel = "SIZE", defaultValue = "16m",
      converter = Units.SizeConverter.class, description = "Largest message accepted.")
  private long maxMessage;

  @Option(names = "--linger", paramLabel = "DURATION", defaultValue = "1s",
      description = "After the end of stdin, keep reading until the server closes or has sent"
          + " nothing for this long, so that replies still on their way arrive; then close."
          + " 0 closes at once.")
  private Duration linger;

  @Option(names = {"-v", "--verbose"},
      description = "Say on stderr when the connection opens (subprotocol, extensions) and closes.")
  private boolean verbose;

  @Mixin private ClientOptions clientOptions;

  /**
   * Connects, pumps stdin to the server and messages to stdout, and returns the exit status.
   *
   * @return 0, 1 or 3 (see the footer)
   * @throws Exception on an unexpected failure
   */
  @Override
  public Integer call() throws Exception {
    Io io = parent.io();
    URI target = clientOptions.check(url);
    WebSocketConfig config =
        Units.messagesUpTo(WebSocketConfig.builder(), maxMessage)
            .deflate(deflate ? PerMessageDeflate.defaults() : null)
            .subprotocols(subprotocols)
            .build();
    try (WebSocketClient client = clientOptions.client(config, io.err())) {
      Echo echoes = echo ? new Echo() : null;
      WebSocket ws;
      try {
        ws = (echo ? client.connect(target, echoes) : client.connect(target))
            .get(config.handshakeTimeout().toSeconds() + CONNECT_GRACE_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        io.err().println("wsjava connect: cannot connect to " + target + ": "
            + (e instanceof TimeoutException ? "timed out" : Main.describe(e)));
        String hint = ClientOptions.hint(target, e);
        if (hint != null) {
          io.err().println("wsjava connect: hint: " + hint);
        }
        return 1;
      }
      if (verbose) {
        io.err().println("wsjava connect: connected to " + target
            + (ws.subprotocol() == null ? "" : ", subprotocol " + ws.subprotocol())
            + ", extensions " + (ws.extensions().isEmpty() ? "none" : String.join(", ", ws.extensions())));
      }
      WebSocketClosedException closed;
      if (echoes != null) {
        closed = echoes.closed.get();
      } else {
        Thread stdin = new Thread(() -> pumpStdin(io.in(), ws, io.err()), "wsjava-stdin");
        stdin.setDaemon(true); // a read blocked on a terminal must not keep the process alive
        stdin.start();
        closed = receiveUntilClosed(ws, io.out());
      }
      awaitSocketClosed(ws, config);
      return exitStatus(closed, io.err());
    }
  }

  /**
   * Waits until the connection's socket is closed: the close frame this end owes is written
   * (RFC 6455 §5.5.1) and the server has closed TCP, or the close timeout has passed. Leaving
   * before that (closing the client aborts its connections, and the process exits) could cut
   * off the answer to a close the server started.
   */
  private static void awaitSocketClosed(WebSocket ws, WebSocketConfig config)
      throws InterruptedException {
    try {
      ws.closeFuture().get(config.closeTimeout().toMillis() + CLOSE_GRACE_MILLIS,
          TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // the close timeout has aborted it, or will: nothing more to wait for
    }
  }

  /**
   * {@code --echo}: sends each message back from the connection's I/O thread, so the echo is
   * queued before the next frame is parsed (a pull-style echo could lose the race to a frame that
   * fails the connection), and remembers how the connection closed.
   */
  private static final class Echo extends EchoListener {
    final CompletableFuture<WebSocketClosedException> closed = new CompletableFuture<>();

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      closed.complete(new WebSocketClosedException(code, reason));
    }
  }

  /** When the last message arrived ({@link System#nanoTime()}), for {@code --linger}. */
  private volatile long lastReceivedNanos = System.nanoTime();

  /** Prints every message until the connection closes; returns how it closed. */
  private WebSocketClosedException receiveUntilClosed(WebSocket ws, PrintStream out)
      throws InterruptedException {
    while (true) {
      Message m;
      try {
        m = ws.receive();
      } catch (WebSocketClosedException closed) {
        out.flush();
        return closed;
      }
      lastReceivedNanos = System.nanoTime();
      switch (m) {
        case Message.Text t -> {
          byte[] utf8 = t.text().getBytes(StandardCharsets.UTF_8);
          out.write(utf8, 0, utf8.length);
          out.write('\n');
        }
        case Message.Binary b -> {
          ByteBuffer data = b.data();
          if (hex) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            out.print(HexFormat.of().formatHex(bytes));
            out.write('\n');
          } else {
            out.write(data.array(), data.arrayOffset() + data.position(), data.remaining());
          }
        }
      }
      out.flush();
    }
  }

  private int exitStatus(WebSocketClosedException closed, PrintStream err) {
    int code = closed.code();
    if (code == CloseCode.NORMAL || code == CloseCode.NO_STATUS) {
      if (verbose) {
        err.println("wsjava connect: closed normally (" + code + ")");
      }
      return 0;
    }
    err.println("wsjava connect: connection closed abnormally: " + code
        + (closed.reason().isEmpty() ? "" : " " + closed.reason()));
    return 3;
  }

  /** Sends stdin, line by line, then closes with 1000. Runs on its own thread. */
  private void pumpStdin(InputStream in, WebSocket ws, PrintStream err) {
    Sender sender = new Sender();
    try (BufferedInputStream input = new BufferedInputStream(in)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int c;
      boolean pending = false;
      while ((c = input.read()) >= 0) {
        if (c == '\n') {
          if (!sendLine(sender, ws, line)) {
            return;
          }
          line.reset();
          pending = false;
        } else {
          line.write(c);
          pending = true;
        }
      }
      if (pending && !sendLine(sender, ws, line)) {
        return;
      }
      sender.flush();
      linger(ws);
      if (ws.isOpen()) {
        ws.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      err.println("wsjava connect: reading stdin failed: " + e.getMessage());
      if (ws.isOpen()) {
        ws.close(CloseCode.GOING_AWAY, "client input failed");
      }
    }
  }

  /**
   * {@code --linger}: returns once the server has closed, or has sent nothing for the linger
   * time since the end of stdin or its last message, whichever is later.
   */
  private void linger(WebSocket ws) throws InterruptedException {
    long quietSince = System.nanoTime();
    while (ws.isOpen()) {
      long since = Math.max(quietSince, lastReceivedNanos);
      long left = linger.toNanos() - (System.nanoTime() - since);
      if (left <= 0) {
        return;
      }
      try {
        ws.closeFuture().get(left, TimeUnit.NANOSECONDS);
        return;
      } catch (TimeoutException e) {
        // quiet for the time asked, unless a message came meanwhile: look again
      } catch (ExecutionException e) {
        return;
      }
    }
  }

  /** Sends one line; false when the connection is closed (nothing more to send). */
  private boolean sendLine(Sender sender, WebSocket ws, ByteArrayOutputStream line)
      throws InterruptedException {
    if (binary) {
      byte[] bytes = line.toByteArray();
      return sender.send(() -> ws.sendBinary(bytes));
    }
    String text = line.toString(StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1); // a CRLF line from Windows or a terminal
    }
    String message = text;
    return sender.send(() -> ws.sendText(message));
  }

  /**
   * Sends without waiting for each write, but waits for earlier writes when the send queue is
   * full, so a fast pipe neither blocks per line nor overruns the queue.
   */
  private static final class Sender {
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

    boolean send(Supplier<CompletableFuture<Void>> send) throws InterruptedException {
      while (true) {
        CompletableFuture<Void> f;
        try {
          f = send.get();
        } catch (IllegalStateException closed) {
          return false;
        }
        if (!f.isCompletedExceptionally()) {
          last = f;
          return true;
        }
        if (!Futures.refusedFull(f)) {
          return false; // closed meanwhile
        }
        if (last.isDone()) {
          Thread.sleep(1); // the queue holds other bytes (an echo's, a pong): give it a moment
        } else {
          flush();
        }
      }
    }

    void flush() {
      last.exceptionally(e -> null).join();
    }
  }
}
