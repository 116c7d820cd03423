package dev.wsjava.bench.e2e;

import dev.wsjava.bench.peer.EchoPayload;
import dev.wsjava.bench.peer.Workload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One connection of the raw load client (RFC 6455 client side, the least a load generator needs):
 * the opening handshake (§4.1) with the accept key checked, masked frames (§5.3) encoded straight
 * into the socket buffer in one pass, a window of messages in flight, and every echo parsed and
 * checked against {@link EchoPayload} as its bytes arrive, so a 1 MiB echo is never buffered.
 *
 * <p>Masks come from a {@link SplittableRandom} seeded per connection: fine for a load generator on
 * loopback, not the unpredictable source RFC 6455 §5.3 asks of a browser. Single-threaded: owned by
 * the {@link LoadClient}'s selector thread.
 */
final class RawConnection {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int MAX_HEADER = 14;

  /** Where a connection stands. */
  enum State { CONNECTING, HANDSHAKE, OPEN, FAILED }

  private final SocketChannel channel;
  private final Workload workload;
  private final EchoPayload payload;
  private final LoadStats stats;
  private final String hostHeader;
  private final String path;
  private final String key;
  private final SplittableRandom random;
  private final long[] sentAt;
  private SelectionKey selectionKey;
  private ByteBuffer out;
  private ByteBuffer in;
  private State state = State.CONNECTING;
  private String failure;
  private ClientDeflate deflate;
  private byte[] scratch;

  // Sending.
  private boolean sending;
  private long nextSeq;
  private int inFlight;
  private boolean encoding;
  private long encSeq;
  private byte[] encBody;
  private int encLength;
  private int encOffset;
  private int mask;

  // Receiving.
  private long expectSeq;
  private boolean inFrame;
  private long frameRemaining;
  private boolean frameFin;
  private boolean inMessage;
  private boolean compressed;
  private int messageOffset;
  private byte[] compressedBody = new byte[0];

  RawConnection(SocketChannel channel, Workload workload, LoadStats stats, String host, int port,
      String path, long seed) {
    this.channel = channel;
    this.workload = workload;
    this.payload = EchoPayload.of(workload.size(), workload.text());
    this.stats = stats;
    this.hostHeader = host + ":" + port;
    this.path = path;
    this.random = new SplittableRandom(seed);
    byte[] nonce = new byte[16];
    random.nextBytes(nonce);
    this.key = Base64.getEncoder().encodeToString(nonce);
    // Without a window nothing bounds the messages in flight: no send times are kept (round trips
    // are queueing there), one slot only.
    this.sentAt = new long[workload.windowless() ? 1 : workload.window()];
    // Small buffers until traffic starts: 10,000 idle connections must stay cheap for the client.
    this.in = ByteBuffer.allocateDirect(4096);
    this.out = ByteBuffer.allocateDirect(4096);
  }

  State state() {
    return state;
  }

  String failure() {
    return failure;
  }

  int inFlight() {
    return inFlight;
  }

  void attach(SelectionKey k) {
    this.selectionKey = k;
  }

  /** Completes the TCP connect and sends the upgrade request. */
  void onConnectable() throws IOException {
    if (!channel.finishConnect()) {
      return;
    }
    state = State.HANDSHAKE;
    StringBuilder req = new StringBuilder(256)
        .append("GET ").append(path).append(" HTTP/1.1\r\n")
        .append("Host: ").append(hostHeader).append("\r\n")
        .append("Upgrade: websocket\r\n")
        .append("Connection: Upgrade\r\n")
        .append("Sec-WebSocket-Key: ").append(key).append("\r\n")
        .append("Sec-WebSocket-Version: 13\r\n");
    if (workload.deflate()) {
      req.append("Sec-WebSocket-Extensions: ").append(ClientDeflate.OFFER).append("\r\n");
    }
    req.append("\r\n");
    out.put(req.toString().getBytes(StandardCharsets.US_ASCII));
    selectionKey.interestOps(SelectionKey.OP_READ);
    flush();
  }

