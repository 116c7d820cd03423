package dev.wsjava.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The reports of one run: {@code index.json} (one object per case, with the frames exchanged) and
 * {@code index.html} (one self-contained page: a table a person can read, a summary per group, and
 * the frames of a case shown when its row is clicked). Stateless and thread-safe.
 */
public final class Report {
  private Report() {}

  /**
   * Writes {@code index.json} and {@code index.html} into a directory (created if needed).
   *
   * @param dir the directory
   * @param agent the name of the peer under test
   * @param results the results, in catalogue order
   * @throws IOException when writing fails
   */
  public static void write(Path dir, String agent, List<Result> results) throws IOException {
    Files.createDirectories(dir);
    String json = json(results);
    Files.writeString(dir.resolve("index.json"), json, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("index.html"), html(agent, results, json), StandardCharsets.UTF_8);
  }

  /**
   * Counts the verdicts.
   *
   * @param results the results
   * @return for example {@code 512 cases: 500 OK, 12 NON-STRICT, 0 FAILED}
   */
  public static String summary(List<Result> results) {
    Map<Verdict, Long> counts = counts(results);
    return results.size() + " cases: " + counts.entrySet().stream()
        .filter(e -> e.getValue() > 0 || e.getKey() == Verdict.FAILED)
        .map(e -> e.getValue() + " " + e.getKey().label())
        .collect(Collectors.joining(", "));
  }

  private static Map<Verdict, Long> counts(List<Result> results) {
    Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
    for (Verdict v : Verdict.values()) {
      counts.put(v, 0L);
    }
    results.forEach(r -> counts.merge(r.verdict(), 1L, Long::sum));
    return counts;
  }

  /**
   * Formats the results as a JSON array, one object per case.
   *
   * @param results the results
   * @return the JSON text
   */
  public static String json(List<Result> results) {
    Json j = new Json().beginArray();
    for (Result r : results) {
      j.beginObject()
          .field("id", r.id())
          .field("group", r.group())
          .field("groupTitle", Catalogue.groupTitle(r.group()))
          .field("description", r.description())
          .field("expectation", r.expectation())
          .field("verdict", r.verdict().label())
          .field("behaviour", r.behaviour().label())
          .field("behaviourClose", r.closeBehaviour().label())
          .field("reason", r.reason())
          .field("durationMs", r.durationMs())
          .field("closedBy", r.closedBy())
          .field("peerCloseCode", r.peerCloseCode())
          .field("peerCloseReason", r.peerCloseReason())
          .field("suiteCloseCode", r.suiteCloseCode())
          .field("clean", r.clean())
          .name("frames").beginArray();
      for (FrameRecord f : r.frames()) {
        j.beginObject()
            .field("dir", f.out() ? "out" : "in")
            .field("ms", f.ms())
            .field("opcode", f.opcode())
            .field("type", f.opcodeName())
            .field("fin", f.fin())
            .field("rsv", f.rsv())
            .field("masked", f.masked())
            .field("length", f.length())
            .field("head", f.head())
            .field("note", f.note())
            .endObject();
      }
      j.endArray().field("framesOmitted", r.framesOmitted()).endObject();
    }
    return j.endArray().toString();
  }

