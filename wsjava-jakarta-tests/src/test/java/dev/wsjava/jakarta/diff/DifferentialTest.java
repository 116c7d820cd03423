package dev.wsjava.jakarta.diff;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The differential suite: every case of {@link ServerCases} against every container's server, and
 * every case of {@link ClientCases} with every container's client against every server. Writes the
 * table (case, section, one column per container, agree?) to {@code
 * target/jakarta-differential.md}; a row fails only where wsjava differs from the documented
 * expectation (the case's own, or else what Tomcat and Jetty both show). A disagreement between
 * Tomcat and Jetty with no documented expectation fails too, so none goes unexplained.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DifferentialTest {
  /** The reference implementations; wsjava is compared against them. */
  private static final List<String> REFERENCES = List.of("tomcat", "jetty");
  private static final String SUBJECT = "wsjava";

  private final List<Container> containers = Containers.all();
  private final Map<String, URI> bases = new LinkedHashMap<>();
  private final List<Row> rows = new ArrayList<>();

  /** One line of the table. */
  record Row(String id, String section, String title, Map<String, String> seen, String expect,
      String why) {
    boolean agree() {
      return seen.values().stream().distinct().count() == 1;
    }
  }

  @BeforeAll
  void start() throws Exception {
    for (Container c : containers) {
      bases.put(c.name(), c.start(Endpoints.ANNOTATED, Endpoints.programmatic()));
    }
  }

  @AfterAll
  void stop() throws Exception {
    try {
      writeReport();
    } finally {
      for (Container c : containers) {
        c.stop();
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> serverSide() {
    return ServerCases.all().stream().map(c -> DynamicTest.dynamicTest(c.id() + " §"
        + c.section() + " " + c.title(), () -> {
          Map<String, String> seen = new LinkedHashMap<>();
          for (Container server : containers) {
            seen.put(server.name(), run(c, bases.get(server.name()), null));
          }
          check(record(c.id(), c, seen));
        }));
  }

  @TestFactory
  Stream<DynamicTest> clientSide() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case c : ClientCases.all()) {
      for (Container server : containers) {
        tests.add(DynamicTest.dynamicTest(c.id() + "@" + server.name() + " §" + c.section() + " "
            + c.title(), () -> {
              Map<String, String> seen = new LinkedHashMap<>();
              for (Container client : containers) {
                seen.put(client.name(), run(c, bases.get(server.name()), client));
              }
              check(record(c.id() + "@" + server.name(), c, seen));
            }));
      }
    }
    return tests.stream();
  }

  /** A case that takes longer than this is recorded as "HUNG" (and its thread abandoned). */
  private static final long CASE_LIMIT_SECONDS = 12;

  private static String run(Case c, URI base, Container client) {
    FutureTask<String> task = new FutureTask<>(() -> {
      try {
        Probe probe = new Probe(base, client == null ? null : client.client());
        return c.script().run(probe).replace('\n', ' ');
      } catch (Exception | AssertionError e) {
        return "EXCEPTION:" + Throwables.name(e);
      }
    });
    Thread t = new Thread(task, "case-" + c.id());
    t.setDaemon(true);
    t.start();
    try {
      return task.get(CASE_LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      t.interrupt();
      return "HUNG";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "INTERRUPTED";
    } catch (ExecutionException e) {
      return "EXCEPTION:" + Throwables.name(e.getCause());
    }
  }

  private synchronized Row record(String id, Case c, Map<String, String> seen) {
    Expectations.Expect documented = Expectations.BY_CASE.get(c.id());
    String expect = documented == null ? null : documented.value();
    if (expect == null) {
      String tomcat = seen.get("tomcat");
      expect = tomcat != null && tomcat.equals(seen.get("jetty")) ? tomcat : null;
    }
    Row row = new Row(id, c.section(), c.title(), seen, expect,
        documented == null ? null : documented.why());
    rows.add(row);
    return row;
  }

  private static void check(Row row) {
    if (row.expect() == null) {
      fail(row.id() + ": Tomcat and Jetty disagree and the case documents no expectation: "
          + row.seen());
    }
    String subject = row.seen().get(SUBJECT);
    if (subject != null && !new Expectations.Expect(row.expect(), null).matches(subject)) {
      fail(row.id() + " §" + row.section() + " " + row.title() + ": wsjava saw\n  " + subject
          + "\nexpected\n  " + row.expect() + (row.why() == null ? "" : "\n(" + row.why() + ")")
          + "\nreferences: " + row.seen());
    }
  }

  private void writeReport() throws IOException {
    List<String> names = containers.stream().map(Container::name).toList();
    StringBuilder md = new StringBuilder("| case | spec § | what | ");
    md.append(String.join(" | ", names)).append(" | agree? |\n|---|---|---|");
    md.append("---|".repeat(names.size())).append("---|\n");
    int agree = 0;
    int documented = 0;
    int subjectMatches = 0;
    for (Row r : rows) {
      md.append("| ").append(r.id()).append(" | ").append(r.section()).append(" | ")
          .append(cell(r.title())).append(" | ");
      for (String n : names) {
        md.append(cell(r.seen().get(n))).append(" | ");
      }
      String verdict;
      if (r.agree()) {
        verdict = "yes";
        agree++;
      } else if (r.why() != null) {
        verdict = "documented";
        documented++;
      } else {
        verdict = "NO";
      }
      if (r.expect() != null && new Expectations.Expect(r.expect(), null).matches(
          r.seen().get(SUBJECT))) {
        subjectMatches++;
      }
      md.append(verdict).append(" |\n");
    }
    String summary = "rows " + rows.size() + ", all agree " + agree
        + ", differences with a documented expectation " + documented
        + (names.contains(SUBJECT) ? ", wsjava as expected " + subjectMatches : "") + "\n\n";
    Path dir = Path.of("target");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("jakarta-differential.md"), summary + md);
    System.out.println("jakarta differential: " + summary.trim() + " -> "
        + dir.resolve("jakarta-differential.md").toAbsolutePath());
  }

  private static String cell(String s) {
    if (s == null) {
      return "-";
    }
    String t = s.replace("|", "\\|");
    return t.length() > 160 ? t.substring(0, 157) + "..." : t;
  }
}