  /** Starts keeping the window full (buffers grow to the workload's needs first). */
  void startSending() throws IOException {
    int frame = (int) Math.min(256 << 10, (long) workload.size() + MAX_HEADER);
    int size = (int) Math.max(4096, Math.min(256 << 10, (long) frame * workload.window()));
    if (out.capacity() < size) {
      ByteBuffer bigger = ByteBuffer.allocateDirect(size);
      out.flip();
      bigger.put(out);
      out = bigger;
    }
    int inSize = workload.size() > 4096 ? 256 << 10 : Math.max(16 << 10, 2 * size);
    if (in.capacity() < inSize) {
      ByteBuffer bigger = ByteBuffer.allocateDirect(inSize);
      in.flip();
      bigger.put(in);
      in = bigger;
    }
    sending = true;
    flush();
  }

  /** Stops starting new messages; those in flight still come back. */
  void stopSending() {
    sending = false;
  }

  /** Reads what arrived and handles it; may send more. */
  void onReadable() throws IOException {
    int n = channel.read(in);
    if (n < 0) {
      fail(state == State.OPEN ? "the server closed the connection" : "closed during the handshake");
      return;
    }
    stats.read(n);
    in.flip();
    try {
      if (state == State.HANDSHAKE) {
        handshake();
      }
      if (state == State.OPEN) {
        parse();
      }
    } finally {
      in.compact();
    }
    if (state == State.OPEN && sending) {
      flush();
    }
  }

  /** Writes what is pending and fills the window. */
  void flush() throws IOException {
    while (state != State.FAILED) {
      if (state == State.OPEN) {
        encode();
      }
      out.flip();
      int n = 0;
      if (out.hasRemaining()) {
        n = channel.write(out);
        if (state == State.OPEN) {
          stats.written(n);
        }
      }
      boolean left = out.hasRemaining();
      out.compact();
      if (left) {
        selectionKey.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        return;
      }
      if (n == 0 || !(encoding || (sending && inFlight < workload.window()))) {
        selectionKey.interestOps(SelectionKey.OP_READ);
        return;
      }
    }
  }

  /** Sends a close frame (1000) if it fits and closes the socket. */
  void close() {
    try {
      if (state == State.OPEN && !encoding && out.remaining() >= 8) {
        out.put((byte) 0x88).put((byte) 0x82).putInt(0).putShort((short) 1000);
        out.flip();
        channel.write(out);
      }
    } catch (IOException ignored) {
      // the server went first
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing left to do
    }
    if (deflate != null) {
      deflate.end();
    }
  }

  void fail(String why) {
    if (state != State.FAILED) {
      state = State.FAILED;
      failure = why;
      stats.failed(why);
      try {
        channel.close();
      } catch (IOException ignored) {
        // already failing
      }
    }
  }

  // ---- handshake (RFC 6455 §4.1, §4.2.2) ----