  private static String html(String agent, List<Result> results, String json) {
    StringBuilder h = new StringBuilder(64 * 1024);
    h.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(esc("wsjava conformance: " + agent)).append("</title>\n<style>\n")
        .append("body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}")
        .append("table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}")
        .append("th{background:#eee}tr.case{cursor:pointer}tr.case:hover{background:#f4f8ff}")
        .append(".OK{background:#cfc}.NON-STRICT{background:#ffd27f}")
        .append(".INFORMATIONAL{background:#cde}.UNIMPLEMENTED{background:#ddd}")
        .append(".FAILED{background:#f99}.num{text-align:right}")
        .append("td.detail{background:#fafafa}code,pre{font:12px monospace}")
        .append("</style></head><body>\n<h1>")
        .append(esc("wsjava conformance: " + agent)).append("</h1>\n<p>")
        .append(esc(summary(results))).append(" &middot; ").append(esc(Instant.now().toString()))
        .append("</p>\n<h2>By group</h2>\n<table><tr><th>group</th><th>title</th>");
    for (Verdict v : Verdict.values()) {
      h.append("<th class=\"").append(v.label()).append("\">").append(v.label()).append("</th>");
    }
    h.append("</tr>\n");
    Map<Integer, List<Result>> groups = new TreeMap<>(
        results.stream().collect(Collectors.groupingBy(Result::group)));
    groups.forEach((g, rs) -> {
      h.append("<tr><td>").append(g).append("</td><td>").append(esc(Catalogue.groupTitle(g)))
          .append("</td>");
      counts(rs).forEach((v, n) -> h.append("<td class=\"num").append(n > 0 ? " " + v.label() : "")
          .append("\">").append(n).append("</td>"));
      h.append("</tr>\n");
    });
    h.append("</table>\n<h2>Cases</h2>\n<p>Click a row for the expectation, the reason and the")
        .append(" frames exchanged.</p>\n<table id=\"cases\"><tr><th>id</th><th>description</th>")
        .append("<th>verdict</th><th>behaviour</th><th>close</th><th>close behaviour</th>")
        .append("<th>ms</th></tr>\n");
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      h.append("<tr class=\"case\" data-i=\"").append(i).append("\"><td>").append(esc(r.id()))
          .append("</td><td>").append(esc(r.description())).append("</td><td class=\"")
          .append(r.verdict().label()).append("\">").append(r.verdict().label())
          .append("</td><td class=\"").append(r.behaviour().label()).append("\">")
          .append(r.behaviour().label()).append("</td><td class=\"")
          .append(r.closeBehaviour().label()).append("\">").append(r.closeBehaviour().label())
          .append("</td><td>").append(esc(closeText(r))).append("</td><td class=\"num\">")
          .append(r.durationMs()).append("</td></tr>\n");
    }
    h.append("</table>\n<script type=\"application/json\" id=\"data\">").append(json)
        .append("</script>\n<script>\n").append(SCRIPT).append("</script>\n</body></html>\n");
    return h.toString();
  }

  private static String closeText(Result r) {
    StringBuilder s = new StringBuilder("closed by ").append(r.closedBy());
    if (r.peerCloseCode() != null) {
      s.append(", peer code ").append(Expect.CloseRule.codeName(r.peerCloseCode()));
    }
    if (r.suiteCloseCode() != null) {
      s.append(", suite code ").append(Expect.CloseRule.codeName(r.suiteCloseCode()));
    }
    return s.append(r.clean() ? ", clean" : ", not clean").toString();
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static final String SCRIPT = """
      const data = JSON.parse(document.getElementById('data').textContent);
      function text(s) { const d = document.createElement('div'); d.textContent = s; return d.innerHTML; }
      document.getElementById('cases').addEventListener('click', e => {
        const row = e.target.closest('tr.case');
        if (!row) return;
        const next = row.nextElementSibling;
        if (next && next.classList.contains('open')) { next.remove(); return; }
        const c = data[+row.dataset.i];
        let h = '<p><b>Expectation:</b> ' + text(c.expectation) + '</p>';
        if (c.reason) h += '<p><b>Reason:</b> ' + text(c.reason) + '</p>';
        h += '<table><tr><th>ms</th><th>dir</th><th>type</th><th>fin</th><th>rsv</th>'
          + '<th>mask</th><th>length</th><th>payload (hex, first bytes)</th><th>note</th></tr>';
        for (const f of c.frames) {
          h += '<tr><td class="num">' + f.ms + '</td><td>' + (f.dir === 'out' ? 'suite &rarr;' : '&larr; peer')
            + '</td><td>' + text(f.type) + '</td><td>' + (f.opcode < 0 ? '' : f.fin ? 1 : 0)
            + '</td><td>' + (f.opcode < 0 ? '' : f.rsv) + '</td><td>' + (f.opcode < 0 ? '' : f.masked ? 1 : 0)
            + '</td><td class="num">' + f.length + '</td><td><code>' + text(f.head) + '</code></td><td>'
            + text(f.note) + '</td></tr>';
        }
        h += '</table>';
        if (c.framesOmitted) h += '<p>' + c.framesOmitted + ' more frames not recorded.</p>';
        const tr = document.createElement('tr');
        tr.className = 'open';
        tr.innerHTML = '<td class="detail" colspan="7">' + h + '</td>';
        row.after(tr);
      });
      """;
}
