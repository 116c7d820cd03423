package dev.wsjava.jakarta.diff;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.WebSocketContainer;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.apache.tomcat.websocket.server.WsSci;

/** Tomcat 11 embedded: WsSci on a context at "/", endpoints added from a second initializer. */
final class TomcatContainer implements Container {
  private Tomcat tomcat;
  private final List<WsWebSocketContainer> clients = new ArrayList<>();

  @Override
  public String name() {
    return "tomcat";
  }

  @Override
  public URI start(List<Class<?>> annotated, List<ServerEndpointConfig> configs) throws Exception {
    tomcat = new Tomcat();
    File base = Files.createTempDirectory("tomcat-diff").toFile();
    base.deleteOnExit();
    tomcat.setBaseDir(base.getAbsolutePath());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context ctx = tomcat.addContext("", base.getAbsolutePath());
    ctx.addServletContainerInitializer(new WsSci(), null);
    ServletContainerInitializer deploy = (classes, servletContext) -> {
      ServerContainer sc = (ServerContainer) servletContext.getAttribute(
          ServerContainer.class.getName());
      try {
        for (Class<?> c : annotated) {
          sc.addEndpoint(c);
        }
        for (ServerEndpointConfig c : configs) {
          sc.addEndpoint(c);
        }
      } catch (jakarta.websocket.DeploymentException e) {
        throw new jakarta.servlet.ServletException(e);
      }
    };
    ctx.addServletContainerInitializer(deploy, null);
    // A servlet for every other path, so a request no endpoint matches gets a plain 404.
    Tomcat.addServlet(ctx, "notfound", new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void service(HttpServletRequest req, HttpServletResponse resp)
          throws java.io.IOException {
        resp.sendError(404);
      }
    }).addMapping("/");
    tomcat.start();
    return URI.create("ws://127.0.0.1:" + connector.getLocalPort());
  }

  @Override
  public WebSocketContainer client() {
    WsWebSocketContainer c = new WsWebSocketContainer();
    clients.add(c);
    return c;
  }

  @Override
  public void stop() throws Exception {
    for (WsWebSocketContainer c : clients) {
      c.destroy();
    }
    if (tomcat != null) {
      tomcat.stop();
      tomcat.destroy();
    }
  }
}
