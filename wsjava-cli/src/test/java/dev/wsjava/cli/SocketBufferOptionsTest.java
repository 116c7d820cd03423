package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.WebSocketConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class SocketBufferOptionsTest {

  /** A command with nothing but the options under test. */
  @Command(name = "buffers")
  static final class Holder {
    @Mixin SocketBufferOptions buffers;
  }

  private static SocketBufferOptions parse(String... args) {
    Holder holder = new Holder();
    new CommandLine(holder).parseArgs(args);
    return holder.buffers;
  }

  @Test
  void sizesWithUnitsBecomeTheSocketBuffersOfTheConfiguration() {
    SocketBufferOptions options = parse("--sndbuf", "64k", "--rcvbuf", "1m");
    WebSocketConfig config = options.applyTo(WebSocketConfig.builder()).build();
    assertThat(config.socketSendBuffer()).isEqualTo(64 * 1024);
    assertThat(config.socketReceiveBuffer()).isEqualTo(1024 * 1024);
    assertThat(options.describe()).isEqualTo(", socket buffers 64k send, 1m receive");
  }

  @Test
  void withoutTheOptionsTheOsDefaultsStayAndNothingIsSaid() {
    SocketBufferOptions options = parse();
    WebSocketConfig config = options.applyTo(WebSocketConfig.builder()).build();
    assertThat(config.socketSendBuffer()).isZero();
    assertThat(config.socketReceiveBuffer()).isZero();
    assertThat(options.describe()).isEmpty();
  }

  @Test
  void aBufferThatDoesNotFitASocketOptionIsAUsageError() {
    SocketBufferOptions options = parse("--rcvbuf", "2g");
    assertThatThrownBy(() -> options.applyTo(WebSocketConfig.builder()))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("must be below 2g");
  }
}
