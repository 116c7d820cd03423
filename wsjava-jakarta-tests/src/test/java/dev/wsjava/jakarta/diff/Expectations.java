package dev.wsjava.jakarta.diff;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The documented expectations: for each case where Tomcat and Jetty disagree (or both depart from
 * the spec), what wsjava must show and why. docs/JAKARTA-DIFFERENTIAL.md gives the same list in
 * prose. An expectation starting with {@code ~} is a regular expression over the transcript: used
 * where the spec leaves a detail open (a close reason's text, whether onError also hears of a
 * protocol error) and both readings are right.
 */
final class Expectations {
  private Expectations() {}

  /** A documented expectation. */
  record Expect(String value, String why) {
    boolean matches(String seen) {
      if (seen == null) {
        return false;
      }
      return value.startsWith("~") ? Pattern.matches(value.substring(1), seen) : value.equals(seen);
    }
  }

  private static Expect e(String value, String why) {
    return new Expect(value, why);
  }

  /** By case id (client cases: the id without the "@server" suffix). */
  static final Map<String, Expect> BY_CASE = Map.ofEntries(
      Map.entry("S05", e("status=426;version=13", "follows Tomcat: RFC 6455 4.4 answers an"
          + " unsupported version with 426 and the versions it supports; Jetty lets the request"
          + " fall through to the servlet (404)")),
      Map.entry("S32", e("TEXT:one-var:a b | CLOSE:1000", "follows Tomcat: a path parameter is"
          + " the decoded segment (a level-1 URI template expansion percent-encodes, so matching"
          + " decodes); Jetty hands over the raw %20")),
      Map.entry("S33", e("status=404", "follows Jetty: §3.1.1 says the empty string is not a"
          + " valid level-1 expansion, so /uri/ matches no /uri/{x}; Tomcat matches x=\"\"")),
      Map.entry("S35", e("status=101 | server[open:a=hello, error:DecodeException]", "follows"
          + " Tomcat: §4.3 says a path segment the container cannot convert raises a"
          + " DecodeException to the endpoint's error method; Jetty refuses the upgrade with 500")),
      Map.entry("S44", e("TEXT:bytes=100000 | CLOSE:1000", "follows Jetty: an InputStream"
          + " message is streamed, not buffered, so the buffer size does not bound it; Tomcat"
          + " applies its 8 KiB binary buffer limit and closes 1009")),
      Map.entry("S54", e("TEXT:point:2,2 | CLOSE:1000 | server[open, error:DecodeException,"
          + " close:1000]", "neither: a text no decoder will take is the application's problem,"
          + " reported to onError as a DecodeException (§4.1.3, §5.2.2) while the session stays"
          + " open; Tomcat closes with 1002 (a protocol error the peer did not commit), Jetty drops"
          + " the message silently")),
      Map.entry("S55", e("TEXT:point:6,6 | CLOSE:1000 | server[open, error:DecodeException,"
          + " close:1000]", "follows Tomcat: a DecodeException goes to onError (§5.2.2) and the"
          + " session stays open for the next message; Jetty also closes with 1003")),
      Map.entry("S58", e("BIN:len8 | CLOSE:1000 | server[open, error:DecodeException,"
          + " close:1000]", "as S55, for a binary decoder")),
      Map.entry("S61", e("TEXT:2 | CLOSE:1000 | server[open, error:DecodeException,"
          + " close:1000]", "follows Tomcat: text that does not convert to the primitive"
          + " parameter is a DecodeException to onError; Jetty drops the message silently")),
      Map.entry("S71", e("TEXT:a2,TEXT:ok=true;session=true | CLOSE:1000", "follows Tomcat:"
          + " SendResult.getSession() is new in 2.2 and returns the sending session; Jetty returns"
          + " another object or null")),
      Map.entry("S74", e("TEXT:plain | CLOSE:1000", "follows Jetty: RemoteEndpoint.sendObject"
          + " sends a String with no encoder as a text message; Tomcat sends nothing")),
      Map.entry("S86", e("~CLOSE:4000:reason \\| server\\[open, close:4000:(bye)?\\]", "either:"
          + " Tomcat gives onClose the reason the endpoint closed with, Jetty the reason in the"
          + " peer's answer (RFC 6455 7.1.6 reads the latter); the code is 4000 in both")),
      Map.entry("S89", e("~CLOSE:(empty|1000) \\| server\\[open, close:1005:\\]", "follows Jetty:"
          + " a close frame with no status is reported as 1005 (RFC 6455 7.1.5,"
          + " CloseCodes.NO_STATUS_CODE); Tomcat reports 1000. The answer may be empty or 1000")),
      Map.entry("S91", e("~CLOSE:1000 \\| send-after-close:(IllegalStateException|IOException)",
          "either exception: Tomcat throws IllegalStateException, Jetty IOException")),
      Map.entry("S92", e("~TEXT:idle=300 \\| CLOSE:1001:reason \\| server\\[open,"
          + " (error:[^,]*, )?close:1001:.*\\]", "follows Jetty: the container closes an idle"
          + " session with 1001 on the wire (both do) and tells onClose the same code; Tomcat tells"
          + " onClose 1006 although it sent 1001")),
      Map.entry("S93", e("~TEXT:still \\| CLOSE:1000 \\| server\\[open, error:IllegalStateException,"
          + " close:1000:\\]|CLOSE:1011(:reason)? \\| (EOF|TIMEOUT) \\| server\\[open, error:IllegalStateException,"
          + " close:1011:[^,]*\\]", "either Tomcat's reading or a 1011: an exception from @OnMessage"
          + " goes to @OnError once (§5.2.2); Tomcat then keeps the session open, Jetty closes it"
          + " with 1003. Closing with 1011 (RFC 6455 7.4.1) is accepted too, with onClose told"
          + " 1011")),
      Map.entry("S94", e("~TEXT:still \\| CLOSE:1000 \\| server\\[open, error:IOException,"
          + " close:1000:\\]|CLOSE:1011(:reason)? \\| (EOF|TIMEOUT) \\| server\\[open, error:IOException,"
          + " close:1011:[^,]*\\]", "as S93, for a checked exception")),
      Map.entry("S47", e("~TEXT:parts=\\[ab\\](\\[\\])? \\| CLOSE:1000", "either: Tomcat and Jetty"
          + " deliver the empty final frame as an empty last part; a container may also deliver"
          + " \"ab\" as the last part when it already has the empty final frame (part boundaries"
          + " are the container's, §4.7)")),
      Map.entry("S66", e("~TIMEOUT \\| server\\[open\\]|CLOSE:1003 \\| server\\[open, close:1003\\]",
          "either: Tomcat and Jetty drop a binary message the endpoint has no method for and keep"
          + " the session; closing with 1003 (RFC 6455 7.4.1: data it cannot accept) is accepted")),
      Map.entry("S88", e("~CLOSE:1001(:reason)? \\| server\\[open, close:1001:going\\]", "either:"
          + " the answer may repeat the reason (Tomcat, Jetty) or carry the code alone (RFC 6455"
          + " 5.5.1); onClose sees the client's reason")),
      Map.entry("C09", e("~open,close:4001:(cx)? \\| server\\[open, close:4001:cx\\]", "as S86 on"
          + " the client: Tomcat's client tells onClose its own reason, Jetty's the server's"
          + " answer")),
      Map.entry("S95", e("~CLOSE:1011(:reason)? \\| server\\[open, close:1011\\]", "neither: an"
          + " exception no @OnError handles closes the session with 1011 (RFC 6455 7.4.1, an"
          + " unexpected condition in the server); Tomcat logs it and keeps the session open,"
          + " Jetty closes with 1003")),
      Map.entry("S96", e("~status=101 \\| CLOSE:1011(:reason)? \\| server\\[open, error:[^,]*"
          + "IllegalStateException, close:1011\\]", "follows Jetty: an exception in @OnOpen goes"
          + " to onError and closes with 1011; Tomcat closes with 1002 and tells onClose 1006")),
      Map.entry("S112", e("~CLOSE:100[27] \\| server\\[open, close:100[27]\\]", "either: a close"
          + " reason that is not UTF-8 fails the connection (RFC 6455 8.1); Tomcat says 1002,"
          + " Jetty 1007")),
      Map.entry("S113", e("~server\\[open, (error:[^,]*, )?close:1002\\]", "either: Jetty also"
          + " reports a protocol error to onError, Tomcat only to onClose; §5.2.3 lets the"
          + " container decide")),
      Map.entry("S114", e("~server\\[open, (error:[^,]*, )*close:1009\\]",
          "either: Jetty reports the 1009 to onError as well (twice, MessageTooLargeException),"
          + " Tomcat only to onClose")),
      Map.entry("S115", e("absent=null", "follows Tomcat: HandshakeRequest.getHeaders() has no"
          + " entry for a header the request did not carry; Jetty answers an empty list")),
      Map.entry("C08", e("open,close:4000:bye | open=false", "follows Tomcat's client: once"
          + " onClose has run, Session.isOpen() is false; Jetty's client still says true")),
      Map.entry("C12", e("~open,(error:[^,]*,)*close:1009", "either: Jetty's"
          + " client reports the 1009 to onError as well, Tomcat's only to onClose")),
      Map.entry("C15", e("~open,(error:[^,]*,)?close:100[16] \\| server\\[open, close\\]",
          "either code: Tomcat's client reports its own idle close as 1006, Jetty's as 1001 (with"
          + " onError); Tomcat's client checks idleness only now and then, so it can miss a 300 ms"
          + " timeout within the case's 3 s")),
      Map.entry("C16", e("proto=13;secure=false;path=/cmd;sub=[]", "follows Jetty's client:"
          + " Tomcat's client session has no request URI (a NullPointerException)")));
}
