// Counts the public types of the packages a module exports, from its compiled classes.
// Usage (after a build): java bin/PublicApiCount.java wsjava-core/target/classes
// Prints, per exported package, the public top-level types and the public nested ones (those
// whose enclosing classes are all public), then the totals. docs/ARCHITECTURE.md quotes it.
import java.lang.reflect.Modifier;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class PublicApiCount {
  public static void main(String[] a) throws Exception {
    Path root = Path.of(a[0]);
    URLClassLoader cl = new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
    var md = java.lang.module.ModuleFinder.of(root).findAll().iterator().next().descriptor();
    List<String> exported = md.exports().stream().filter(e -> !e.isQualified()).map(e -> e.source()).sorted().toList();
    int top = 0, nested = 0;
    for (String p : exported) {
      Path dir = root.resolve(p.replace('.', '/'));
      List<String> tops = new ArrayList<>(), nests = new ArrayList<>();
      try (var s = Files.list(dir)) {
        for (Path f : s.filter(x -> x.toString().endsWith(".class")).sorted().toList()) {
          String n = f.getFileName().toString().replace(".class", "");
          if (n.equals("package-info")) continue;
          Class<?> c = Class.forName(p + "." + n, false, cl);
          if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) continue;
          boolean vis = true;
          for (Class<?> k = c; k != null; k = k.getDeclaringClass()) vis &= Modifier.isPublic(k.getModifiers());
          if (!vis) continue;
          if (c.getDeclaringClass() == null) tops.add(c.getSimpleName()); else nests.add(c.getName().substring(p.length() + 1).replace('$', '.'));
        }
      }
      System.out.printf("%-22s %2d top-level  %2d nested  %s | nested: %s%n", p, tops.size(), nests.size(), tops, nests);
      top += tops.size(); nested += nests.size();
    }
    System.out.printf("exported packages %d, public top-level %d, public nested %d%n", exported.size(), top, nested);
  }
}
