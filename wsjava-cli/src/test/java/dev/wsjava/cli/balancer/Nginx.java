package dev.wsjava.cli.balancer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real nginx (Debian's {@code nginx}) proxying WebSocket to wsjava nodes over HTTP/1.1, telling
 * them the client's address in {@code X-Forwarded-For}; on a free port of a loopback address. A
 * node that refuses connections is skipped ({@code proxy_next_upstream error}). One process, in the
 * foreground, everything under its own directory; stopped by its own process id. Thread-safe.
 */
public final class Nginx extends Balancer {
  private Nginx(Process process, String host, int port, Path log) {
    super(process, host, port, log);
  }

  /**
   * The configuration's {@code http} block: docs/DEPLOYMENT.md shows the same.
   *
   * @param host the address to listen on
   * @param port the port to listen on
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @return the text of the block
   */
  public static String httpBlock(String host, int port, List<Integer> nodePorts) {
    StringBuilder b = new StringBuilder("http {\n  upstream nodes {\n    least_conn;\n");
    for (int p : nodePorts) {
      b.append("    server 127.0.0.1:").append(p).append(" max_fails=1 fail_timeout=10s;\n");
    }
    b.append("  }\n\n");
    b.append("""
          map $http_upgrade $connection_upgrade {
            default upgrade;
            ''      close;
          }

          server {
        """);
    b.append("    listen ").append(host).append(':').append(port).append(";\n");
    b.append("""
            location / {
              proxy_pass http://nodes;
              proxy_http_version 1.1;
              proxy_set_header Upgrade $http_upgrade;
              proxy_set_header Connection $connection_upgrade;
              proxy_set_header Host $host;
              proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
              proxy_read_timeout 1h;
              proxy_send_timeout 1h;
              proxy_next_upstream error timeout http_503;
            }
          }
        }
        """);
    return b.toString();
  }

  /**
   * Starts nginx and waits until it listens.
   *
   * @param dir its prefix: configuration, pid file, temporary files
   * @param host the loopback address to listen on
   * @param nodePorts the nodes' ports on 127.0.0.1
   * @return the running proxy
   * @throws Exception when it does not start within 20 s
   */
  public static Nginx start(Path dir, String host, List<Integer> nodePorts) throws Exception {
    int port = Loopback.freePort(host);
    String d = dir.toAbsolutePath().toString();
    String conf = "daemon off;\nmaster_process off;\nworker_processes 1;\n"
        + "pid " + d + "/nginx.pid;\nerror_log " + d + "/error.log notice;\n"
        + "events { worker_connections 4096; }\n"
        + httpBlock(host, port, nodePorts).replace("http {\n", "http {\n"
            + "  access_log off;\n"
            + "  client_body_temp_path " + d + "/body;\n  proxy_temp_path " + d + "/proxy;\n"
            + "  fastcgi_temp_path " + d + "/fastcgi;\n  uwsgi_temp_path " + d + "/uwsgi;\n"
            + "  scgi_temp_path " + d + "/scgi;\n");
    Path cfg = dir.resolve("nginx.conf");
    Files.writeString(cfg, conf, StandardCharsets.UTF_8);
    Path log = dir.resolve("error.log"); // its error log, and its output too
    return new Nginx(
        launch(List.of("nginx", "-p", d, "-c", cfg.toString(), "-e", log.toString()), log, host, port),
        host, port, log);
  }
}
