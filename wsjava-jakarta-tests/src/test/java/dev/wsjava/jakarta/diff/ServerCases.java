package dev.wsjava.jakarta.diff;

import static dev.wsjava.jakarta.diff.Probe.j;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server-side cases: a raw-frame client on a plain socket against {@link Endpoints} deployed on
 * each container. Sections are those of the Jakarta WebSocket 2.2 specification unless marked
 * RFC 6455.
 */
final class ServerCases {
  private ServerCases() {}

  private static String lower(String s) {
    return s == null ? "-" : s.toLowerCase(Locale.ROOT);
  }

  /** The handshake answer, normalised: status, accept hash, the WebSocket headers. */
  static String handshake(RawClient c) {
    return "status=" + c.status + ";accept=" + (c.headers.containsKey("sec-websocket-accept")
        ? (c.acceptOk() ? "ok" : "WRONG") : "-") + ";upgrade=" + lower(c.headers.get("upgrade"))
        + ";connection=" + (lower(c.headers.get("connection")).contains("upgrade") ? "upgrade"
            : lower(c.headers.get("connection"))) + ";protocol="
        + c.headers.getOrDefault("sec-websocket-protocol", "-") + ";extensions="
        + c.headers.getOrDefault("sec-websocket-extensions", "-");
  }

