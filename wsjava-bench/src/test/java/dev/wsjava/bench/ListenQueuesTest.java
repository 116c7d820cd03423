package dev.wsjava.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenQueuesTest {

  @Test
  void seesTheConnectionsAListenerHasNotAcceptedAndItsBacklog() throws Exception {
    InetAddress lo = InetAddress.getLoopbackAddress();
    List<Socket> waiting = new ArrayList<>();
    try (ServerSocket listener = new ServerSocket(0, 7, lo)) {
      for (int i = 0; i < 3; i++) {
        waiting.add(new Socket(lo, listener.getLocalPort())); // the kernel completes, none accepted
      }
      ListenQueues queues = new ListenQueues(Map.of("probe", listener.getLocalPort()));
      queues.sample();
      assertThat(queues.stop()).isEqualTo("probe 3/7");
    } finally {
      for (Socket s : waiting) {
        s.close();
      }
    }
  }

  @Test
  void readsTheKernelsCountersAndPrintsWhatChanged() {
    long[] now = ListenQueues.counters();
    assertThat(now).hasSize(ListenQueues.COUNTERS.size());
    assertThat(now[ListenQueues.COUNTERS.indexOf("ListenOverflows")]).isNotNegative();
    assertThat(now[ListenQueues.COUNTERS.indexOf("RetransSegs")]).isNotNegative();
    long[] later = now.clone();
    later[0] += 5;
    later[1] = -1;
    assertThat(ListenQueues.delta(now, later))
        .startsWith("ListenOverflows +5, ListenDrops ?, RetransSegs +0");
  }
}
