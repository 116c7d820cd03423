package dev.wsjava.cli;

import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.IHelpFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's help, wrapped at spaces only. picocli wraps where the JDK's line {@link
 * java.text.BreakIterator} allows a break, and that one allows one after a dot, a colon or a
 * bracket followed by a letter, so "index.json" came out as "index." and "json" on two lines,
 * "net.core.wmem_max" as "net.core." and "wmem_max". Here, while picocli wraps, each ASCII
 * punctuation character stands in as a letter of Latin Extended-A (U+0100 plus its code), at
 * which the iterator does not break, and is put back when the text is rendered (picocli does the
 * same with hyphens). The help's own text holds none of those letters.
 */
final class WholeWordHelp extends Help {
  /** Added to an ASCII punctuation character to make the letter that stands in for it. */
  private static final char LETTER_OFFSET = 0x100;

  /** Makes this help for every command. */
  static final IHelpFactory FACTORY = WholeWordHelp::new;

  private WholeWordHelp(CommandSpec spec, ColorScheme colors) {
    super(spec, colors);
  }

  @Override
  public Layout createDefaultLayout(
      java.util.List<OptionSpec> options, java.util.List<PositionalParamSpec> positionals,
      ColorScheme colors) {
    Layout picocli = super.createDefaultLayout(options, positionals, colors);
    TextTable table = new WholeWordTable(colors, picocli.textTable());
    return new Layout(colors, table, picocli.optionRenderer(), picocli.parameterRenderer());
  }

  @Override
  public String description(Object... params) {
    return paragraphs(commandSpec().usageMessage().description(), params);
  }

  @Override
  public String footer(Object... params) {
    return paragraphs(commandSpec().usageMessage().footer(), params);
  }

  /** Lines of text, each wrapped to the help's width, as picocli's description and footer are. */
  private String paragraphs(String[] lines, Object... params) {
    if (lines.length == 0) {
      return "";
    }
    TextTable table = TextTable.forColumns(colorScheme(),
        new Column(commandSpec().usageMessage().width(), 0, Column.Overflow.WRAP));
    table.indentWrappedLines = 0;
    WholeWordTable whole = new WholeWordTable(colorScheme(), table);
    for (String line : lines) {
      whole.addRowValues(colorScheme().ansi().new Text(String.format(line, params), colorScheme()));
    }
    return whole.toString(new StringBuilder()).toString();
  }

  /** A text table that keeps words whole: see {@link WholeWordHelp}. */
  private static final class WholeWordTable extends TextTable {
    private final ColorScheme colors;

    WholeWordTable(ColorScheme colors, TextTable like) {
      super(colors, like.columns());
      this.colors = colors;
      indentWrappedLines = like.indentWrappedLines;
    }

    @Override
    public Cell putValue(int row, int col, Text value) {
      String plain = value.plainString();
      if (!plain.equals(value.toString())) {
        return super.putValue(row, col, value); // styled text: option names, which do not wrap
      }
      StringBuilder glued = new StringBuilder(plain);
      for (int i = 0; i < glued.length(); i++) {
        char c = glued.charAt(i);
        if (c > ' ' && c < 0x7f && !Character.isLetterOrDigit(c)) {
          glued.setCharAt(i, (char) (c + LETTER_OFFSET));
        }
      }
      return super.putValue(row, col, colors.ansi().new Text(glued.toString(), colors));
    }

    @Override
    public StringBuilder toString(StringBuilder text) {
      int from = text.length();
      super.toString(text);
      for (int i = from; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c > ' ' + LETTER_OFFSET && c < 0x7f + LETTER_OFFSET) {
          text.setCharAt(i, (char) (c - LETTER_OFFSET));
        }
      }
      return text;
    }
  }
}
