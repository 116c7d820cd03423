package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The case catalogue both runners play, in order: groups 1-7, 9, 10, 12 and 13, numbered as the
 * reference suite numbers its groups. Cases are built afresh on each call (they hold payloads);
 * a case may be run by several threads at once. Stateless and thread-safe.
 */
public final class Catalogue {
  private Catalogue() {}

  /**
   * Returns every case.
   *
   * @param full true for group 9's full size set (up to 16 MiB), false for the reduced one (up to
   *     1 MiB)
   * @return the cases in catalogue order
   */
  public static List<Case> all(boolean full) {
    List<Case> out = new ArrayList<>();
    out.addAll(Group1Framing.cases());
    out.addAll(Group2PingPong.cases());
    out.addAll(Group3ReservedBits.cases());
    out.addAll(Group4Opcodes.cases());
    out.addAll(Group5Fragmentation.cases());
    out.addAll(Group6Utf8.cases());
    out.addAll(Group7Close.cases());
    out.addAll(Group9Limits.cases(full));
    out.addAll(Group10AutoFragmentation.cases());
    out.addAll(Group12Deflate.cases());
    out.addAll(Group13DeflateParameters.cases());
    return List.copyOf(out);
  }

  /**
   * Returns a group's title.
   *
   * @param group the group number
   * @return for example {@code Framing}
   */
  public static String groupTitle(int group) {
    return switch (group) {
      case 1 -> "Framing";
      case 2 -> "Pings and pongs";
      case 3 -> "Reserved bits";
      case 4 -> "Opcodes";
      case 5 -> "Fragmentation";
      case 6 -> "UTF-8 handling";
      case 7 -> "Close handling";
      case 9 -> "Limits and performance";
      case 10 -> "Auto-fragmentation";
      case 12 -> "permessage-deflate: payloads";
      case 13 -> "permessage-deflate: parameters";
      default -> "Group " + group;
    };
  }

  /**
   * Keeps the cases whose id matches one of {@code include} (all when it is empty) and none of
   * {@code exclude}. A pattern is a glob ({@code *} any characters, {@code ?} one); a pattern
   * without wildcards also selects the cases below it ({@code 6.4} selects {@code 6.4.1}).
   *
   * @param cases the cases
   * @param include the patterns to keep; empty for all
   * @param exclude the patterns to drop
   * @return the selected cases, in order
   */
  public static List<Case> select(List<Case> cases, List<String> include, List<String> exclude) {
    List<Pattern> in = include.stream().map(Catalogue::glob).toList();
    List<Pattern> ex = exclude.stream().map(Catalogue::glob).toList();
    return cases.stream()
        .filter(c -> in.isEmpty() || in.stream().anyMatch(g -> g.matcher(c.id()).matches()))
        .filter(c -> ex.stream().noneMatch(g -> g.matcher(c.id()).matches()))
        .toList();
  }

  private static Pattern glob(String pattern) {
    StringBuilder re = new StringBuilder();
    for (char ch : pattern.trim().toCharArray()) {
      switch (ch) {
        case '*' -> re.append(".*");
        case '?' -> re.append('.');
        default -> re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    if (pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0) {
      re.append("(\\..*)?");
    }
    return Pattern.compile(re.toString());
  }
}