  private void handshake() {
    int end = -1;
    for (int i = in.position(); i + 3 < in.limit(); i++) {
      if (in.get(i) == '\r' && in.get(i + 1) == '\n' && in.get(i + 2) == '\r' && in.get(i + 3) == '\n') {
        end = i + 4;
        break;
      }
    }
    if (end < 0) {
      if (in.limit() == in.capacity()) {
        fail("handshake response longer than " + in.capacity() + " bytes");
      }
      return;
    }
    byte[] head = new byte[end - in.position()];
    in.get(head);
    String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
    if (!lines[0].startsWith("HTTP/1.1 101")) {
      fail("handshake refused: " + lines[0]);
      return;
    }
    String accept = null;
    String extensions = null;
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = lines[i].substring(colon + 1).trim();
      if (name.equals("sec-websocket-accept")) {
        accept = value;
      } else if (name.equals("sec-websocket-extensions")) {
        extensions = extensions == null ? value : extensions + ", " + value;
      }
    }
    if (!acceptFor(key).equals(accept)) {
      fail("wrong Sec-WebSocket-Accept: " + accept);
      return;
    }
    try {
      deflate = ClientDeflate.fromResponse(extensions);
    } catch (RuntimeException e) {
      fail(e.getMessage());
      return;
    }
    if (workload.deflate() && deflate == null) {
      fail("the server did not accept permessage-deflate");
      return;
    }
    if (!workload.deflate() && deflate != null) {
      fail("the server answered an extension that was not offered: " + extensions);
      return;
    }
    state = State.OPEN;
    stats.opened();
  }

  /**
   * Computes {@code Sec-WebSocket-Accept} for a key (RFC 6455 §4.2.2).
   *
   * @param key the client's nonce
   * @return base64 of SHA-1 of key + GUID
   */
  static String acceptFor(String key) {
    try {
      byte[] sha1 = MessageDigest.getInstance("SHA-1")
          .digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- sending (RFC 6455 §5.2, §5.3) ----

  private void encode() {
    while (true) {
      if (!encoding) {
        if (!sending || inFlight >= workload.window() || out.remaining() < MAX_HEADER) {
          return;
        }
        startFrame();
      }
      int n = Math.min(out.remaining(), encLength - encOffset);
      if (n == 0) {
        return;
      }
      int pos = out.position();
      if (encBody != null) {
        out.put(encBody, encOffset, n);
      } else {
        payload.copy(encSeq, encOffset, out, n);
      }
      mask(out, pos, n, mask, encOffset & 3);
      encOffset += n;
      if (encOffset == encLength) {
        encoding = false;
      }
    }
  }

  private void startFrame() {
    encSeq = nextSeq++;
    inFlight++;
    if (!workload.windowless()) {
      sentAt[(int) (encSeq % sentAt.length)] = System.nanoTime();
    }
    int b0 = 0x80 | (workload.text() ? 1 : 2);
    if (deflate != null) {
      if (scratch == null) {
        scratch = new byte[workload.size()];
      }
      payload.fill(encSeq, scratch);
      encBody = deflate.compress(scratch);
      encLength = encBody.length;
      b0 |= 0x40; // RSV1: a compressed message (RFC 7692 §6)
    } else {
      encBody = null;
      encLength = workload.size();
    }
    out.put((byte) b0);
    if (encLength < 126) {
      out.put((byte) (0x80 | encLength));
    } else if (encLength < 65536) {
      out.put((byte) (0x80 | 126)).putShort((short) encLength);
    } else {
      out.put((byte) (0x80 | 127)).putLong(encLength);
    }
    mask = random.nextInt();
    out.putInt(mask);
    encOffset = 0;
    encoding = true;
  }

  /**
   * XORs {@code n} bytes at {@code pos} with the mask (RFC 6455 §5.3), eight at a time.
   *
   * @param buf the buffer
   * @param pos where the bytes start
   * @param n how many
   * @param mask the 4-byte key, big-endian
   * @param phase the key index of the first byte (payload offset mod 4)
   */
  static void mask(ByteBuffer buf, int pos, int n, int mask, int phase) {
    int rotated = Integer.rotateLeft(mask, 8 * phase);
    long wide = ((long) rotated << 32) | (rotated & 0xffffffffL);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      buf.putLong(pos + i, buf.getLong(pos + i) ^ wide);
    }
    for (; i < n; i++) {
      buf.put(pos + i, (byte) (buf.get(pos + i) ^ (rotated >>> (24 - 8 * (i & 3)))));
    }
  }

  // ---- receiving (RFC 6455 §5.2) ----

  private void parse() {
    while (state == State.OPEN) {
      if (!inFrame) {
        if (!header()) {
          return;
        }
        continue;
      }
      int n = (int) Math.min(in.remaining(), frameRemaining);
      if (n == 0 && frameRemaining > 0) {
        return;
      }
      if (compressed) {
        int have = messageOffset;
        if (have + n > compressedBody.length) {
          compressedBody = Arrays.copyOf(compressedBody, Math.max(have + n, compressedBody.length * 2));
        }
        in.get(compressedBody, have, n);
      } else {
        if (messageOffset + n > workload.size()) {
          fail("echo " + expectSeq + " is longer than " + workload.size() + " bytes");
          return;
        }
        int bad = payload.check(expectSeq, messageOffset, in, n);
        if (bad >= 0) {
          fail("echo " + expectSeq + " is wrong at byte " + bad + carries(n));
          return;
        }
      }
      messageOffset += n;
      frameRemaining -= n;
      if (frameRemaining == 0) {
        inFrame = false;
        if (frameFin) {
          messageDone();
        }
      }
    }
  }

  /**
   * What a wrong binary echo carries where its sequence number belongs, when its first eight bytes
   * are in hand: tells a reordered, repeated or lost echo (another message's number) from bytes
   * corrupted in place.
   */
  private String carries(int n) {
    if (workload.text() || messageOffset != 0 || n < 8) {
      return "";
    }
    long seq = in.getLong(in.position() - n); // check() moved past the bytes it checked
    return " (it carries sequence number " + seq + ", " + (seq - expectSeq >= 0 ? "+" : "")
        + (seq - expectSeq) + ")";
  }

  /** Parses a frame header; false when more bytes are needed (nothing consumed then). */
  private boolean header() {
    int start = in.position();
    if (in.remaining() < 2) {
      return false;
    }
    int b0 = in.get(start) & 0xff;
    int b1 = in.get(start + 1) & 0xff;
    int len7 = b1 & 0x7f;
    int headerLength = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0);
    if (in.remaining() < headerLength) {
      return false;
    }
    long length = len7 == 126 ? in.getShort(start + 2) & 0xffff : len7 == 127 ? in.getLong(start + 2) : len7;
    if ((b1 & 0x80) != 0) {
      fail("a masked frame from the server (RFC 6455 §5.1)");
      return false;
    }
    if ((b0 & 0x30) != 0 || ((b0 & 0x40) != 0 && deflate == null)) {
      fail("reserved bits set without an extension: 0x" + Integer.toHexString(b0));
      return false;
    }
    int opcode = b0 & 0x0f;
    boolean fin = (b0 & 0x80) != 0;
    if (opcode >= 8) {
      if (in.remaining() < headerLength + length) {
        return false;
      }
      in.position(start + headerLength + (int) length);
      if (opcode == 8) {
        int code = length >= 2 ? in.getShort(start + headerLength) & 0xffff : 1005;
        fail("the server closed the connection with " + code);
      }
      return state == State.OPEN; // ping and pong: nothing to do for a short run
    }
    in.position(start + headerLength);
    if (length < 0 || length > Integer.MAX_VALUE) {
      fail("frame length out of range: " + length);
      return false;
    }
    if (opcode == 0) {
      if (!inMessage) {
        fail("a continuation frame outside a message");
        return false;
      }
      if ((b0 & 0x40) != 0) {
        fail("RSV1 on a continuation frame (RFC 7692 §6)");
        return false;
      }
    } else {
      if (inMessage) {
        fail("a new message inside a fragmented one");
        return false;
      }
      if ((opcode == 1) != workload.text() || opcode > 2) {
        fail("echo " + expectSeq + " came back with opcode " + opcode);
        return false;
      }
      if (expectSeq >= nextSeq) {
        fail("a message nobody sent");
        return false;
      }
      inMessage = true;
      compressed = (b0 & 0x40) != 0;
      messageOffset = 0;
    }
    inFrame = true;
    frameRemaining = length;
    frameFin = fin;
    return true;
  }

  private void messageDone() {
    if (compressed) {
      byte[] message;
      try {
        message = deflate.decompress(compressedBody, messageOffset, workload.size() * 2 + 1024);
      } catch (IllegalStateException e) {
        fail(e.getMessage());
        return;
      }
      int bad = payload.checkWhole(expectSeq, ByteBuffer.wrap(message));
      if (bad >= 0) {
        fail("echo " + expectSeq + " is wrong at byte " + bad + " after inflating");
        return;
      }
    } else if (messageOffset != workload.size()) {
      fail("echo " + expectSeq + " has " + messageOffset + " bytes, not " + workload.size());
      return;
    }
    long rtt = workload.windowless() ? 0 : System.nanoTime() - sentAt[(int) (expectSeq % sentAt.length)];
    stats.echoed(workload.size(), rtt);
    expectSeq++;
    inFlight--;
    inMessage = false;
  }
}
