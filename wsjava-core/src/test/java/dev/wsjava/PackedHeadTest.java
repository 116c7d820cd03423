package dev.wsjava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wsjava.handshake.HttpHead;
import org.junit.jupiter.api.Test;

class PackedHeadTest {
  private static HttpHead.Request request(String target, Headers headers) {
    return new HttpHead.Request("GET", target, "HTTP/1.1", headers);
  }

  @Test
  void aPlainUpgradeRoundTripsAndPacksSmall() {
    Headers h =
        Headers.builder()
            .add("Host", "127.0.0.1:8080")
            .add("Upgrade", "websocket")
            .add("Connection", "Upgrade")
            .add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
            .add("Sec-WebSocket-Version", "13")
            .build();
    byte[] packed = PackedHead.pack(request("/echo", h));
    assertEquals("GET", PackedHead.method(packed));
    assertEquals("/echo", PackedHead.target(packed));
    assertEquals("HTTP/1.1", PackedHead.version(packed));
    assertEquals(h, PackedHead.headers(packed));
    // Known strings take one byte each, the key 17: the host and the target are most of the rest.
    // The three fields every upgrade repeats take one byte each: 47 bytes, a 64-byte array.
    assertTrue(packed.length <= 47, "packed into " + packed.length + " bytes");
  }

  @Test
  void wholeFieldCodesKeepOrderCaseAndNearMisses() {
    Headers h =
        Headers.builder()
            .add("connection", "keep-alive, Upgrade")
            .add("Connection", "keep-alive, Upgrade")
            .add("sec-websocket-version", "13")
            .add("Upgrade", "WebSocket") // not the usual spelling: packed as strings
            .add("Sec-WebSocket-Version", "8")
            .add("upgrade", "websocket")
            .add("connection", "upgrade")
            .build();
    byte[] packed = PackedHead.pack(request("/", h));
    assertEquals(h, PackedHead.headers(packed));
    assertEquals("/", PackedHead.target(packed));
  }

  @Test
  void keysThatAreNotCanonicalBase64AndManyFieldsRoundTrip() {
    Headers.Builder b =
        Headers.builder()
            .add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZR==") // last digit's low bits set
            .add("X-Key", "not base64 at all here==")
            .add("X-Key", "dGhlIHNhbXBsZSBub25jZQ==");
    for (int i = 0; i < 300; i++) {
      b.add("X-" + i, Integer.toString(i));
    }
    Headers h = b.build();
    byte[] packed = PackedHead.pack(request("/", h));
    assertEquals(h, PackedHead.headers(packed));
    assertEquals(303, PackedHead.headers(packed).size());
  }

  @Test
  void longUnknownAndLatin1StringsRoundTrip() {
    String big = "x".repeat(300);
    Headers h =
        Headers.builder()
            .add("X-Long", big)
            .add("X-Latin", "caf\u00e9")
            .add("cookie", "a=1; b=2")
            .build();
    byte[] packed =
        PackedHead.pack(new HttpHead.Request("OPTIONS", "/r?q=" + big, "HTTP/1.0", h));
    assertEquals("OPTIONS", PackedHead.method(packed));
    assertEquals("/r?q=" + big, PackedHead.target(packed));
    assertEquals("HTTP/1.0", PackedHead.version(packed));
    assertEquals(h, PackedHead.headers(packed));
  }

  @Test
  void aHeadWithoutFieldsRoundTrips() {
    byte[] packed = PackedHead.pack(request("/", Headers.empty()));
    assertEquals("/", PackedHead.target(packed));
    assertEquals(0, PackedHead.headers(packed).size());
  }

  @Test
  void aCharacterBeyondLatin1IsNotPacked() {
    // The builder may refuse it; a head from elsewhere could still carry one.
    Headers h = new Headers(new String[] {"X-Name"}, new String[] {"\u20ac"}, 1);
    assertNull(PackedHead.pack(request("/", h)));
  }
}