  private static Map<String, String> h(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Opens {@code path}, sends each text, reads {@code replies} frames, closes normally. */
  private static Case.Script texts(String path, int replies, String... texts) {
    return p -> {
      try (RawClient c = p.open(path)) {
        for (String t : texts) {
          c.text(t);
        }
        List<String> got = c.next(replies);
        return j(got, c.finish());
      }
    };
  }

  /** Like {@link #texts} and then the server journal until its close event. */
  private static Case.Script textsJournal(String path, int replies, String... texts) {
    return p -> {
      try (RawClient c = p.open(path)) {
        for (String t : texts) {
          c.text(t);
        }
        List<String> got = c.next(replies);
        return j(got, c.finish(), p.server("close"));
      }
    };
  }

  /** Sends one raw frame sequence and reads until the server's close; then the journal. */
  private interface Frames {
    void write(RawClient c) throws Exception;
  }

  private static Case.Script protocolError(String path, Frames frames) {
    return p -> {
      try (RawClient c = p.open(path)) {
        frames.write(c);
        return j(c.untilClose().stream().map(f -> f.replace(":reason", "")).toList(),
            withoutErrors(p.server("close")));
      }
    };
  }

  /**
   * The journal without onError events and close reasons: what the wire-level cases compare (the
   * reasons are each container's own prose; whether onError is called has cases of its own).
   */
  static String withoutErrors(String journal) {
    return journal.replaceAll("error:[^,\\]]*(, )?", "").replaceAll("close:(\\d+):[^,\\]]*",
        "close:$1").replace(", ]", "]");
  }

  static List<Case> all() {
    List<Case> cs = new ArrayList<>();

    // --- Opening handshake (§3.1, §4.1, RFC 6455 4.2) -------------------------------------------
    cs.add(Case.of("S01", "RFC6455 4.2.2", "plain upgrade answer", p -> {
      try (RawClient c = p.open("/cmd")) {
        return j(handshake(c), c.finish());
      }
    }));
    cs.add(Case.of("S02", "RFC6455 4.2.2", "response header names (besides Date/Server)", p -> {
      try (RawClient c = p.open("/cmd")) {
        List<String> names = new ArrayList<>(c.headers.keySet());
        names.removeAll(List.of("date", "server"));
        return j(names, c.finish());
      }
    }));
    cs.add(Case.of("S03", "RFC6455 4.2.1", "upgrade header values in odd case", p -> {
      try (RawClient c = p.open("/cmd", h("Upgrade", "WebSocket", "Connection",
          "keep-alive, upgrade"))) {
        return j(handshake(c), c.finish());
      }
    }));
    cs.add(Case.of("S04", "RFC6455 4.2.1", "no Sec-WebSocket-Key", p -> {
      try (RawClient c = p.open("/cmd", h("Sec-WebSocket-Key", null))) {
        return "status=" + (c.status >= 400 && c.status < 500 ? "4xx" : c.status);
      }
    }));
    cs.add(Case.of("S05", "RFC6455 4.4", "version 8 refused with 426 + Sec-WebSocket-Version", p -> {
      try (RawClient c = p.open("/cmd", h("Sec-WebSocket-Version", "8"))) {
        return "status=" + c.status + ";version=" + c.headers.getOrDefault(
            "sec-websocket-version", "-");
      }
    }));
    cs.add(Case.of("S06", "3.1.1", "no endpoint at the path", p -> {
      try (RawClient c = p.open("/nowhere")) {
        return "status=" + c.status;
      }
    }));
    cs.add(Case.of("S07", "RFC6455 4.2.1", "POST with upgrade headers is no upgrade", p -> {
      Map<String, String> hs = RawClient.upgradeHeaders();
      hs.put("Content-Length", "0");
      try (RawClient c = RawClient.request(p.base, "POST", p.path("/cmd"), hs)) {
        return "upgraded=" + (c.status == 101);
      }
    }));
    cs.add(Case.of("S08", "RFC6455 4.2.1", "no Upgrade header", p -> {
      try (RawClient c = p.open("/cmd", h("Upgrade", null))) {
        return "upgraded=" + (c.status == 101);
      }
    }));

    // --- Subprotocols and extensions (§3.1.2, §3.1.3, §4.1.4) --------------------------------------
    cs.add(Case.of("S09", "3.1.2", "client order wins: offer superchat, chat", p -> {
      try (RawClient c = p.open("/configured", h("Sec-WebSocket-Protocol", "superchat, chat"))) {
        return j(handshake(c), c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S10", "3.1.2", "offer chat, superchat", p -> {
      try (RawClient c = p.open("/configured", h("Sec-WebSocket-Protocol", "chat, superchat"))) {
        return j(handshake(c), c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S11", "3.1.2", "no common subprotocol: no header, still open", p -> {
      try (RawClient c = p.open("/configured", h("Sec-WebSocket-Protocol", "mqtt"))) {
        return j(handshake(c), c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S12", "3.1.2", "subprotocol header in two lines", p -> {
      Map<String, String> hs = h("Sec-WebSocket-Protocol", "mqtt", "sec-websocket-protocol", "chat");
      try (RawClient c = p.open("/configured", hs)) {
        return j(handshake(c), c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S13", "3.1.2, 6.4", "programmatic config subprotocols", p -> {
      try (RawClient c = p.open("/prog", h("Sec-WebSocket-Protocol", "p2, p1"))) {
        return j(handshake(c), c.finish());
      }
    }));
    cs.add(Case.of("S14", "3.1.3", "permessage-deflate offered", p -> {
      try (RawClient c = p.open("/cmd", h("Sec-WebSocket-Extensions",
          "permessage-deflate; client_max_window_bits"))) {
        boolean deflate = c.headers.getOrDefault("sec-websocket-extensions", "")
            .startsWith("permessage-deflate");
        c.frame(true, 0, RawClient.CLOSE, ByteBuffer.allocate(2).putShort((short) 1000).array(),
            true);
        return j("status=" + c.status + ";deflate=" + deflate, c.untilClose());
      }
    }));
    cs.add(Case.of("S15", "3.1.3", "unknown extension offered is ignored", p -> {
      try (RawClient c = p.open("/cmd", h("Sec-WebSocket-Extensions", "x-unknown; a=1"))) {
        c.text("extensions");
        return j(handshake(c), c.next(1), c.finish());
      }
    }));

    // --- Configurator (§3.1.4 - §3.1.7, §4.1.5) -----------------------------------------------------
    cs.add(Case.of("S16", "3.1.4", "checkOrigin false: 403", p -> {
      try (RawClient c = p.open("/configured", h("Origin", "http://evil.example"))) {
        return "status=" + c.status;
      }
    }));
    cs.add(Case.of("S17", "3.1.4", "checkOrigin true", p -> {
      try (RawClient c = p.open("/configured", h("Origin", "http://good.example"))) {
        return j("status=" + c.status, c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S18", "3.1.5", "modifyHandshake adds a response header; sees request headers",
        p -> {
          try (RawClient c = p.open("/configured", h("X-Probe", "v1"))) {
            return j("x-seen=" + c.headers.get("x-seen"), c.next(1), c.finish());
          }
        }));
    cs.add(Case.of("S19", "3.1.5", "HandshakeRequest uri, query, parameters, no session/principal",
        p -> {
          try (RawClient c = p.open("/configured?x=1&x=2&y=")) {
            c.next(1);
            c.finish();
            String events = p.server("close");
            int from = events.indexOf("request:");
            return events.substring(from, events.indexOf(", ", events.indexOf("principal=", from)))
                .replaceAll("cid=c\\d+", "cid=N").replaceAll("c\\d+\\]", "N]");
          }
        }));
    cs.add(Case.of("S20", "3.1.5", "response headers already set when modifyHandshake runs", p -> {
      try (RawClient c = p.open("/configured", h("Sec-WebSocket-Protocol", "chat", "X-Probe",
          "p"))) {
        c.next(1);
        c.finish();
        String events = p.server("close");
        String set = events.substring(events.indexOf("response-headers-before=["));
        set = set.substring(set.indexOf('[') + 1, set.indexOf(']'));
        List<String> names = new ArrayList<>(List.of(set.split(", ")));
        names.removeAll(List.of("Date", "Server", ""));
        return "set before modifyHandshake returns=" + names;
      }
    }));
    cs.add(Case.of("S21", "3.1.7", "getEndpointInstance used for the instance", p -> {
      try (RawClient c = p.open("/configured")) {
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S22", "3.1.6", "config user properties written in modifyHandshake, read in "
        + "onOpen", p -> {
          try (RawClient c = p.open("/configured", h("X-Probe", "abc"))) {
            return j(c.next(1), c.finish());
          }
        }));
    cs.add(Case.of("S23", "2.1.2, 3.1.6", "EndpointConfig user properties shared by sessions", p -> {
      try (RawClient a = p.open("/config-props"); RawClient b = p.open("/config-props")) {
        List<String> first = a.next(1);
        List<String> second = b.next(1);
        a.finish();
        b.finish();
        return j(first, second);
      }
    }));

    // --- URI template matching (§3.1.1, §4.3) ---------------------------------------------------------
    String[][] uris = {
        {"S24", "/uri/a/b/c", "exact path beats templates"},
        {"S25", "/uri/a/d/c", "{var} in the middle"},
        {"S26", "/uri/a/x/y", "two variables"},
        {"S27", "/uri/a/b", "exact /a/b beats /a/{var1}? (no such template) "},
        {"S28", "/uri/z", "one variable segment"},
        {"S29", "/uri/a", "/uri/{x} with x=a"},
        {"S30", "/uri/a/b/c/d", "too many segments: no match"},
        {"S31", "/uri/a/x/y/", "trailing slash"},
        {"S32", "/uri/a%20b", "percent-encoded segment value"},
        {"S33", "/uri/", "empty variable segment"},
    };
    for (String[] u : uris) {
      cs.add(Case.of(u[0], "3.1.1", u[2] + " (" + u[1] + ")", p -> {
        try (RawClient c = p.open(u[1])) {
          if (c.status != 101) {
            return "status=" + c.status;
          }
          return j(c.next(1), c.finish());
        }
      }));
    }
    cs.add(Case.of("S34", "4.3", "@PathParam String, int, a missing name is null",
        textsJournal("/params/hello/42", 1, "m")));
    cs.add(Case.of("S35", "4.3", "@PathParam int that is not a number", p -> {
      try (RawClient c = p.open("/params/hello/forty")) {
        if (c.status != 101) {
          return "status=" + c.status;
        }
        c.text("m");
        c.untilClose();
        return "status=101 | " + p.server("error");
      }
    }));
    cs.add(Case.of("S36", "2.1.2", "Session.getPathParameters", texts("/params/p/7", 1, "m")));

    // --- @OnMessage forms (§2.2.2? / §4.7) ------------------------------------------------------------
    cs.add(Case.of("S37", "4.7", "String in, String returned", texts("/cmd", 1, "echo hello")));
    cs.add(Case.of("S38", "4.7", "several messages keep their order",
        texts("/cmd", 3, "echo 1", "echo 2", "echo 3")));
    cs.add(Case.of("S39", "4.7", "byte[] in, byte[] returned", p -> {
      try (RawClient c = p.open("/bin/array")) {
        c.binary(new byte[300]);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S40", "4.7", "text and binary methods in one endpoint", p -> {
      try (RawClient c = p.open("/bin/array")) {
        c.text("t");
        c.binary(new byte[] {1});
        return j(c.next(2), c.finish());
      }
    }));
    cs.add(Case.of("S41", "4.7", "ByteBuffer in and returned", p -> {
      try (RawClient c = p.open("/bin/buffer")) {
        c.binary(new byte[] {9, 8, 7});
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S42", "4.7", "Reader per text message", texts("/stream/reader", 1,
        "a reader reads this")));
    cs.add(Case.of("S43", "4.7", "Reader over a fragmented message", p -> {
      try (RawClient c = p.open("/stream/reader")) {
        c.frame(false, 0, RawClient.TEXT, utf8("frag"), true);
        c.frame(false, 0, RawClient.CONTINUATION, utf8("ment"), true);
        c.frame(true, 0, RawClient.CONTINUATION, utf8("ed"), true);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S44", "4.7", "InputStream per binary message (100 KB)", p -> {
      try (RawClient c = p.open("/stream/input")) {
        c.binary(new byte[100_000]);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S45", "4.7", "partial String, one frame", texts("/partial/text", 1, "whole")));
    cs.add(Case.of("S46", "4.7", "partial String, three frames", p -> {
      try (RawClient c = p.open("/partial/text")) {
        c.frame(false, 0, RawClient.TEXT, utf8("ab"), true);
        c.frame(false, 0, RawClient.CONTINUATION, utf8("cd"), true);
        c.frame(true, 0, RawClient.CONTINUATION, utf8("ef"), true);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S47", "4.7", "partial String, empty final frame", p -> {
      try (RawClient c = p.open("/partial/text")) {
        c.frame(false, 0, RawClient.TEXT, utf8("ab"), true);
        c.frame(true, 0, RawClient.CONTINUATION, new byte[0], true);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S48", "4.7", "partial String, a code point split across frames", p -> {
      try (RawClient c = p.open("/partial/text")) {
        byte[] euro = utf8("x\u20ac");
        c.frame(false, 0, RawClient.TEXT, new byte[] {euro[0], euro[1]}, true);
        c.frame(true, 0, RawClient.CONTINUATION, new byte[] {euro[2], euro[3]}, true);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S49", "4.7", "partial byte[], three frames", p -> {
      try (RawClient c = p.open("/partial/binary")) {
        c.frame(false, 0, RawClient.BINARY, new byte[3], true);
        c.frame(false, 0, RawClient.CONTINUATION, new byte[5], true);
        c.frame(true, 0, RawClient.CONTINUATION, new byte[7], true);
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S50", "4.7, 2.2.5", "PongMessage method gets an unsolicited pong", p -> {
      try (RawClient c = p.open("/pong")) {
        c.send(RawClient.PONG, utf8("beat"));
        c.text("after");
        return j(c.next(2), c.finish());
      }
    }));
    cs.add(Case.of("S51", "RFC6455 5.5.2", "ping answered with a pong of the same data", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.send(RawClient.PING, utf8("are you there"));
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S52", "RFC6455 5.4", "ping between fragments of a message", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.frame(false, 0, RawClient.TEXT, utf8("echo fr"), true);
        c.send(RawClient.PING, utf8("p"));
        c.frame(true, 0, RawClient.CONTINUATION, utf8("ag"), true);
        return j(c.next(2), c.finish());
      }
    }));
    cs.add(Case.of("S53", "4.7, 4.1.3", "Text decoder and encoder", textsJournal(
        "/decoded/text", 1, "3,4")));
    cs.add(Case.of("S54", "4.1.3", "text no decoder will take (willDecode false)",
        textsJournal("/decoded/text", 1, "no comma", "1,1")));
    cs.add(Case.of("S55", "4.1.3, 5.2.2", "decode throws DecodeException: onError, stays open",
        textsJournal("/decoded/text", 1, "x,y", "5,5")));
    cs.add(Case.of("S56", "4.1.3", "TextStream decoder and encoder",
        texts("/decoded/textstream", 1, "7,8")));
    cs.add(Case.of("S57", "4.1.3", "Binary decoder and encoder", p -> {
      try (RawClient c = p.open("/decoded/binary")) {
        c.binary(ByteBuffer.allocate(8).putInt(1).putInt(2).array());
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S58", "4.1.3, 5.2.2", "Binary decoder DecodeException", p -> {
      try (RawClient c = p.open("/decoded/binary")) {
        c.binary(new byte[3]);
        c.binary(ByteBuffer.allocate(8).putInt(5).putInt(6).array());
        return j(c.next(1), c.finish(), p.server("close"));
      }
    }));
    cs.add(Case.of("S59", "4.1.3", "BinaryStream decoder and encoder", p -> {
      try (RawClient c = p.open("/decoded/binarystream")) {
        c.binary(ByteBuffer.allocate(8).putInt(10).putInt(20).array());
        return j(c.next(1), c.finish());
      }
    }));
    cs.add(Case.of("S60", "4.7", "int parameter and return value", texts("/primitive", 1, "41")));
    cs.add(Case.of("S61", "4.7, 5.2.2", "int parameter given text that is no number",
        textsJournal("/primitive", 1, "forty", "1")));
    cs.add(Case.of("S62", "4.7", "Boolean parameter", texts("/bool", 2, "true", "nope")));
    cs.add(Case.of("S63", "4.7", "Session before the message parameter",
        texts("/session-first", 1, "x")));
    cs.add(Case.of("S64", "4.1.2, 4.1.3", "decoder init per session, in the same JVM", p -> {
      try (RawClient c = p.open("/counting")) {
        c.text("1,2");
        return j(c.next(1).stream().map(s -> s.replaceAll("\\d+", "N")).toList(), c.finish());
      }
    }));
    cs.add(Case.of("S65", "2.1.3, 6.4", "programmatic Whole<String> and Partial<ByteBuffer>; a "
        + "second String handler", p -> {
          try (RawClient c = p.open("/prog")) {
            c.text("x");
            c.binary(new byte[10]);
            return j(c.next(2), c.finish(), p.server("close"));
          }
        }));
    cs.add(Case.of("S66", "2.1.3", "binary to a text-only endpoint: 1003",
        protocolError("/text-only", c -> c.binary(new byte[] {1}))));
    cs.add(Case.of("S67", "2.1.3", "text to a binary-only programmatic handler? (prog has both)",
        texts("/prog", 1, "y")));

    // --- Sending (§2.1.4) ------------------------------------------------------------------------------
    cs.add(Case.of("S68", "2.1.4", "partial sendText(…, false/true): three frames",
        texts("/cmd", 3, "partial")));
    cs.add(Case.of("S69", "2.1.4", "partial sendBinary", texts("/cmd", 2, "partial-binary")));
    cs.add(Case.of("S70", "2.1.4", "async sendText with Future", texts("/cmd", 2, "async a1")));
    cs.add(Case.of("S71", "2.1.4", "async sendText with SendHandler (2.2: getSession)",
        texts("/cmd", 2, "async-handler a2")));
    cs.add(Case.of("S72", "2.1.4", "getSendWriter: one message", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("writer");
        c.text("echo end");
        List<String> frames = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String f : c.next(4)) {
          frames.add(f);
          if (f.equals("TEXT:end")) {
            break;
          }
        }
        for (String f : frames) {
          if (!f.equals("TEXT:end")) {
            text.append(f.substring(f.indexOf(':') + 1));
          }
        }
        c.finish();
        return "message=" + text + ";endsFinal=" + frames.stream().filter(f -> !f.equals(
            "TEXT:end")).reduce((a, b) -> b).map(f -> !f.contains("(more)")).orElse(false);
      }
    }));
    cs.add(Case.of("S73", "2.1.4", "getSendStream: one binary message", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("stream");
        c.text("echo end");
        int total = 0;
        for (String f : c.next(4)) {
          if (f.equals("TEXT:end")) {
            break;
          }
          total += Integer.parseInt(f.substring(f.indexOf("len") + 3));
        }
        c.finish();
        return "bytes=" + total;
      }
    }));
    cs.add(Case.of("S74", "2.1.4", "sendObject(String) with no encoder: text",
        texts("/cmd", 1, "object plain")));
    cs.add(Case.of("S75", "2.1.4", "sendObject(Integer) with no encoder: text by toString",
        texts("/cmd", 1, "object-int 12")));
    cs.add(Case.of("S76", "2.1.4", "server sendPing: client sees a ping", texts("/cmd", 2,
        "ping pp")));
    cs.add(Case.of("S77", "2.1.4, 2.2.5", "server unsolicited sendPong", texts("/cmd", 2,
        "pong qq")));
    cs.add(Case.of("S78", "4.7", "return value with an encoder (see S53), int return (see S60): "
        + "null return sends nothing", texts("/cmd", 1, "binary-echo-return", "echo after")));

    // --- Session (§2.1.2) --------------------------------------------------------------------------------
    cs.add(Case.of("S79", "2.1.2", "session info: version, subprotocol, query, parameters",
        p -> {
          try (RawClient c = p.open("/cmd?a=1&a=2&b=x")) {
            c.text("info");
            return j(c.next(1).stream().map(s -> s.replaceAll("c\\d+", "N")).toList(),
                c.finish());
          }
        }));
    cs.add(Case.of("S80", "2.1.2", "getRequestURI path and query", p -> {
      try (RawClient c = p.open("/cmd?q=1")) {
        c.text("uri");
        return j(c.next(1).stream().map(s -> s.replaceAll("c\\d+", "N")).toList(), c.finish());
      }
    }));
    cs.add(Case.of("S81", "2.1.2", "getRequestURI scheme", texts("/cmd", 1, "uri-scheme")));
    cs.add(Case.of("S82", "2.1.2", "getOpenSessions holds this session",
        texts("/cmd", 1, "open-sessions")));
    cs.add(Case.of("S83", "2.1.2", "session user properties persist between messages",
        texts("/cmd", 2, "props-set v", "props-get")));
    cs.add(Case.of("S84", "2.1.2", "user properties are per session", p -> {
      try (RawClient a = p.open("/cmd"); RawClient b = p.open("/cmd")) {
        a.text("props-set only-a");
        List<String> r1 = a.next(1);
        b.text("props-get");
        List<String> r2 = b.next(1);
        a.finish();
        b.finish();
        return j(r1, r2);
      }
    }));
    cs.add(Case.of("S85", "2.1.2", "message buffer sizes are positive", texts("/cmd", 1,
        "buffers")));

    // --- Closing (§2.1.5, §4.5) ----------------------------------------------------------------------------
    cs.add(Case.of("S86", "2.1.5", "server close(4000, bye)", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("close 4000 bye");
        List<String> got = c.untilClose();
        c.close(4000, "");
        return j(got, p.server("close"));
      }
    }));
    cs.add(Case.of("S87", "2.1.5", "server close() default: 1000", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("close-default");
        List<String> got = c.untilClose();
        c.close(1000, "");
        return j(got, p.server("close"));
      }
    }));
    cs.add(Case.of("S88", "4.5", "client close 1001 with reason: onClose sees it; echoed", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.close(1001, "going");
        return j(c.untilClose(), p.server("close"));
      }
    }));
    cs.add(Case.of("S89", "4.5, RFC6455 5.5.1", "client close with no body: onClose 1005", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.send(RawClient.CLOSE, new byte[0]);
        return j(c.untilClose(), p.server("close"));
      }
    }));
    cs.add(Case.of("S90", "RFC6455 5.5.1", "client close 4999 echoed", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.close(4999, "");
        return j(c.untilClose(), p.server("close"));
      }
    }));
    cs.add(Case.of("S91", "2.1.5", "send after close fails", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("send-after-close");
        List<String> got = c.untilClose();
        c.close(1000, "");
        String events = p.server("send-after-close");
        // Only the send's own entry: whether @OnClose is logged after it by the time the log is
        // read is a race between the container's threads and this one, on every container.
        String send = events.substring(events.indexOf("send-after-close")).replace("]", "");
        int next = send.indexOf(", ");
        return j(got, next < 0 ? send : send.substring(0, next));
      }
    }));
    cs.add(Case.of("S92", "2.1.5", "idle timeout: the container closes", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("idle 300");
        List<String> got = c.next(1);
        List<String> closed = c.untilClose();
        return j(got, closed, p.server("close"));
      }
    }));

    // --- Errors (§5.2.2, §5.2.3, §4.6) ---------------------------------------------------------------------
    cs.add(Case.of("S93", "5.2.2", "RuntimeException in @OnMessage goes to @OnError", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("throw");
        c.text("echo still");
        return j(c.next(1), c.finish(), p.server("close"));
      }
    }));
    cs.add(Case.of("S94", "5.2.2", "checked exception in @OnMessage goes to @OnError", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.text("throw-checked");
        c.text("echo still");
        return j(c.next(1), c.finish(), p.server("close"));
      }
    }));
    cs.add(Case.of("S95", "5.2.2", "exception with no @OnError", p -> {
      try (RawClient c = p.open("/cmd-noerror")) {
        c.text("throw");
        c.text("echo still");
        return j(c.untilClose(), p.server("close"));
      }
    }));
    cs.add(Case.of("S96", "5.2.2", "exception in @OnOpen", p -> {
      try (RawClient c = p.open("/open-throws")) {
        c.text("x");
        return j("status=" + c.status, c.untilClose(), p.server("close"));
      }
    }));
    cs.add(Case.of("S97", "4.7, 5.2.3", "text over maxMessageSize: 1009",
        protocolError("/maxsize", c -> c.text("x".repeat(17)))));
    cs.add(Case.of("S98", "4.7", "text at maxMessageSize is accepted",
        texts("/maxsize", 1, "x".repeat(16))));
    cs.add(Case.of("S99", "4.7, 5.2.3", "binary over maxMessageSize: 1009",
        protocolError("/maxsize/binary", c -> c.binary(new byte[17]))));
    cs.add(Case.of("S100", "4.7, 5.2.3", "fragmented text over maxMessageSize: 1009",
        protocolError("/maxsize", c -> {
          c.frame(false, 0, RawClient.TEXT, utf8("x".repeat(10)), true);
          c.frame(true, 0, RawClient.CONTINUATION, utf8("x".repeat(10)), true);
        })));
    cs.add(Case.of("S101", "5.2.3, RFC6455 5.1", "unmasked client frame: 1002",
        protocolError("/cmd", c -> c.frame(true, 0, RawClient.TEXT, utf8("echo x"), false))));
    cs.add(Case.of("S102", "5.2.3, RFC6455 5.2", "reserved opcode 3: 1002",
        protocolError("/cmd", c -> c.send(3, new byte[0]))));
    cs.add(Case.of("S103", "5.2.3, RFC6455 5.2", "RSV1 with no extension: 1002",
        protocolError("/cmd", c -> c.frame(true, 4, RawClient.TEXT, utf8("echo x"), true))));
    cs.add(Case.of("S104", "5.2.3, RFC6455 8.1", "invalid UTF-8 text: 1007",
        protocolError("/cmd", c -> c.send(RawClient.TEXT, new byte[] {'a', (byte) 0xff}))));
    cs.add(Case.of("S105", "5.2.3, RFC6455 7.4.1", "close code 1005 on the wire: 1002",
        protocolError("/cmd", c -> c.close(1005, ""))));
    cs.add(Case.of("S106", "5.2.3, RFC6455 7.4.1", "close code 999: 1002",
        protocolError("/cmd", c -> c.close(999, ""))));
    cs.add(Case.of("S107", "5.2.3, RFC6455 5.4", "continuation with nothing to continue: 1002",
        protocolError("/cmd", c -> c.send(RawClient.CONTINUATION, utf8("x")))));
    cs.add(Case.of("S108", "5.2.3, RFC6455 5.4", "new text inside a fragmented message: 1002",
        protocolError("/cmd", c -> {
          c.frame(false, 0, RawClient.TEXT, utf8("echo a"), true);
          c.frame(true, 0, RawClient.TEXT, utf8("echo b"), true);
        })));
    cs.add(Case.of("S109", "5.2.3, RFC6455 5.5", "fragmented ping: 1002",
        protocolError("/cmd", c -> c.frame(false, 0, RawClient.PING, utf8("p"), true))));
    cs.add(Case.of("S110", "5.2.3, RFC6455 5.5", "ping of 126 bytes: 1002",
        protocolError("/cmd", c -> c.send(RawClient.PING, new byte[126]))));
    cs.add(Case.of("S111", "5.2.3, RFC6455 5.5.1", "close with a 1-byte body: 1002",
        protocolError("/cmd", c -> c.send(RawClient.CLOSE, new byte[] {3}))));
    cs.add(Case.of("S112", "5.2.3, RFC6455 8.1", "close reason invalid UTF-8: 1007 or 1002",
        protocolError("/cmd", c -> c.send(RawClient.CLOSE,
            new byte[] {3, (byte) 0xe8, (byte) 0xff}))));
    cs.add(Case.of("S113", "5.2.3, 4.6", "onError on a protocol error (unmasked frame)", p -> {
      try (RawClient c = p.open("/cmd")) {
        c.frame(true, 0, RawClient.TEXT, utf8("echo x"), false);
        c.untilClose();
        return p.server("close").replaceAll("close:(\\d+):[^,\\]]*", "close:$1");
      }
    }));
    cs.add(Case.of("S114", "4.7, 4.6", "onError on a message over maxMessageSize", p -> {
      try (RawClient c = p.open("/maxsize")) {
        c.text("x".repeat(17));
        c.untilClose();
        return p.server("close");
      }
    }));
    cs.add(Case.of("S115", "3.1.5", "HandshakeRequest.getHeaders() of an absent header", p -> {
      try (RawClient c = p.open("/configured")) {
        c.next(1);
        c.finish();
        String events = p.server("close");
        return events.substring(events.indexOf("absent="), events.indexOf(";", events.indexOf(
            "absent=")));
      }
    }));
    cs.add(Case.of("S116", "3.1.3", "configurator negotiates no extension: none answered", p -> {
      try (RawClient c = p.open("/no-ext", h("Sec-WebSocket-Extensions",
          "permessage-deflate; client_max_window_bits"))) {
        c.text("x");
        return j(handshake(c), c.next(1), c.finish());
      }
    }));
    return cs;
  }
}
