package dev.wsjava;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The resume tokens of {@link Topics} (docs/TOPICS.md, "Resuming every subscription"): a token
 * names the topics a connection was subscribed to and when it stops being valid, signed with a key
 * every node shares (HMAC-SHA256, cut to 16 bytes), so that any node can check it without asking
 * the one that issued it, which may be dead.
 *
 * <p>Form: {@code base64url(payload) "." base64url(mac)}, payload {@code "1\n" expiresMillis
 * ("\n" topic)*}, UTF-8. Thread-safe: a {@link Mac} per call.
 */
final class ResumeTokens {
  /** The most topics one token names: a connection in more gets no token. */
  static final int MAX_TOPICS = 64;
  /** The longest token, in characters: one in a URL's query stays well inside request limits. */
  static final int MAX_TOKEN_CHARS = 4096;

  private static final int MAC_BYTES = 16;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final SecretKeySpec key;
  private final Duration window;
  private final LongSupplier millis;

  /** Checked by {@link Topics.Builder#resume}: at least 16 bytes of key, a positive window. */
  ResumeTokens(byte[] key, Duration window, LongSupplier millis) {
    this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    this.window = window;
    this.millis = millis;
  }

  Duration window() {
    return window;
  }

  /**
   * A token for {@code topics}, valid for the window from now; null when there are more than
   * {@link #MAX_TOPICS}, one holds a newline, or it would be longer than {@link
   * #MAX_TOKEN_CHARS}.
   */
  String issue(Collection<String> topics) {
    if (topics.size() > MAX_TOPICS) {
      return null;
    }
    StringBuilder payload = new StringBuilder("1\n").append(millis.getAsLong() + window.toMillis());
    for (String t : topics) {
      if (t.indexOf('\n') >= 0) {
        return null; // a line per topic: such a name cannot be carried
      }
      payload.append('\n').append(t);
    }
    byte[] p = payload.toString().getBytes(StandardCharsets.UTF_8);
    String token = B64.encodeToString(p) + "." + B64.encodeToString(mac(p));
    return token.length() <= MAX_TOKEN_CHARS ? token : null;
  }

  /**
   * The topics a token names, or null when it is not one of ours (bad form or signature) or has
   * expired.
   */
  List<String> verify(String token) {
    if (token == null || token.length() > MAX_TOKEN_CHARS) {
      return null;
    }
    int dot = token.indexOf('.');
    if (dot < 0) {
      return null;
    }
    byte[] p;
    byte[] sig;
    try {
      p = B64D.decode(token.substring(0, dot));
      sig = B64D.decode(token.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (!MessageDigest.isEqual(sig, mac(p))) {
      return null;
    }
    String[] lines = new String(p, StandardCharsets.UTF_8).split("\n", -1);
    if (lines.length < 2 || !lines[0].equals("1")) {
      return null;
    }
    long expires;
    try {
      expires = Long.parseLong(lines[1]);
    } catch (NumberFormatException e) {
      return null;
    }
    if (millis.getAsLong() > expires) {
      return null;
    }
    List<String> topics = new ArrayList<>(lines.length - 2);
    for (int i = 2; i < lines.length; i++) {
      topics.add(lines[i]);
    }
    return topics;
  }

  /**
   * The client's offsets: lines {@code "<id> <topic>"} (the first line of the last message it saw
   * on each topic), by topic; lines that are not of that form are ignored. At most {@link
   * #MAX_TOPICS} are read.
   */
  static Map<String, String> offsets(String text) {
    Map<String, String> byTopic = new LinkedHashMap<>();
    if (text == null) {
      return byTopic;
    }
    for (String line : text.split("\n")) {
      int sp = line.indexOf(' ');
      if (sp > 0 && sp < line.length() - 1 && byTopic.size() < MAX_TOPICS) {
        byTopic.put(line.substring(sp + 1), line.substring(0, sp));
      }
    }
    return byTopic;
  }

  private byte[] mac(byte[] payload) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      byte[] full = m.doFinal(payload);
      byte[] cut = new byte[MAC_BYTES];
      System.arraycopy(full, 0, cut, 0, MAC_BYTES);
      return cut;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
