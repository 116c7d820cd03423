package dev.wsjava.cli;

import dev.wsjava.CloseCodes;
import dev.wsjava.WebSocket;
import dev.wsjava.WebSocketListener;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code /chat} route: every message goes to every connected client, the sender's too. Text
 * goes out as {@code nick: text} (the nickname comes from {@code ?nick=} in the URL, else {@code
 * guest-N}); binary goes out unchanged; joins and leaves are announced as {@code * nick joined
 * (N online)}.
 *
 * <p>Delivery never makes one client wait for another. Each member has a mailbox, and a virtual
 * thread of its own moves the mailbox into the connection's send queue: events arrive on I/O
 * threads holding their connection's lock, so sending to another connection from there could
 * deadlock with that connection doing the same, and on the blocking transport the sending thread
 * writes to the socket itself. Messages enter every mailbox under the room's lock, so all members
 * see the same order. A member whose mailbox grows past the send queue bound, or whose send queue
 * refuses a message, reads too slowly: it is closed with 1008 (policy violation; 1013 would tell
 * it to retry, which a reader that slow should not) and the others go on.
 */
final class ChatRoom implements WebSocketListener {
  private static final int MAX_NICK = 24;

  private final long bound;
  private final Map<WebSocket, Member> members = new LinkedHashMap<>(); // under this
  private final AtomicInteger guests = new AtomicInteger();

  /** A room whose members may have at most {@code bound} bytes waiting in their mailbox. */
  ChatRoom(long bound) {
    this.bound = bound;
  }

  @Override
  public void onOpen(WebSocket ws) {
    // An authenticated identity (serve --token / --basic-auth) names the member; else ?nick=.
    Member m =
        new Member(ws, ws.attachment() instanceof String user ? clean(user) : nickname(ws.path()));
    synchronized (this) { // the count and the announcement in one step, so they agree
      members.put(ws, m);
      broadcast("* " + m.nick + " joined (" + members.size() + " online)");
    }
  }

  @Override
  public void onText(WebSocket ws, String text) {
    Member m;
    synchronized (this) {
      m = members.get(ws);
    }
    if (m != null) {
      broadcast(m.nick + ": " + text);
    }
  }

  @Override
  public void onBinary(WebSocket ws, ByteBuffer data) {
    byte[] copy = new byte[data.remaining()];
    data.get(copy);
    deliver(copy, copy.length);
  }

  @Override
  public void onClose(WebSocket ws, int code, String reason) {
    Member m;
    synchronized (this) {
      m = members.remove(ws);
      if (m != null) {
        broadcast("* " + m.nick + " left (" + members.size() + " online)");
      }
    }
    if (m != null) {
      m.drop(null);
    }
  }

  private void broadcast(String text) {
    deliver(text, utf8Length(text));
  }

  /** The UTF-8 length of {@code s} (an unpaired surrogate counts as the 3 bytes of U+FFFD). */
  private static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  private synchronized void deliver(Object message, long bytes) {
    for (Member m : members.values()) {
      m.offer(message, bytes);
    }
  }

  /** The {@code nick} query parameter, cut to letters, digits and {@code _.-}; else guest-N. */
  String nickname(String target) {
    int q = target.indexOf('?');
    if (q >= 0) {
      for (String pair : target.substring(q + 1).split("&")) {
        if (pair.startsWith("nick=")) {
          String raw;
          try {
            raw = URLDecoder.decode(pair.substring(5), StandardCharsets.UTF_8);
          } catch (IllegalArgumentException malformed) {
            raw = "";
          }
          return clean(raw);
        }
      }
    }
    return clean("");
  }

  /** A name cut to letters, digits and {@code _.-}, at most 24 of them; guest-N when none is left. */
  String clean(String raw) {
    StringBuilder nick = new StringBuilder();
    raw.codePoints()
        .filter(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')
        .limit(MAX_NICK)
        .forEach(nick::appendCodePoint);
    return nick.isEmpty() ? "guest-" + guests.incrementAndGet() : nick.toString();
  }

  /** One connection's mailbox and the virtual thread that empties it. */
  private final class Member {
    final WebSocket ws;
    final String nick;
    private final ArrayDeque<Object> mailbox = new ArrayDeque<>(); // String or byte[], under this
    private final ArrayDeque<Long> sizes = new ArrayDeque<>(); // their UTF-8 sizes, under this
    private long mailboxBytes; // under this
    private boolean draining; // under this
    private boolean dropped; // under this

    Member(WebSocket ws, String nick) {
      this.ws = ws;
      this.nick = nick;
    }

    void offer(Object message, long bytes) {
      boolean tooSlow;
      synchronized (this) {
        if (dropped) {
          return;
        }
        mailbox.add(message);
        sizes.add(bytes);
        mailboxBytes += bytes;
        tooSlow = mailboxBytes > bound && mailbox.size() > 1;
        if (!tooSlow && !draining) {
          draining = true;
          Thread.ofVirtual().name("wsjava-chat " + nick).start(this::drain);
        }
      }
      if (tooSlow) {
        drop("too slow: chat messages piled up past the send queue bound");
      }
    }

    private void drain() {
      while (true) {
        Object message;
        synchronized (this) {
          message = mailbox.poll();
          if (message == null || dropped) {
            draining = false;
            return;
          }
          mailboxBytes -= sizes.poll();
        }
        CompletableFuture<Void> sent;
        try {
          sent = message instanceof String s ? ws.sendText(s) : ws.sendBinary((byte[]) message);
        } catch (IllegalStateException closed) {
          synchronized (this) {
            dropped = true;
            draining = false;
          }
          return;
        }
        if (Futures.refusedFull(sent)) {
          drop("too slow: the send queue is full");
        }
      }
    }

    /** Stops delivery; with a reason, closes the connection 1008 (off this thread's locks). */
    void drop(String reason) {
      synchronized (this) {
        if (dropped) {
          return;
        }
        dropped = true;
        mailbox.clear();
        sizes.clear();
        mailboxBytes = 0;
      }
      if (reason != null) {
        Thread.ofVirtual().start(() -> {
          if (ws.isOpen()) {
            ws.close(CloseCodes.POLICY_VIOLATION, reason);
          }
        });
      }
    }
  }

  /** The members' nicknames, for tests and logs. */
  synchronized List<String> nicknames() {
    return members.values().stream().map(m -> m.nick).toList();
  }
}
