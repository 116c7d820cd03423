package dev.wsjava.extension;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Test shorthand: header elements written as text ({@code permessage-deflate; a; b=1; c="15"}),
 * with commas between elements. Only as much syntax as the tables need; quoted values must not
 * contain commas or semicolons. The real header parser lives elsewhere.
 */
final class Elements {
  private Elements() {}

  static List<ExtensionOffer> list(String header) {
    List<ExtensionOffer> out = new ArrayList<>();
    for (String element : header.split(",")) {
      out.add(element(element));
    }
    return out;
  }

  static ExtensionOffer element(String text) {
    String[] parts = text.split(";");
    List<ExtensionOffer.Param> params = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      int eq = p.indexOf('=');
      if (eq < 0) {
        params.add(new ExtensionOffer.Param(p, null));
      } else {
        String value = p.substring(eq + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        params.add(new ExtensionOffer.Param(p.substring(0, eq).trim(), value));
      }
    }
    return new ExtensionOffer(parts[0].trim(), params);
  }

  static String format(ExtensionOffer element) {
    StringBuilder sb = new StringBuilder(element.name());
    for (ExtensionOffer.Param p : element.params()) {
      sb.append("; ").append(p.name());
      if (p.value() != null) {
        sb.append('=').append(p.value());
      }
    }
    return sb.toString();
  }

  static String format(List<ExtensionOffer> elements) {
    return elements.stream().map(Elements::format).collect(Collectors.joining(", "));
  }
}
