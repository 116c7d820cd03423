package dev.wsjava.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.java_websocket.WebSocket;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.client.WebSocketClient;
import org.java_websocket.drafts.Draft;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.enums.Opcode;
import org.java_websocket.extensions.IExtension;
import org.java_websocket.extensions.permessage_deflate.PerMessageDeflateExtension;
import org.java_websocket.framing.Framedata;
import org.java_websocket.framing.PingFrame;
import org.java_websocket.handshake.ServerHandshake;
import org.java_websocket.protocols.IProtocol;
import org.java_websocket.protocols.Protocol;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Java-WebSocket 1.6's client against our server, with and without its PerMessageDeflateExtension.
 */
class JavaWebSocketClientAgainstOurServerTest extends PeerClientAgainstOurServer {

  @Override
  List<Boolean> clientDeflate() {
    return List.of(false, true);
  }

  /**
   * Not always: in Java-WebSocket 1.6.0 the reading thread ends the connection as soon as it has
   * queued its answer to a close, and interrupts the writing thread. That thread checks
   * {@code Thread.interrupted()} at the top of its loop and, if the interrupt lands between two
   * writes, leaves without writing what is queued (only an interrupt inside {@code take()} drains
   * the queue), then closes the socket. Seen in about 1 of 20 server-initiated closes here; read
   * in the bytecode of {@code WebSocketClient$WebsocketWriteThread.runWriteData}.
   *
   * <p>Its own close can be lost the same way: the reading thread loops on {@code !isClosing() &&
   * !isClosed() && read(...) != -1}, so a {@code close()} made while that thread is still inside
   * {@code decode} (right after {@code onOpen}, say) ends the loop, and {@code eot()} closes the
   * connection and interrupts the writer, which may not have written the close frame yet. Our
   * server then sees TCP end without a close frame and reports 1006 (about 1 run in 5 under load
   * here, blocking transport with deflate; read in the bytecode of {@code WebSocketClient.run}).
   */
  @Override
  boolean alwaysAnswersClose() {
    return false;
  }

  @Override
  PeerClient connect(URI uri, boolean deflate, List<String> subprotocols) throws Exception {
    List<IExtension> extensions = deflate ? List.of(new PerMessageDeflateExtension()) : List.of();
    List<IProtocol> protocols = new ArrayList<>();
    for (String p : subprotocols) {
      protocols.add(new Protocol(p));
    }
    if (protocols.isEmpty()) {
      protocols.add(new Protocol("")); // Java-WebSocket's way of saying "none"
    }
    Jws c = new Jws(uri, new Draft_6455(extensions, protocols));
    c.setConnectionLostTimeout(0); // no background pings of its own
    assertThat(c.connectBlocking(Interop.WAIT_SECONDS, TimeUnit.SECONDS)).as("connected").isTrue();
    c.opened.get(Interop.WAIT_SECONDS, TimeUnit.SECONDS);
    return c;
  }

  static final class Jws extends WebSocketClient implements PeerClient {
    final Recorder inbox = new Recorder();
    final CompletableFuture<ServerHandshake> opened = new CompletableFuture<>();

    Jws(URI uri, Draft_6455 draft) {
      super(uri, draft);
    }

    @Override
    public Recorder inbox() {
      return inbox;
    }

    @Override
    public void sendBinary(byte[] data) {
      send(data);
    }

    @Override
    public void sendText(String text) {
      send(text);
    }

    @Override
    public String subprotocol() {
      String p = getProtocol() == null ? "" : getProtocol().getProvidedProtocol();
      return p.isEmpty() ? null : p;
    }

    @Override
    public Boolean deflateNegotiated() {
      // getDraft() is the template the client was made with; the connection negotiates a copy.
      Draft draft = ((WebSocketImpl) getConnection()).getDraft();
      return ((Draft_6455) draft).getExtension() instanceof PerMessageDeflateExtension;
    }

    @Override
    public void abort() {
      if (!isClosed()) {
        closeConnection(1006, "test over");
      }
    }

    @Override
    public void onOpen(ServerHandshake handshake) {
      opened.complete(handshake);
    }

    @Override
    public void onMessage(String message) {
      inbox.messages.add(message);
    }

    @Override
    public void onMessage(ByteBuffer bytes) {
      byte[] b = new byte[bytes.remaining()];
      bytes.get(b);
      inbox.messages.add(b);
    }

    @Override
    public void onWebsocketPong(WebSocket conn, Framedata f) {
      inbox.pongs.add(StandardCharsets.UTF_8.decode(f.getPayloadData()).toString());
    }

    @Override
    public void onClose(int code, String reason, boolean remote) {
      inbox.closed.complete(code + " " + reason);
    }

    @Override
    public void onError(Exception ex) {
      inbox.errors.add(ex);
      opened.completeExceptionally(ex);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void javaWebSocketFragmentsSplittingAUtf8SequenceArriveAsOneMessage(Setup s) throws Exception {
    Jws c = (Jws) open(s);
    // RFC 6455 section 5.6: a text message is UTF-8 as a whole, so a code point may straddle
    // fragments. The euro sign's three bytes are cut 1 | 2 between two continuation frames.
    byte[] euro = Interop.utf8("€");
    c.sendFragmentedFrame(Opcode.TEXT, ByteBuffer.wrap(Interop.utf8("Hé")), false);
    c.sendFragmentedFrame(Opcode.TEXT, ByteBuffer.wrap(euro, 0, 1), false);
    c.sendFragmentedFrame(Opcode.TEXT, ByteBuffer.wrap(new byte[] {euro[1], euro[2], '!'}), true);
    assertThat(c.inbox().nextText()).isEqualTo("Hé€!");

    // Each fragment in an array of its own: Java-WebSocket 1.6.0's PerMessageDeflateExtension
    // .encodeFrame compresses getPayloadData().array() whole, ignoring the buffer's offset and
    // limit, so ByteBuffer.wrap(data, 70_000, 130_000) would put all 200 000 bytes on the wire
    // again (a peer bug: our server and Jetty both faithfully inflate 400 000 bytes then).
    byte[] data = Interop.binary(200_000);
    c.sendFragmentedFrame(Opcode.BINARY, ByteBuffer.wrap(Arrays.copyOfRange(data, 0, 70_000)), false);
    c.sendFragmentedFrame(Opcode.BINARY, ByteBuffer.wrap(Arrays.copyOfRange(data, 70_000, 200_000)), true);
    Interop.assertSameBytes(c.inbox().nextBinary(), data, "fragmented binary");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("setups")
  void javaWebSocketPingGetsOurPongWithTheSameData(Setup s) throws Exception {
    Jws c = (Jws) open(s);
    PingFrame ping = new PingFrame();
    ping.setPayload(ByteBuffer.wrap(Interop.utf8("are you there?")));
    c.sendFrame(ping);
    assertThat(c.inbox().nextPong()).isEqualTo("are you there?");
  }
}
