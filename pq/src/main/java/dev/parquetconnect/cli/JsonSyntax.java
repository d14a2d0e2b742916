package dev.parquetconnect.cli;

/**
 * Checks that a text is exactly one JSON value (RFC 8259), so a JSON-annotated column can be
 * embedded in {@code pq cat}'s output as JSON rather than as a string holding JSON. Nesting is
 * bounded so a hostile value cannot exhaust the stack; deeper values count as not JSON and are
 * printed as strings.
 */
final class JsonSyntax {
  static final int MAX_DEPTH = 512;

  private final String text;
  private int pos;

  private JsonSyntax(String text) {
    this.text = text;
  }

  static boolean isValid(String text) {
    JsonSyntax parser = new JsonSyntax(text);
    try {
      parser.skipWhitespace();
      parser.value(0);
      parser.skipWhitespace();
      return parser.pos == text.length();
    } catch (Invalid e) {
      return false;
    }
  }

  /**
   * {@code text}, valid JSON, on one line: outside strings a line break is only whitespace, and
   * inside strings JSON forbids raw ones, so every line break can become a space.
   */
  static String onOneLine(String validJson) {
    return validJson.indexOf('\n') < 0 && validJson.indexOf('\r') < 0
        ? validJson
        : validJson.replace('\n', ' ').replace('\r', ' ');
  }

  /** Thrown to unwind on the first syntax error; carries nothing, so it is shared. */
  private static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;
    static final Invalid INSTANCE = new Invalid();

    private Invalid() {
      super(null, null, false, false);
    }
  }

  private void value(int depth) throws Invalid {
    if (depth > MAX_DEPTH || pos >= text.length()) {
      throw Invalid.INSTANCE;
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{' -> object(depth);
      case '[' -> array(depth);
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> number();
    }
  }

  private void object(int depth) throws Invalid {
    pos++;
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw Invalid.INSTANCE;
      }
      string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      value(depth + 1);
      skipWhitespace();
      char c = next();
      if (c == '}') {
        return;
      }
      if (c != ',') {
        throw Invalid.INSTANCE;
      }
    }
  }

  private void array(int depth) throws Invalid {
    pos++;
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return;
    }
    while (true) {
      skipWhitespace();
      value(depth + 1);
      skipWhitespace();
      char c = next();
      if (c == ']') {
        return;
      }
      if (c != ',') {
        throw Invalid.INSTANCE;
      }
    }
  }

  private void string() throws Invalid {
    pos++; // the opening quote
    while (true) {
      char c = next();
      if (c == '"') {
        return;
      }
      if (c < 0x20) {
        throw Invalid.INSTANCE;
      }
      if (c == '\\') {
        char e = next();
        switch (e) {
          case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {}
          case 'u' -> {
            for (int i = 0; i < 4; i++) {
              if (Character.digit(next(), 16) < 0) {
                throw Invalid.INSTANCE;
              }
            }
          }
          default -> throw Invalid.INSTANCE;
        }
      }
    }
  }

  private void number() throws Invalid {
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else {
      digits();
    }
    if (peek() == '.') {
      pos++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      digits();
    }
  }

  private void digits() throws Invalid {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == start) {
      throw Invalid.INSTANCE;
    }
  }

  private void literal(String word) throws Invalid {
    if (!text.startsWith(word, pos)) {
      throw Invalid.INSTANCE;
    }
    pos += word.length();
  }

  private void expect(char c) throws Invalid {
    if (next() != c) {
      throw Invalid.INSTANCE;
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private char next() throws Invalid {
    if (pos >= text.length()) {
      throw Invalid.INSTANCE;
    }
    return text.charAt(pos++);
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }
}
