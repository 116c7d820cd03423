package dev.wsjava.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogueTest {

  @Test
  void everyCaseHasAUniqueDottedIdADescriptionAndAnExpectation() {
    List<Case> all = Catalogue.all(true);
    Set<String> ids = new HashSet<>();
    for (Case c : all) {
      assertThat(c.id()).matches("\\d+(\\.\\d+)+");
      assertThat(ids.add(c.id())).as("duplicate id " + c.id()).isTrue();
      assertThat(c.description()).isNotBlank();
      assertThat(c.expectation()).startsWith(c.expect().behaviours().get(0).verdict().label());
    }
  }

  @Test
  void groupsComeInOrder() {
    List<Integer> groups = Catalogue.all(false).stream().map(Case::group).toList();
    assertThat(groups).isSorted();
  }

  @Test
  void selectsByGlobAndByPrefix() {
    List<Case> all = Catalogue.all(false);
    assertThat(Catalogue.select(all, List.of("1.1.*"), List.of()))
        .allMatch(c -> c.id().startsWith("1.1.")).isNotEmpty();
    assertThat(Catalogue.select(all, List.of("1.2"), List.of()))
        .allMatch(c -> c.id().startsWith("1.2.")).isNotEmpty();
    assertThat(Catalogue.select(all, List.of("1.1.1"), List.of())).extracting(Case::id)
        .containsExactly("1.1.1");
    assertThat(Catalogue.select(all, List.of("1.*"), List.of("1.1.*", "1.2")))
        .allMatch(c -> c.id().startsWith("1.3.")).isNotEmpty();
    assertThat(Catalogue.select(all, List.of(), List.of())).hasSameSizeAs(all);
  }
}
