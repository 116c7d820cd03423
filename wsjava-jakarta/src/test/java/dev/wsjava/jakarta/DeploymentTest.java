package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.websocket.DeploymentException;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import org.junit.jupiter.api.Test;

/** Annotation scanning: signatures the specification does not allow fail deployment (§4). */
class DeploymentTest {

  @ServerEndpoint("/two-text")
  public static class TwoTextHandlers {
    @OnMessage
    public void a(String s) {}

    @OnMessage
    public void b(String s, Session session) {}
  }

  @ServerEndpoint("/two-messages")
  public static class TwoMessageParameters {
    @OnMessage
    public void a(String s, byte[] b) {}
  }

  @ServerEndpoint("/undecodable")
  public static class Undecodable {
    @OnMessage
    public void a(Thread t) {}
  }

  @ServerEndpoint("/error-without-throwable")
  public static class ErrorWithoutThrowable {
    @OnError
    public void e(Session s) {}
  }

  @ServerEndpoint("/two-opens")
  public static class TwoOpens {
    @OnOpen
    public void a() {}

    @OnOpen
    public void b(Session s) {}
  }

  @ServerEndpoint("/last-on-reader")
  public static class LastOnReader {
    @OnMessage
    public void a(java.io.Reader r, boolean last) {}
  }

  @ServerEndpoint("/pong-returns")
  public static class PongReturns {
    @OnMessage
    public String a(jakarta.websocket.PongMessage p) {
      return "";
    }
  }

  @ServerEndpoint("/same")
  public static class Same {
    @OnMessage
    public void a(String s) {}
  }

  @ServerEndpoint("/{x}")
  public static class ShapeA {
    @OnMessage
    public void a(String s) {}
  }

  @ServerEndpoint("/{y}")
  public static class ShapeB {
    @OnMessage
    public void a(String s) {}
  }

  public static class NotAnnotated {}

  private static void deploy(Class<?>... classes) throws Exception {
    JakartaServer.Builder b = JakartaServer.builder().bind("127.0.0.1", 0);
    for (Class<?> c : classes) {
      b.endpoint(c);
    }
    b.start().close();
  }

  @Test
  void twoTextHandlersAreRefused() {
    assertThatThrownBy(() -> deploy(TwoTextHandlers.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("two @OnMessage methods for text");
  }

  @Test
  void twoMessageParametersAreRefused() {
    assertThatThrownBy(() -> deploy(TwoMessageParameters.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("one message parameter");
  }

  @Test
  void aTypeNoDecoderMakesIsRefused() {
    assertThatThrownBy(() -> deploy(Undecodable.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("no decoder");
  }

  @Test
  void onErrorNeedsAThrowable() {
    assertThatThrownBy(() -> deploy(ErrorWithoutThrowable.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("Throwable");
  }

  @Test
  void twoOnOpenMethodsAreRefused() {
    assertThatThrownBy(() -> deploy(TwoOpens.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("more than one @OnOpen");
  }

  @Test
  void onlyStringBytesAndBuffersComeInParts() {
    assertThatThrownBy(() -> deploy(LastOnReader.class)).isInstanceOf(DeploymentException.class);
  }

  @Test
  void aPongHandlerReturnsNothing() {
    assertThatThrownBy(() -> deploy(PongReturns.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("returns nothing");
  }

  @Test
  void twoEndpointsAtOnePathShapeAreRefused() {
    assertThatThrownBy(() -> deploy(ShapeA.class, ShapeB.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("same path");
  }

  @Test
  void aClassWithoutServerEndpointIsRefused() {
    assertThatThrownBy(() -> deploy(NotAnnotated.class))
        .isInstanceOf(DeploymentException.class).hasMessageContaining("@ServerEndpoint");
  }

  @Test
  void upgradeHttpToWebSocketSaysItNeedsAServletContainer() throws Exception {
    try (JakartaServer s = JakartaServer.builder().bind("127.0.0.1", 0).endpoint(Same.class).start()) {
      assertThatThrownBy(() -> s.container().upgradeHttpToWebSocket(null, null, null, null))
          .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("servlet container");
      assertThatThrownBy(() -> s.container().addEndpoint(Same.class))
          .isInstanceOf(DeploymentException.class).hasMessageContaining("running");
    }
  }
}
