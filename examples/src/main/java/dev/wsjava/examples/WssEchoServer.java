package dev.wsjava.examples;

import dev.wsjava.TlsContexts;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import dev.wsjava.WebSocketServer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An echo server over wss:// with a self-signed certificate for localhost, made by the JDK's
 * keytool at start (or a PKCS12 key store given as argument, password "changeit").
 *
 * <p>Run: {@code examples/run WssEchoServer [PORT [server.p12]]} (port 8443 by default), then
 * connect to wss://localhost:PORT/echo, for example with {@code ./wsjava connect --insecure
 * wss://localhost:8443/echo} (browsers: accept the warning once on https://localhost:8443/).
 */
public final class WssEchoServer {
  private WssEchoServer() {}

  /**
   * Starts the server and runs until interrupted.
   *
   * @param args optionally the port (default 8443), then the path of a PKCS12 key store
   * @throws Exception when the certificate or the server cannot be made
   */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8443;
    Path store = args.length > 1 ? Path.of(args[1]) : selfSigned();
    WebSocketServer server = WebSocketServer.builder()
        .bind("localhost", port)
        .tls(TlsContexts.fromPkcs12(store, "changeit".toCharArray()))
        .websocket("/echo", new WebSocketListener() {
          @Override public void onText(WebSocket ws, String text) {
            ws.sendText(text);
            slowDownIfBehind(ws);
          }

          @Override public void onBinary(WebSocket ws, ByteBuffer data) {
            ws.sendBinary(data);
            slowDownIfBehind(ws);
          }
        })
        .start();
    System.out.println("echo at wss://localhost:" + server.port() + "/echo (key store " + store + ")");
    Thread.currentThread().join();
  }

  /**
   * Flow control: a client that sends faster than it reads its echoes is slowed down by TCP, not
   * cut off. Once 256 KiB of echoes wait, this connection is not read until they are written.
   */
  static void slowDownIfBehind(WebSocket ws) {
    if (ws.queuedBytes() >= 256 * 1024) {
      ws.pauseReadingUntilSent();
    }
  }

  /** Makes a development certificate for localhost with keytool; never use one in production. */
  private static Path selfSigned() throws Exception {
    Path store = Files.createTempDirectory("wsjava-example").resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server",
            "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "30", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", store.toString(), "-storepass", "changeit")
        .inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("keytool failed");
    }
    return store;
  }
}
