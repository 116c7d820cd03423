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
  void idsComeInAscendingOrder() {
    List<Case> all = Catalogue.all(false);
    for (int i = 1; i < all.size(); i++) {
      assertThat(compare(all.get(i - 1).id(), all.get(i).id()))
          .as(all.get(i - 1).id() + " before " + all.get(i).id()).isNegative();
    }
  }

  private static int compare(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  @Test
  void theFullSetOnlyAddsLargerGroup9Cases() {
    List<Case> reduced = Catalogue.all(false);
    List<Case> full = Catalogue.all(true);
    assertThat(full.size()).isGreaterThan(reduced.size());
    assertThat(full.stream().filter(c -> c.group() != 9).map(Case::id))
        .containsExactlyElementsOf(reduced.stream().filter(c -> c.group() != 9).map(Case::id)
            .toList());
    assertThat(reduced.size()).as("a catalogue of the reference suite's size").isGreaterThan(400);
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
