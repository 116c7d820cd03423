package dev.wsjava;

import dev.wsjava.handshake.HttpStatus;
import java.util.Objects;

/**
 * What a server's handshake hook decided about one upgrade (see {@link
 * WebSocketServer.Builder#onHandshake}): accept, possibly choosing the subprotocol, adding fields to
 * the 101 (for example {@code Set-Cookie}) and attaching per-connection state; or reject with any
 * status from 300 to 599, fields and a body (401 with {@code WWW-Authenticate}, 403, 429 with
 * {@code Retry-After}).
 *
 * <pre>{@code
 * .onHandshake(req -> {
 *   User user = sessions.find(req.cookie("session"));
 *   return user == null
 *       ? HandshakeDecision.reject(401).header("WWW-Authenticate", "Cookie realm=\"chat\"")
 *       : HandshakeDecision.accept().attach(user);
 * })
 * }</pre>
 *
 * <p>Immutable and thread-safe: each method returns a new decision.
 */
public final class HandshakeDecision {
  private static final HandshakeDecision ACCEPT =
      new HandshakeDecision(HttpStatus.SWITCHING_PROTOCOLS, false, null, Headers.empty(), null, null, false);

  private final int status;
  private final boolean choosesSubprotocol;
  private final String subprotocol;
  private final Headers headers;
  private final Object attachment;
  private final String body;
  private final boolean declinesExtensions;

  private HandshakeDecision(
      int status,
      boolean choosesSubprotocol,
      String subprotocol,
      Headers headers,
      Object attachment,
      String body,
      boolean declinesExtensions) {
    this.declinesExtensions = declinesExtensions;
    this.status = status;
    this.choosesSubprotocol = choosesSubprotocol;
    this.subprotocol = subprotocol;
    this.headers = headers;
    this.attachment = attachment;
    this.body = body;
  }

  /**
   * Accepts the upgrade as negotiated: the server's subprotocol choice, no extra field, no
   * attachment.
   *
   * @return the acceptance
   */
  public static HandshakeDecision accept() {
    return ACCEPT;
  }

  /**
   * Rejects the upgrade with this status; the connection closes once the response is written.
   *
   * @param status 300 to 599, for example 401, 403 or 429
   * @return the rejection, with a short body naming the status unless {@link #body} says more
   * @throws IllegalArgumentException for a status outside 300-599
   */
  public static HandshakeDecision reject(int status) {
    if (status < 300 || status > 599) {
      throw new IllegalArgumentException("a rejection status must be 300 to 599: " + status);
    }
    return new HandshakeDecision(status, false, null, Headers.empty(), null, null, false);
  }

  /**
   * Chooses the subprotocol of an acceptance, in place of the server's choice.
   *
   * @param value one the client offered ({@link HandshakeRequest#subprotocols()}), or null for none;
   *     another is answered 500 (RFC 6455 §4.2.2)
   * @return the new decision
   * @throws IllegalStateException on a rejection
   */
  public HandshakeDecision subprotocol(String value) {
    requireAccept("a subprotocol");
    return new HandshakeDecision(status, true, value, headers, attachment, body, declinesExtensions);
  }

  /**
   * Adds a header field to the response: the 101 of an acceptance ({@code Set-Cookie}), or the
   * rejection ({@code WWW-Authenticate}, {@code Retry-After}). Fields the handshake writes itself
   * ({@code Upgrade}, {@code Connection}, {@code Sec-WebSocket-*} on an acceptance; {@code
   * Connection}, {@code Content-Length}, {@code Content-Type}, {@code Transfer-Encoding} on a
   * rejection) make the server answer 500 instead.
   *
   * @param name a field name (a token)
   * @param value a field value
   * @return the new decision
   * @throws IllegalArgumentException when the name or value is malformed
   */
  public HandshakeDecision header(String name, String value) {
    Headers more = headers.toBuilder().add(name, value).build();
    return new HandshakeDecision(
        status, choosesSubprotocol, subprotocol, more, attachment, body, declinesExtensions);
  }

  /**
   * Attaches per-connection state to an acceptance: the opened socket returns it from {@link
   * WebSocket#attachment()} in every callback (a user, a session).
   *
   * @param value the state, or null
   * @return the new decision
   * @throws IllegalStateException on a rejection
   */
  public HandshakeDecision attach(Object value) {
    requireAccept("an attachment");
    return new HandshakeDecision(
        status, choosesSubprotocol, subprotocol, headers, value, body, declinesExtensions);
  }

  /**
   * Sets the body of a rejection, sent as {@code text/plain; charset=utf-8}.
   *
   * @param text the body
   * @return the new decision
   * @throws IllegalStateException on an acceptance
   */
  public HandshakeDecision body(String text) {
    if (isAccepted()) {
      throw new IllegalStateException("an acceptance has no body: it is answered 101");
    }
    return new HandshakeDecision(
        status, false, null, headers, null, Objects.requireNonNull(text, "text"), false);
  }

  /**
   * Declines every extension the server would negotiate for this upgrade (permessage-deflate):
   * the 101 names none and the connection uses none, as RFC 6455 §9.1 lets a server answer any
   * offer. For a connection whose peer compresses poorly, or an API whose application decides the
   * extensions (Jakarta WebSocket's configurator).
   *
   * @return the new decision
   * @throws IllegalStateException on a rejection
   */
  public HandshakeDecision withoutExtensions() {
    requireAccept("extensions");
    return new HandshakeDecision(status, choosesSubprotocol, subprotocol, headers, attachment, body, true);
  }

  /** Whether this acceptance declines the negotiated extensions ({@link #withoutExtensions}). */
  boolean declinesExtensions() {
    return declinesExtensions;
  }

  private void requireAccept(String what) {
    if (!isAccepted()) {
      throw new IllegalStateException("a rejection (" + status + ") carries no " + what);
    }
  }

  /**
   * Returns whether this accepts the upgrade.
   *
   * @return true for {@link #accept()} and what was made from it
   */
  public boolean isAccepted() {
    return status == HttpStatus.SWITCHING_PROTOCOLS;
  }

  /**
   * Returns the status answered.
   *
   * @return 101 for an acceptance, else the rejection's status
   */
  public int status() {
    return status;
  }

  /**
   * Returns the extra header fields.
   *
   * @return the fields, possibly empty
   */
  public Headers headers() {
    return headers;
  }

  /**
   * Returns the attachment.
   *
   * @return the state attached, or null
   */
  public Object attachment() {
    return attachment;
  }

  /**
   * Returns the body of a rejection.
   *
   * @return the body, or null for the default
   */
  public String body() {
    return body;
  }

  /** Whether the subprotocol was chosen here (else the server's selector's choice stands). */
  boolean choosesSubprotocol() {
    return choosesSubprotocol;
  }

  /** The chosen subprotocol, when {@link #choosesSubprotocol()}. */
  String chosenSubprotocol() {
    return subprotocol;
  }

  @Override
  public String toString() {
    return isAccepted()
        ? "HandshakeDecision[accept" + (choosesSubprotocol ? ", subprotocol=" + subprotocol : "")
            + ", " + headers.size() + " fields]"
        : "HandshakeDecision[reject " + status + ", " + headers.size() + " fields]";
  }
}
