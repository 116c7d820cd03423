package dev.wsjava.cli;

import dev.wsjava.WebSocketConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The kernel socket buffer options of the commands that move many bytes ({@code serve} and {@code
 * load}): {@code --sndbuf} and {@code --rcvbuf}, 0 (the default) leaving the OS to size and tune
 * them.
 */
final class SocketBufferOptions {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--sndbuf", paramLabel = "SIZE", defaultValue = "0",
      converter = Units.SizeConverter.class,
      description = "Each socket's send buffer (SO_SNDBUF); 0 for the OS default. Linux doubles"
          + " it and caps it at net.core.wmem_max.")
  long sendBuffer;

  @Option(names = "--rcvbuf", paramLabel = "SIZE", defaultValue = "0",
      converter = Units.SizeConverter.class,
      description = "Each socket's receive buffer (SO_RCVBUF); 0 for the OS default. Linux doubles"
          + " it and caps it at net.core.rmem_max.")
  long receiveBuffer;

  /**
   * Sets the buffers on a configuration being built; a usage error when one does not fit a
   * socket option.
   */
  WebSocketConfig.Builder applyTo(WebSocketConfig.Builder config) {
    if (sendBuffer > Integer.MAX_VALUE || receiveBuffer > Integer.MAX_VALUE) {
      throw new ParameterException(
          spec.commandLine(), "--sndbuf and --rcvbuf must be below 2g (a socket option is an int)");
    }
    return config.socketBuffers((int) sendBuffer, (int) receiveBuffer);
  }

  /** Describes the buffers for a start-up line: empty when both are the OS default. */
  String describe() {
    if (sendBuffer == 0 && receiveBuffer == 0) {
      return "";
    }
    return ", socket buffers " + (sendBuffer == 0 ? "default" : Units.formatSize(sendBuffer))
        + " send, " + (receiveBuffer == 0 ? "default" : Units.formatSize(receiveBuffer)) + " receive";
  }
}
