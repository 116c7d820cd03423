package dev.wsjava.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads TCP_NODELAY on another process's sockets through {@code wsjava-bench/src/main/scripts/
 * tcp_nodelay.py} (pidfd_getfd: the option the process really has, whatever its library's
 * documentation says).
 */
final class SocketProbe {
  private static final Pattern LINE = Pattern.compile("SOCKET local=(\\d+) remote=(\\d+) nodelay=([01])");

  /**
   * One established socket of the probed process.
   *
   * @param localPort its local port
   * @param remotePort its peer's port
   * @param noDelay whether TCP_NODELAY is on
   */
  record Socket(int localPort, int remotePort, boolean noDelay) {}

  private SocketProbe() {}

  /**
   * Finds the script in a checkout.
   *
   * @param root the repository
   * @return the script's path
   */
  static Path script(Path root) {
    return root.resolve("wsjava-bench/src/main/scripts/tcp_nodelay.py");
  }

  /**
   * Reads TCP_NODELAY on a process's established sockets with an end on a port.
   *
   * @param script the probe script
   * @param pid the process
   * @param port the port one end of each socket is on
   * @return the sockets found, maybe none
   * @throws IOException when the probe cannot run or is refused
   */
  static List<Socket> read(Path script, long pid, int port) throws IOException {
    String python = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    String out = ServerProcess.run(List.of(python, script.toString(), Long.toString(pid),
        Integer.toString(port)));
    return parse(out);
  }

  /**
   * Parses the probe's output.
   *
   * @param out what the script printed
   * @return its sockets
   * @throws IOException when it printed an error
   */
  static List<Socket> parse(String out) throws IOException {
    List<Socket> sockets = new ArrayList<>();
    for (String line : out.strip().lines().toList()) {
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        sockets.add(new Socket(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            m.group(3).equals("1")));
      } else if (line.startsWith("ERROR")) {
        throw new IOException("TCP_NODELAY probe: " + line.substring(5).strip());
      }
    }
    return sockets;
  }
}
