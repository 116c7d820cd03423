package dev.wsjava.jakarta.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spring's STOMP client on wsjava's Jakarta client container against RabbitMQ's Web STOMP plugin,
 * on a node the test starts and stops (Debian's rabbitmq-server; ./test installs it).
 */
class RabbitStompTest {
  @Test
  @Timeout(90)
  void subscribesSendsAndReceivesThroughRabbitMq() throws Exception {
    assertThat(Files.isExecutable(RabbitNode.SERVER))
        .as("Debian's rabbitmq-server (./test installs it)").isTrue();
    try (RabbitNode rabbit = RabbitNode.start(Path.of("target", "rabbitmq").toAbsolutePath(), 50);
        StompProbe a = new StompProbe(); StompProbe b = new StompProbe()) {
      a.connect(rabbit.url(), "guest", "guest");
      b.connect(rabbit.url(), "guest", "guest");
      a.subscribe("/topic/wsjava");
      b.subscribe("/topic/wsjava");
      a.session.send("/topic/wsjava", "one");
      assertThat(a.next()).isEqualTo("one");
      assertThat(b.next()).isEqualTo("one");
      b.session.send("/topic/wsjava", "two");
      assertThat(a.next()).isEqualTo("two");
      assertThat(b.next()).isEqualTo("two");
      assertThat(a.errors).isEmpty();
      assertThat(b.errors).isEmpty();
    }
  }
}
