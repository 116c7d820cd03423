package dev.wsjava.internal.http;

import dev.wsjava.http.HttpResponse;
import static dev.wsjava.internal.http.HttpWire.drain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.session.MemoryBudget;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Plain HTTP request bodies are inside the memory budget: held bodies are charged until their
 * request is answered, and when the budget has no room the connection stops consuming (the rest
 * of the body waits in the caller's buffer, so the transport stops reading and TCP slows the
 * client) instead of refusing the request. Sans-I/O, on a budget whose clock the test holds.
 */
class HttpBodyMemoryTest {
  static final int KIB = 1024;

  final MemoryBudget budget = new MemoryBudget(256 * KIB, Duration.ofSeconds(10), () -> 0L);
  final MemoryBudget.Account account = budget.open();
  /** The body the handler saw, and the budget's use while it ran. */
  final AtomicReference<byte[]> seen = new AtomicReference<>();
  long reservedDuringHandler = -1;

  final Router<String> router =
      Router.<String>builder()
          .route("POST", "/upload", r -> {
            ByteBuffer b = r.body();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            seen.set(a);
            reservedDuringHandler = budget.reserved();
            return HttpResponse.text(200, "got " + a.length);
          })
          .build();

  final HttpConnection<String> http = new HttpConnection<>(router, HttpLimits.defaults(), 0);

  HttpBodyMemoryTest() {
    http.chargeMemoryTo(account::charge, account::release);
  }

  static byte[] body(int n) {
    byte[] b = new byte[n];
    new SplittableRandom(n).nextBytes(b);
    return b;
  }

  static ByteBuffer request(String head, byte[] body) {
    byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
    return ByteBuffer.allocate(h.length + body.length).put(h).put(body).flip();
  }

  static String post(int length) {
    return "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: " + length + "\r\n\r\n";
  }

  @Test
  void aBodyIsChargedWhileHeldAndGivenBackOnceAnswered() {
    byte[] body = body(100 * KIB);
    ByteBuffer in = request(post(body.length), body);
    ByteBuffer first = in.duplicate().limit(in.position() + 60 * KIB);
    assertThat(http.receive(first, 0)).isNull();
    assertThat(first.hasRemaining()).isFalse();
    assertThat(budget.reserved()).as("the body so far is held and charged").isPositive();
    in.position(first.position());
    assertThat(http.receive(in, 0)).isNull();
    assertThat(seen.get()).isEqualTo(body);
    assertThat(reservedDuringHandler).as("charged while the handler ran").isGreaterThanOrEqualTo(body.length);
    assertThat(budget.reserved()).as("given back once answered").isZero();
    assertThat(drain(http)).startsWith("HTTP/1.1 200 OK").endsWith("got " + body.length);
  }

  @Test
  void aSpentBudgetLeavesTheRestOfTheBodyUnreadInsteadOfRefusingIt() {
    MemoryBudget.Account other = budget.open();
    assertThat(other.charge(192 * KIB)).isTrue(); // others hold three quarters
    byte[] body = body(200 * KIB);
    ByteBuffer in = request(post(body.length), body);

    assertThat(http.receive(in, 0)).isNull();
    assertThat(http.stalledFor()).as("waits for memory").isPositive();
    assertThat(in.remaining())
        .as("an announced length is charged whole before a byte is taken: the body stays unread")
        .isEqualTo(body.length);
    assertThat(http.hasOutbound()).as("nothing refused, nothing answered yet").isFalse();
    assertThat(budget.reserved()).as("within the budget").isLessThanOrEqualTo(budget.capacity());

    int left = in.remaining();
    assertThat(http.receive(in, 0)).isNull();
    assertThat(in.remaining()).as("fed again with no room: still waits").isEqualTo(left);

    other.release(192 * KIB);
    assertThat(http.receive(in, 0)).isNull();
    assertThat(http.stalledFor()).isZero();
    assertThat(in.hasRemaining()).isFalse();
    assertThat(seen.get()).as("the whole body, intact").isEqualTo(body);
    assertThat(drain(http)).startsWith("HTTP/1.1 200 OK");
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void aChunkedBodyWaitsForMemoryTheSameWay() {
    MemoryBudget.Account other = budget.open();
    assertThat(other.charge(224 * KIB)).isTrue();
    byte[] body = body(96 * KIB);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    wire.writeBytes(
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1));
    for (int off = 0; off < body.length; off += 16 * KIB) {
      wire.writeBytes((Integer.toHexString(16 * KIB) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      wire.write(body, off, 16 * KIB);
      wire.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    wire.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    ByteBuffer in = ByteBuffer.wrap(wire.toByteArray());

    assertThat(http.receive(in, 0)).isNull();
    assertThat(http.stalledFor()).isPositive();
    assertThat(in.hasRemaining()).isTrue();
    assertThat(seen.get()).isNull();

    other.release(224 * KIB);
    assertThat(http.receive(in, 0)).isNull();
    assertThat(in.hasRemaining()).isFalse();
    assertThat(seen.get()).isEqualTo(body);
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void aClientThatLeavesInsideABodyGivesItsMemoryBack() {
    byte[] body = body(100 * KIB);
    ByteBuffer in = request(post(2 * body.length), body);
    assertThat(http.receive(in, 0)).isNull();
    assertThat(budget.reserved()).isPositive();
    http.receiveEnd();
    assertThat(budget.reserved()).isZero();
    assertThat(seen.get()).isNull();
    assertThat(http.shouldClose()).isTrue();
  }
}
