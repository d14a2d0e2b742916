package dev.parquetconnect.cli;

/**
 * The pieces of JSON text the commands print: escaped strings and numbers, with the values JSON has
 * no number for (NaN, the infinities) printed as strings.
 */
final class Json {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Json() {}

  /** Appends {@code s} as a JSON string (quotes included). */
  static void appendString(StringBuilder out, CharSequence s) {
    out.append('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          // Control characters must be escaped; U+2028/9 too, as some JSON-lines readers
          // (JavaScript's) take them for line ends.
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            appendUnicodeEscape(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void appendUnicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }

  static String quote(CharSequence s) {
    StringBuilder out = new StringBuilder(s.length() + 2);
    appendString(out, s);
    return out.toString();
  }

  static void appendFloat(StringBuilder out, float f) {
    if (Float.isFinite(f)) {
      out.append(f);
    } else {
      appendNonFinite(out, f);
    }
  }

  static void appendDouble(StringBuilder out, double d) {
    if (Double.isFinite(d)) {
      out.append(d);
    } else {
      appendNonFinite(out, d);
    }
  }

  /** NaN and the infinities have no JSON number: they print as the strings Java names them. */
  private static void appendNonFinite(StringBuilder out, double d) {
    out.append(Double.isNaN(d) ? "\"NaN\"" : d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  }
}
