package dev.wsjava.jakarta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wsjava.jakarta.internal.UriTemplate;
import jakarta.websocket.DeploymentException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UriTemplateTest {

  private static String winner(String path, String... templates) throws DeploymentException {
    List<UriTemplate> list = new ArrayList<>();
    for (String t : templates) {
      list.add(UriTemplate.parse(t));
    }
    list.sort(UriTemplate::byPrecedence);
    for (UriTemplate t : list) {
      if (t.match(path) != null) {
        return t.path();
      }
    }
    return null;
  }

  @Test
  void anExactPathBeatsEveryTemplate() throws Exception {
    assertThat(winner("/a/b", "/{x}/{y}", "/a/{y}", "/a/b")).isEqualTo("/a/b");
  }

  @Test
  void aLiteralInTheFirstDifferingSegmentWins() throws Exception {
    // §3.1.1: /a/{x} beats /{y}/b for /a/b, whatever order they were deployed in
    assertThat(winner("/a/b", "/{y}/b", "/a/{x}")).isEqualTo("/a/{x}");
    assertThat(winner("/a/b", "/a/{x}", "/{y}/b")).isEqualTo("/a/{x}");
    assertThat(winner("/a/b/c", "/a/{x}/c", "/a/b/{y}")).isEqualTo("/a/b/{y}");
  }

  @Test
  void aTemplateMatchesOnlyTheSameNumberOfSegments() throws Exception {
    assertThat(winner("/a/b/c", "/a/{x}")).isNull();
    assertThat(winner("/a", "/a/{x}")).isNull();
  }

  @Test
  void variablesAreDecodedAndAnEmptySegmentDoesNotMatch() throws Exception {
    UriTemplate t = UriTemplate.parse("/rooms/{room}/{user}");
    assertThat(t.match("/rooms/lobby%20one/ann")).isEqualTo(Map.of("room", "lobby one", "user", "ann"));
    assertThat(t.match("/rooms//ann")).isNull();
    assertThat(t.variables()).containsExactly("room", "user");
  }

  @Test
  void theRootMatchesOnlyTheRoot() throws Exception {
    assertThat(UriTemplate.parse("/").match("/")).isEmpty();
    assertThat(UriTemplate.parse("/").match("/a")).isNull();
  }

  @Test
  void malformedTemplatesAreDeploymentErrors() {
    assertThatThrownBy(() -> UriTemplate.parse("chat")).isInstanceOf(DeploymentException.class);
    assertThatThrownBy(() -> UriTemplate.parse("/a/{x}/{x}")).hasMessageContaining("twice");
    assertThatThrownBy(() -> UriTemplate.parse("/a/b{x}")).hasMessageContaining("literal");
    assertThatThrownBy(() -> UriTemplate.parse("/a//b")).hasMessageContaining("empty");
    assertThatThrownBy(() -> UriTemplate.parse("/a?x=1")).hasMessageContaining("query");
  }

  @Test
  void templatesOfTheSameShapeClash() throws Exception {
    assertThat(UriTemplate.parse("/a/{x}").sameShape(UriTemplate.parse("/a/{y}"))).isTrue();
    assertThat(UriTemplate.parse("/a/{x}").sameShape(UriTemplate.parse("/b/{y}"))).isFalse();
  }
}
