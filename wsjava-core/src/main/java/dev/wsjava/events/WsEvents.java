package dev.wsjava.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The Flight Recorder events of a wsjava server: one nested class per event, each named {@code
 * dev.wsjava.*} in category {@code wsjava}. Fields are set only after {@code shouldCommit()}.
 */
public final class WsEvents {
  private WsEvents() {}

  /** A WebSocket connection opened (server side). */
  @Name("dev.wsjava.ConnectionOpened")
  @Label("WebSocket Opened")
  @Category("wsjava")
  @StackTrace(false)
  public static final class ConnectionOpened extends Event {

    /** Makes an event to fill and commit. */
    public ConnectionOpened() {}
    /** The peer. */
    @Label("Remote Address")
    public String remote;

    /** The request target. */
    @Label("Path")
    public String path;

    /** The chosen subprotocol, or null. */
    @Label("Subprotocol")
    public String subprotocol;
  }

  /** A WebSocket connection closed (server side), with its code and how long it was open. */
  @Name("dev.wsjava.ConnectionClosed")
  @Label("WebSocket Closed")
  @Category("wsjava")
  @StackTrace(false)
  public static final class ConnectionClosed extends Event {

    /** Makes an event to fill and commit. */
    public ConnectionClosed() {}
    /** The peer. */
    @Label("Remote Address")
    public String remote;

    /** The request target. */
    @Label("Path")
    public String path;

    /** The close code (1006 when it ended without a close frame). */
    @Label("Close Code")
    public int code;

    /** The close reason. */
    @Label("Reason")
    public String reason;

    /** How long the connection was open. */
    @Label("Open For")
    @Timespan(Timespan.NANOSECONDS)
    public long openFor;
  }

  /** An upgrade refused before the 101: by a limit, the application, or a failed hook. */
  @Name("dev.wsjava.HandshakeRejected")
  @Label("WebSocket Handshake Rejected")
  @Category("wsjava")
  @StackTrace(false)
  public static final class HandshakeRejected extends Event {

    /** Makes an event to fill and commit. */
    public HandshakeRejected() {}
    /** The peer, when known. */
    @Label("Remote Address")
    public String remote;

    /** The request target, when known. */
    @Label("Path")
    public String path;

    /** The HTTP status answered. */
    @Label("Status")
    public int status;

    /** Why. */
    @Label("Reason")
    public String reason;
  }

  /** A limit against abuse was hit. */
  @Name("dev.wsjava.LimitHit")
  @Label("WebSocket Limit Hit")
  @Category("wsjava")
  @StackTrace(false)
  public static final class LimitHit extends Event {

    /** Makes an event to fill and commit. */
    public LimitHit() {}
    /** Which: server-connections, address-connections, handshake-rate or message-rate. */
    @Label("Limit")
    public String limit;

    /** The peer. */
    @Label("Remote Address")
    public String remote;
  }

  /** A send was refused because the connection's outbound queue was full. */
  @Name("dev.wsjava.SendQueueFull")
  @Label("WebSocket Send Queue Full")
  @Category("wsjava")
  public static final class SendQueueFull extends Event {

    /** Makes an event to fill and commit. */
    public SendQueueFull() {}
    /** The peer. */
    @Label("Remote Address")
    public String remote;

    /** The bytes queued when the send was refused. */
    @Label("Queued")
    @DataAmount
    public long queued;
  }

  /**
   * A server stopped accepting for a while: its accepts failed (for want of file descriptors, most
   * often) and it backed off until one succeeded. One event per episode, spanning it.
   */
  @Name("dev.wsjava.AcceptPaused")
  @Label("WebSocket Accepting Paused")
  @Description("A server's accepts failed and it backed off; open connections were still served")
  @Category("wsjava")
  @StackTrace(false)
  public static final class AcceptPaused extends Event {

    /** Makes an event to fill and commit. */
    public AcceptPaused() {}

    /** Whether the process or the system had no file descriptor left (EMFILE, ENFILE). */
    @Label("Descriptors Exhausted")
    public boolean exhausted;

    /** The first failed accept's error. */
    @Label("Error")
    public String error;

    /** How many accepts failed before one succeeded. */
    @Label("Failed Accepts")
    public long failures;
  }

  /** One message in {@link #SAMPLE_EVERY}, its size and direction. Off unless enabled. */
  @Name("dev.wsjava.MessageSize")
  @Label("WebSocket Message Size (sampled)")
  @Description("One message in 64, received or sent, with its payload size")
  @Category("wsjava")
  @Enabled(false)
  @StackTrace(false)
  public static final class MessageSize extends Event {

    /** Makes an event to fill and commit. */
    public MessageSize() {}
    /** One message in this many is recorded. */
    public static final int SAMPLE_EVERY = 64;

    /** Asks whether recording is on without making an event per message. */
    public static final MessageSize PROBE = new MessageSize();

    /** True for a received message. */
    @Label("Inbound")
    public boolean inbound;

    /** The payload size. */
    @Label("Size")
    @DataAmount
    public long size;

    /**
     * Records one message in {@link #SAMPLE_EVERY} when the event is enabled.
     *
     * @param inbound true for a received message
     * @param size its payload size
     */
    public static void sample(boolean inbound, long size) {
      if (PROBE.isEnabled()
          && java.util.concurrent.ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) == 0) {
        MessageSize e = new MessageSize();
        e.inbound = inbound;
        e.size = size;
        e.commit();
      }
    }
  }
}
