package dev.wsjava.jakarta.internal;

import jakarta.websocket.Extension;
import java.util.ArrayList;
import java.util.List;

/** An extension and its parameters as Jakarta names them, parsed from a header element. */
record JExtension(String getName, List<Extension.Parameter> getParameters) implements Extension {

  record Param(String getName, String getValue) implements Extension.Parameter {}

  /** Parses {@code permessage-deflate; client_max_window_bits=10}. */
  static JExtension parse(String element) {
    String[] parts = element.split(";");
    List<Extension.Parameter> params = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      params.add(eq < 0 ? new Param(p, null) : new Param(p.substring(0, eq).strip(), unquote(p.substring(eq + 1).strip())));
    }
    return new JExtension(parts[0].strip(), List.copyOf(params));
  }

  static List<Extension> parseAll(List<String> elements) {
    List<Extension> out = new ArrayList<>();
    for (String field : elements) {
      for (String e : field.split(",")) {
        if (!e.isBlank()) {
          out.add(parse(e));
        }
      }
    }
    return List.copyOf(out);
  }

  private static String unquote(String v) {
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(getName);
    for (Extension.Parameter p : getParameters) {
      b.append("; ").append(p.getName());
      if (p.getValue() != null) {
        b.append('=').append(p.getValue());
      }
    }
    return b.toString();
  }
}
