package dev.wsjava.conformance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The command lines of the two runners: {@code --name value} options and {@code --flag}s. */
final class Args {
  private final Map<String, String> values = new HashMap<>();

  /** A command line that cannot be understood; the runners exit with status 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private Args() {}

  /**
   * Parses a command line.
   *
   * @param args the arguments
   * @param options the names that take a value
   * @param flags the names that do not
   * @return the parsed arguments
   * @throws UsageException on an unknown name or a missing value
   */
  static Args parse(String[] args, Set<String> options, Set<String> flags) throws UsageException {
    Args a = new Args();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (flags.contains(name) && value == null) {
        a.values.put(name, "true");
      } else if (options.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException(name + " needs a value");
          }
          value = args[++i];
        }
        a.values.put(name, value);
      } else {
        throw new UsageException("unknown argument: " + arg);
      }
    }
    return a;
  }

  String get(String name, String otherwise) {
    return values.getOrDefault(name, otherwise);
  }

  boolean flag(String name) {
    return values.containsKey(name);
  }

  int integer(String name, int otherwise) throws UsageException {
    String v = values.get(name);
    try {
      return v == null ? otherwise : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " needs a number, got " + v);
    }
  }

  double decimal(String name, double otherwise) throws UsageException {
    String v = values.get(name);
    try {
      return v == null ? otherwise : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " needs a number, got " + v);
    }
  }

  /** A comma-separated list; empty when absent. */
  List<String> list(String name) {
    List<String> out = new ArrayList<>();
    for (String s : values.getOrDefault(name, "").split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }
}
