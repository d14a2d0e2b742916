package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this package needs for the schemas it keeps in a file's key/value metadata and
 * for header values, without a JSON library on the plugin's class path (the worker's Jackson is not
 * visible to an isolated plugin, and shipping our own would clash with others').
 *
 * <p>The model is plain Java: {@code null}, {@code Boolean}, {@code String}, {@code BigDecimal} for
 * every number (exact, so no digit is lost between writer and reader), {@code List} and
 * insertion-ordered {@code Map<String, Object>}. {@link #parse} reads text from files other tools
 * may have written, so it is strict and bounded: nesting depth is capped and any malformed input is
 * an {@link IllegalArgumentException} naming the position.
 */
final class Json {
  /** Deep enough for any real schema; shallow enough that a hostile file cannot blow the stack. */
  static final int MAX_DEPTH = 256;

  private Json() {}

  // ---- writing

  /** Appends {@code value} (of the model above, or any {@code Number}) as JSON text. */
  static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      writeString(s, out);
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof BigDecimal d) {
      out.append(d.toString());
    } else if (value instanceof Number n) {
      out.append(n.toString());
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      String sep = "";
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.append(sep);
        writeString((String) e.getKey(), out);
        out.append(':');
        write(e.getValue(), out);
        sep = ",";
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      String sep = "";
      for (Object e : list) {
        out.append(sep);
        write(e, out);
        sep = ",";
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }
  }

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  static void writeString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
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
          // Control characters and lone surrogates are escaped, so the text is valid UTF-8
          // whatever the string holds and parses back to the same chars.
          if (c < 0x20 || Character.isSurrogate(c) && !isPairedSurrogate(s, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean isPairedSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  // ---- parsing

  /** The value {@code text} holds; {@link IllegalArgumentException} for anything malformed. */
  static Object parse(String text) {
    Parser p = new Parser(text);
    p.skipSpace();
    Object value = p.value(0);
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("unexpected text after the value");
    }
    return value;
  }

  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nesting deeper than " + MAX_DEPTH);
      }
      if (pos >= text.length()) {
        throw error("unexpected end");
      }
      char c = text.charAt(pos);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          literal("true");
          return Boolean.TRUE;
        case 'f':
          literal("false");
          return Boolean.FALSE;
        case 'n':
          literal("null");
          return null;
        default:
          if (c == '-' || c >= '0' && c <= '9') {
            return number();
          }
          throw error("unexpected character '" + c + "'");
      }
    }

    private Map<String, Object> object(int depth) {
      pos++;
      Map<String, Object> map = new LinkedHashMap<>();
      skipSpace();
      if (peek() == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipSpace();
        if (peek() != '"') {
          throw error("expected a member name");
        }
        String name = string();
        skipSpace();
        expect(':');
        skipSpace();
        if (map.containsKey(name)) {
          throw error("duplicate member " + name);
        }
        map.put(name, value(depth + 1));
        skipSpace();
        char c = next();
        if (c == '}') {
          return map;
        }
        if (c != ',') {
          throw error("expected ',' or '}'");
        }
      }
    }

    private List<Object> array(int depth) {
      pos++;
      List<Object> list = new ArrayList<>();
      skipSpace();
      if (peek() == ']') {
        pos++;
        return list;
      }
      while (true) {
        skipSpace();
        list.add(value(depth + 1));
        skipSpace();
        char c = next();
        if (c == ']') {
          return list;
        }
        if (c != ',') {
          throw error("expected ',' or ']'");
        }
      }
    }

    private String string() {
      pos++; // the opening quote
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c < 0x20) {
          throw error("control character in a string");
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            if (pos + 4 > text.length()) {
              throw error("truncated \\u escape");
            }
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = Character.digit(text.charAt(pos++), 16);
              if (digit < 0) {
                throw error("bad \\u escape");
              }
              code = code * 16 + digit;
            }
            out.append((char) code);
          }
          default -> throw error("bad escape \\" + e);
        }
      }
    }

    private BigDecimal number() {
      int start = pos;
      if (peek() == '-') {
        pos++;
      }
      while (pos < text.length() && "0123456789.eE+-".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
      String digits = text.substring(start, pos);
      try {
        return new BigDecimal(digits);
      } catch (NumberFormatException e) {
        pos = start;
        throw error("bad number " + digits);
      }
    }

    private void literal(String word) {
      if (!text.startsWith(word, pos)) {
        throw error("unexpected text");
      }
      pos += word.length();
    }

    private void expect(char c) {
      if (next() != c) {
        pos--;
        throw error("expected '" + c + "'");
      }
    }

    private char peek() {
      if (pos >= text.length()) {
        throw error("unexpected end");
      }
      return text.charAt(pos);
    }

    private char next() {
      char c = peek();
      pos++;
      return c;
    }

    void skipSpace() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
          return;
        }
        pos++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("malformed JSON at character " + pos + ": " + what);
    }
  }
}
