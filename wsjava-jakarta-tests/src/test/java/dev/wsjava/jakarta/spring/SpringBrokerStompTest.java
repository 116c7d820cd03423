package dev.wsjava.jakarta.spring;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletContainerInitializer;
import java.io.File;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.server.WsSci;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.stereotype.Controller;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * Spring's STOMP client on wsjava's Jakarta client container against a Spring 7 STOMP broker
 * application (simple broker, an {@code @MessageMapping} controller) on embedded Tomcat 11.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringBrokerStompTest {
  private Tomcat tomcat;
  private String url;

  /** The broker application: STOMP at /stomp, a simple broker on /topic, the app on /app. */
  @Configuration
  @EnableWebSocketMessageBroker
  static class BrokerApp implements WebSocketMessageBrokerConfigurer {
    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
      registry.addEndpoint("/stomp");
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
      registry.enableSimpleBroker("/topic");
      registry.setApplicationDestinationPrefixes("/app");
    }

    @Bean
    Greeter greeter() {
      return new Greeter();
    }
  }

  /** Answers /app/hello on /topic/greetings. */
  @Controller
  static class Greeter {
    @MessageMapping("/hello")
    @SendTo("/topic/greetings")
    String hello(String name) {
      return "hello " + name;
    }
  }

  @BeforeAll
  void start() throws Exception {
    tomcat = new Tomcat();
    File base = Files.createTempDirectory("tomcat-stomp").toFile();
    tomcat.setBaseDir(base.getAbsolutePath());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context ctx = tomcat.addContext("", base.getAbsolutePath());
    ctx.addServletContainerInitializer(new WsSci(), null);
    ServletContainerInitializer spring = (classes, servletContext) -> {
      AnnotationConfigWebApplicationContext app = new AnnotationConfigWebApplicationContext();
      app.register(BrokerApp.class);
      var dispatcher = servletContext.addServlet("dispatcher", new DispatcherServlet(app));
      dispatcher.addMapping("/");
      // Refresh the Spring context while Tomcat starts, not on the first upgrade request (which
      // would then wait for it: seconds on a loaded machine).
      dispatcher.setLoadOnStartup(1);
    };
    ctx.addServletContainerInitializer(spring, null);
    tomcat.start();
    url = "ws://127.0.0.1:" + connector.getLocalPort() + "/stomp";
  }

  @AfterAll
  void stop() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }

  @Test
  void subscribesSendsAndReceivesThroughTheController() throws Exception {
    try (StompProbe probe = new StompProbe()) {
      probe.connect(url, null, null);
      probe.subscribeAndProbe("/topic/greetings");
      probe.session.send("/app/hello", "wsjava");
      assertThat(probe.next()).isEqualTo("hello wsjava");
      probe.session.send("/app/hello", "again");
      assertThat(probe.next()).isEqualTo("hello again");
      assertThat(probe.errors).isEmpty();
      assertThat(probe.session.isConnected()).isTrue();
    }
  }

  @Test
  void sendsToTheBrokerDirectly() throws Exception {
    try (StompProbe a = new StompProbe(); StompProbe b = new StompProbe()) {
      a.connect(url, null, null);
      b.connect(url, null, null);
      a.subscribeAndProbe("/topic/room");
      b.subscribeAndProbe("/topic/room");
      a.received.clear();
      b.session.send("/topic/room", "from b");
      assertThat(a.next()).isEqualTo("from b");
      assertThat(b.next()).isEqualTo("from b");
      assertThat(a.errors).isEmpty();
      assertThat(b.errors).isEmpty();
    }
  }
}
