package dev.wsjava.cli;

import dev.wsjava.HandshakeDecision;
import dev.wsjava.HandshakeRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may join {@code /chat} under {@code serve --token} or {@code --basic-auth}: a bearer token
 * ({@code Authorization: Bearer T}, or {@code ?token=T} since browsers cannot set headers on a
 * WebSocket) or a user and password ({@code Authorization: Basic}). The identity becomes the
 * member's nickname; anyone else gets 401 with the matching {@code WWW-Authenticate}. Immutable.
 */
final class ChatAuth {
  private final Map<String, String> tokens; // token -> name
  private final Map<String, String> passwords; // user -> password

  private ChatAuth(Map<String, String> tokens, Map<String, String> passwords) {
    this.tokens = tokens;
    this.passwords = passwords;
  }

  /**
   * Reads the options.
   *
   * @param tokens {@code NAME=TOKEN} each
   * @param users {@code USER:PASSWORD} each
   * @return the authenticator, or null when both are empty
   * @throws IllegalArgumentException for a malformed option
   */
  static ChatAuth of(List<String> tokens, List<String> users) {
    if (tokens.isEmpty() && users.isEmpty()) {
      return null;
    }
    Map<String, String> t = new LinkedHashMap<>();
    for (String s : tokens) {
      int eq = s.indexOf('=');
      if (eq <= 0 || eq == s.length() - 1) {
        throw new IllegalArgumentException("--token takes NAME=TOKEN, was " + s);
      }
      t.put(s.substring(eq + 1), s.substring(0, eq));
    }
    Map<String, String> p = new LinkedHashMap<>();
    for (String s : users) {
      int colon = s.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("--basic-auth takes USER:PASSWORD, was " + s);
      }
      p.put(s.substring(0, colon), s.substring(colon + 1));
    }
    return new ChatAuth(Map.copyOf(t), Map.copyOf(p));
  }

  /** The page's marker that {@link #page} fills in. */
  static final String PAGE_MARKER = "<meta name=\"wsjava-chat-auth\" content=\"\">";

  /**
   * The page with what {@code /chat} asks for filled in ({@code token}, {@code basic} or both), so
   * that its chat asks for that instead of a nickname; unchanged without authentication.
   *
   * @param html the page, with {@link #PAGE_MARKER} in it
   * @param auth the authenticator, or null
   * @return the page to serve
   */
  static String page(String html, ChatAuth auth) {
    if (!html.contains(PAGE_MARKER)) {
      throw new IllegalStateException("the page lacks " + PAGE_MARKER + " (a broken build?)");
    }
    if (auth == null) {
      return html;
    }
    String mode = (auth.tokens.isEmpty() ? "" : "token ") + (auth.passwords.isEmpty() ? "" : "basic");
    return html.replace(PAGE_MARKER, PAGE_MARKER.replace("content=\"\"", "content=\"" + mode.strip() + "\""));
  }

  /** What the banner says of {@code /chat}: how to present oneself, since that names the member. */
  String howToJoin() {
    if (passwords.isEmpty()) {
      return "chat (?token=TOKEN or Authorization: Bearer TOKEN)";
    }
    return tokens.isEmpty() ? "chat (Authorization: Basic)" : "chat (?token=TOKEN, Bearer or Basic)";
  }

  /** The hook's decision for an upgrade to {@code /chat}. */
  HandshakeDecision decide(HandshakeRequest req) {
    String user = identify(req);
    if (user != null) {
      return HandshakeDecision.accept().attach(user);
    }
    return HandshakeDecision.reject(401)
        .header(
            "WWW-Authenticate",
            passwords.isEmpty() ? "Bearer realm=\"wsjava chat\"" : "Basic realm=\"wsjava chat\"")
        .body("/chat needs " + (passwords.isEmpty() ? "a token (?token= or Bearer)" : "a user and password") + "\n");
  }

  /** The authenticated name, or null. */
  String identify(HandshakeRequest req) {
    String authorization = req.header("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      String decoded;
      try {
        decoded =
            new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException malformed) {
        return null;
      }
      int colon = decoded.indexOf(':');
      if (colon > 0) {
        String user = decoded.substring(0, colon);
        String expected = passwords.get(user);
        if (expected != null && same(expected, decoded.substring(colon + 1))) {
          return user;
        }
      }
      return null;
    }
    String token =
        authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
            ? authorization.substring(7).strip()
            : req.queryParam("token");
    if (token == null) {
      return null;
    }
    for (Map.Entry<String, String> e : tokens.entrySet()) {
      if (same(e.getKey(), token)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** Compares secrets in time that does not depend on where they differ. */
  private static boolean same(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
