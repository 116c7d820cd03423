package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wsjava.protocol.Opcode;
import dev.wsjava.protocol.Role;
import dev.wsjava.session.MemoryBudget;
import dev.wsjava.session.Session;
import dev.wsjava.transport.Connection;
import dev.wsjava.transport.ConnectionConfig;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pull-style inbox ({@link WebSocket#receive()}) is inside the memory budget: the messages it
 * holds are charged until taken, and when the budget is spent the connection stops being read
 * (nothing is refused) until the application takes them. Driven without sockets, so each step is
 * exact.
 */
class PullInboxMemoryTest {
  static final int KIB = 1024;

  /** A connection without a socket that records whether it is read. */
  static final class Unplugged extends Connection {
    int pausedBy;

    Unplugged(ConnectionConfig config, WebSocketImpl handler) {
      super(new Session(Role.SERVER, config.session(), List.of()), handler, config, null);
    }

    boolean reading() {
      return pausedBy == 0;
    }

    void openNow() {
      open();
    }

    @Override
    protected void setPaused(int reason, boolean paused) {
      pausedBy = paused ? pausedBy | reason : pausedBy & ~reason;
    }

    @Override
    public SocketAddress remoteAddress() {
      return null;
    }

    @Override
    public SocketAddress localAddress() {
      return null;
    }

    @Override
    protected void requestFlush() {}

    @Override
    protected void closeSocket() {
      socketClosed();
    }

    @Override
    protected void scheduleCloseTimeout(Duration timeout) {}
  }

  final MemoryBudget budget = new MemoryBudget(256 * KIB, Duration.ofSeconds(10), () -> 0L);
  final WebSocketImpl ws = new WebSocketImpl(null, "/pull");

  Unplugged open() {
    ConnectionConfig config =
        WebSocketConfig.defaults().connectionConfig(false).withMemory(budget);
    Unplugged c = new Unplugged(config, ws);
    c.openNow();
    return c;
  }

  static ByteBuffer bytes(int n) {
    return ByteBuffer.allocate(n);
  }

  @Test
  void messagesWaitingInTheInboxAreChargedUntilTaken() throws Exception {
    Unplugged c = open();
    ws.onMessage(c, Opcode.BINARY, bytes(100 * KIB));
    ws.onMessage(c, Opcode.TEXT, ByteBuffer.wrap("x".repeat(20 * KIB).getBytes()));
    assertThat(budget.reserved()).as("120 KiB held, in 64 KiB grants").isEqualTo(128 * KIB);
    assertThat(c.reading()).isTrue();

    assertThat(ws.receive()).isInstanceOf(Message.Binary.class);
    assertThat(budget.reserved())
        .as("20 KiB still held, in one grant, and the spare grant an account keeps in hand")
        .isEqualTo(128 * KIB);
    assertThat(ws.receive()).isInstanceOf(Message.Text.class);
    assertThat(budget.reserved()).as("nothing held: an idle connection holds no grant").isZero();
  }

  @Test
  void aSpentBudgetStopsReadingUntilTheApplicationTakesItsMessages() throws Exception {
    Unplugged c = open();
    for (int i = 0; i < 3; i++) {
      ws.onMessage(c, Opcode.BINARY, bytes(80 * KIB));
    }
    assertThat(c.reading()).as("240 KiB of 256: still room").isTrue();
    ws.onMessage(c, Opcode.BINARY, bytes(80 * KIB));
    assertThat(c.reading()).as("320 KiB held past a 256 KiB budget: not read").isFalse();
    assertThat(budget.reserved()).as("taken as an overdraft, nothing refused").isGreaterThan(256 * KIB);

    ws.receive();
    assertThat(c.reading()).as("240 KiB held: the budget has room again").isTrue();
    ws.onMessage(c, Opcode.BINARY, bytes(80 * KIB));
    assertThat(c.reading()).isFalse();
    for (int i = 0; i < 4; i++) {
      assertThat(((Message.Binary) ws.receive()).data().remaining()).isEqualTo(80 * KIB);
    }
    assertThat(c.reading()).isTrue();
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void anotherConnectionsSpentBudgetPausesThisOneOnlyWhileItHoldsMessages() throws Exception {
    MemoryBudget.Account other = budget.open();
    other.chargeOver(300 * KIB); // someone else overdrew the budget
    Unplugged c = open();
    ws.onMessage(c, Opcode.BINARY, bytes(KIB));
    assertThat(c.reading()).as("no room: this one waits too").isFalse();
    ws.receive();
    assertThat(c.reading()).as("it holds nothing more: reading goes on").isTrue();
  }

  @Test
  void aClosedConnectionGivesBackWhatItsInboxWasCharged() throws Exception {
    Unplugged c = open();
    ws.onMessage(c, Opcode.BINARY, bytes(100 * KIB));
    c.abort();
    assertThat(budget.reserved()).isZero();
    assertThat(ws.receive()).as("the message is still there to take").isInstanceOf(Message.Binary.class);
    assertThat(budget.reserved()).isZero();
  }
}
