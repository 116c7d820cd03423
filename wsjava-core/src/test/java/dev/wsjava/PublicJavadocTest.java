package dev.wsjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published Javadoc names no type a user cannot reach: in the exported packages
 * ({@code module-info}), no comment of a public type links to ({@code @link}, {@code @linkplain},
 * {@code @see}, {@code @throws}) or names in full a type of an unexported package (internal,
 * transport, session, handshake, protocol, proxy, events), or a package-private type. Signatures
 * need no check here: the compiler's {@code -Xlint:exports} (with {@code -Werror}) refuses an
 * exported member whose signature names an unexported type. Comments on private members are
 * skipped (they are not published).
 */
class PublicJavadocTest {
  static final Path SOURCES = Path.of("src/main/java");
  static final List<String> EXPORTED = List.of("dev.wsjava", "dev.wsjava.http", "dev.wsjava.extension");
  static final Pattern INTERNAL =
      Pattern.compile("dev\\.wsjava\\.(internal|transport|session|handshake|protocol|proxy|events)\\.");
  static final Pattern REFERENCE =
      Pattern.compile("(?:\\{@link(?:plain)?\\s+|@see\\s+|@throws\\s+)([A-Za-z_][\\w.]*)");
  static final Pattern COMMENT = Pattern.compile("/\\*\\*(.*?)\\*/\\s*([^\\n]*)", Pattern.DOTALL);
  static final Pattern IMPORT = Pattern.compile("^import\\s+([\\w.]+)\\.(\\w+);", Pattern.MULTILINE);

  @Test
  void theExportedPackagesJavadocNamesNoInternalType() throws IOException {
    String moduleInfo = Files.readString(SOURCES.resolve("module-info.java"));
    List<String> exported = new ArrayList<>();
    Matcher e = Pattern.compile("^\\s*exports\\s+([\\w.]+);", Pattern.MULTILINE).matcher(moduleInfo);
    while (e.find()) {
      exported.add(e.group(1));
    }
    assertThat(exported).as("the exported packages this check knows").isEqualTo(EXPORTED);
    List<String> offenders = new ArrayList<>();
    for (String pkg : exported) {
      Path dir = SOURCES.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
          check(pkg, dir, f, offenders);
        }
      }
    }
    assertThat(offenders).as("public Javadoc naming types users cannot reach").isEmpty();
  }

  private static void check(String pkg, Path dir, Path file, List<String> offenders) throws IOException {
    String src = Files.readString(file);
    String name = file.getFileName().toString().replace(".java", "");
    if (!name.equals("package-info") && !isPublic(src, name)) {
      return; // not published
    }
    Map<String, String> imports = new HashMap<>();
    Matcher im = IMPORT.matcher(src);
    while (im.find()) {
      imports.put(im.group(2), im.group(1) + "." + im.group(2));
    }
    Matcher c = COMMENT.matcher(src);
    while (c.find()) {
      String comment = c.group(1).replaceAll("\n\\s*\\*", "\n"); // without the margin's stars
      String declaration = c.group(2).trim();
      if (declaration.startsWith("private ") || declaration.contains(" private ")) {
        continue;
      }
      String where = file.getFileName() + " (before: " + declaration + ")";
      Matcher full = INTERNAL.matcher(comment);
      if (full.find()) {
        offenders.add(where + ": names " + full.group() + "…");
      }
      Matcher r = REFERENCE.matcher(comment);
      while (r.find()) {
        String ref = r.group(1);
        String first = ref.contains(".") ? ref.substring(0, ref.indexOf('.')) : ref;
        String qualified = imports.get(first);
        if (qualified != null && INTERNAL.matcher(qualified + ".").lookingAt()) {
          offenders.add(where + ": links " + ref + " (" + qualified + ")");
        } else if (qualified == null && !ref.contains(".") && Files.exists(dir.resolve(first + ".java"))
            && !isPublic(Files.readString(dir.resolve(first + ".java")), first)) {
          offenders.add(where + ": links " + ref + ", not public in " + pkg);
        }
      }
    }
  }

  private static boolean isPublic(String source, String type) {
    return Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|enum|record|@interface)\\s+"
                + type + "\\b",
            Pattern.MULTILINE)
        .matcher(source)
        .find();
  }
}
