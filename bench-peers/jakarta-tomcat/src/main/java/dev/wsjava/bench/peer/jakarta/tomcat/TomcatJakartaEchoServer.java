package dev.wsjava.bench.peer.jakarta.tomcat;

import dev.wsjava.bench.peer.PeerArgs;
import dev.wsjava.bench.peer.jakarta.EchoTarget;
import dev.wsjava.bench.peer.jakarta.JakartaEcho;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.server.WsSci;

/**
 * {@link JakartaEcho} on embedded Tomcat 11: the NIO connector (TCP_NODELAY on, Tomcat's default),
 * WsSci on the root context, and a servlet answering {@code GET /}. Tomcat's defaults otherwise (a
 * pool of up to 200 threads, one poller). Command line: {@link PeerArgs} (no TLS, no deflate).
 */
public final class TomcatJakartaEchoServer {
  private TomcatJakartaEchoServer() {}

  /**
   * Starts the server and runs until killed.
   *
   * @param args {@link EchoTarget}: {@code [--whole]} then {@link PeerArgs}
   * @throws Exception when it cannot start
   */
  public static void main(String[] args) throws Exception {
    EchoTarget target = EchoTarget.parse(args);
    PeerArgs peer = target.peer();
    if (peer.tls() != null) {
      throw new IllegalArgumentException("the Tomcat Jakarta target serves ws:// only");
    }
    Tomcat tomcat = new Tomcat();
    File base = Files.createTempDirectory("tomcat-jakarta").toFile();
    tomcat.setBaseDir(base.getAbsolutePath());
    Connector connector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
    connector.setPort(peer.port());
    connector.setProperty("address", peer.host());
    connector.setProperty("tcpNoDelay", "true");
    connector.setProperty("acceptCount", "4096");
    connector.setProperty("maxConnections", "20000");
    tomcat.setConnector(connector);
    Context ctx = tomcat.addContext("", base.getAbsolutePath());
    ctx.addServletContainerInitializer(new WsSci(), null);
    ServletContainerInitializer deploy = (classes, servletContext) -> {
      ServerContainer sc = (ServerContainer) servletContext.getAttribute(
          ServerContainer.class.getName());
      try {
        sc.addEndpoint(target.endpoint());
      } catch (DeploymentException e) {
        throw new ServletException(e);
      }
    };
    ctx.addServletContainerInitializer(deploy, null);
    Tomcat.addServlet(ctx, "hello", new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.getWriter().write(PeerArgs.HELLO);
      }
    }).addMapping("/");
    tomcat.start();
    peer.ready("tomcat 11.0.29, nio connector, threads up to "
        + connector.getProperty("maxThreads") + (target.whole() ? ", whole messages" : ""));
    tomcat.getServer().await();
  }
}
