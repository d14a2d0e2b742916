package dev.parquetconnect.connect.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Schemaless JSON documents the way a topic's producer sends them: one shape (keys in one order,
 * each with one kind of value, nested objects included) repeated record after record, which the
 * schemaless staged path learns and reads straight into the columns. Now and then the shape grows
 * (a new key, an integer field that starts carrying fractions: the topic's schema widens, as the
 * sink's files do) and now and then one document leaves it (a key missing, keys in another order, a
 * null, a key spelt with an escape, a key repeated, a fraction where integers were): the staged
 * path falls back for it and learns again. Values cover the edges: text with and without escapes in
 * several scripts, integers at 18 and 19 digits and beyond 64 bits, fractions at the double's
 * limits, negative zero.
 */
final class SchemalessShapes {
  private static final String[] INTEGERS = {
    "0",
    "-0",
    "1",
    "-1",
    "42",
    "999999999999999999",
    "-999999999999999999",
    "1000000000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551617",
    "2147483648",
    "9007199254740993"
  };
  private static final String[] FRACTIONS = {
    "1.0",
    "0.0",
    "-0.0",
    "2.5",
    "0.1",
    "-1.5e-7",
    "1E2",
    "1e+2",
    "-2.0E-3",
    "1e22",
    "1e23",
    "1e300",
    "5e-324",
    "1.7976931348623157e308",
    "1.8e308",
    "123456789.123456789",
    "3.141592653589793",
    "0.30000000000000004"
  };
  private static final String[] TEXTS = {
    "",
    "plain",
    "caf\u00e9",
    "\u65e5\u672c\u8a9e",
    "\ud83d\ude00 smile",
    "with \\\"quotes\\\"",
    "tab\\there",
    "\\u00e9scaped",
    "\\ud83d\\ude00",
    "line\\nbreak",
    "back\\\\slash"
  };
  private static final String[] NAMES = {
    "id", "name", "amount", "count", "active", "note", "city", "score", "kind", "at", "zeta",
    "Alpha"
  };

  private static final byte TEXT = 0;
  private static final byte INTEGER = 1;
  private static final byte FRACTION = 2;
  private static final byte BOOLEAN = 3;
  private static final byte NULL = 4;
  private static final byte OBJECT = 5;

  private final Random random;
  private final Shape shape;
  private int names;

  /** Keys in document order, each with its kind (an object's shape for {@link #OBJECT}). */
  private static final class Shape {
    final List<String> keys = new ArrayList<>();
    final List<Byte> kinds = new ArrayList<>();
    final List<Shape> children = new ArrayList<>();
  }

  SchemalessShapes(Random random) {
    this.random = random;
    this.shape = shape(0);
  }

  private Shape shape(int depth) {
    Shape s = new Shape();
    int n = 2 + random.nextInt(depth == 0 ? 6 : 3);
    for (int i = 0; i < n; i++) {
      add(s, depth);
    }
    return s;
  }

  private void add(Shape s, int depth) {
    String key = NAMES[random.nextInt(NAMES.length)] + (names++ % 7 == 0 ? "_" + names : "");
    if (s.keys.contains(key)) {
      key = key + "_" + names;
    }
    int r = random.nextInt(20);
    byte kind =
        r < 5
            ? TEXT
            : r < 9 ? INTEGER : r < 13 ? FRACTION : r < 15 ? BOOLEAN : r < 16 ? NULL : OBJECT;
    if (kind == OBJECT && depth >= 2) {
      kind = TEXT;
    }
    int at = random.nextInt(s.keys.size() + 1);
    s.keys.add(at, key);
    s.kinds.add(at, kind);
    s.children.add(at, kind == OBJECT ? shape(depth + 1) : null);
  }

  /** The next document: mostly of the shape, which sometimes grows first. */
  byte[] document() {
    int r = random.nextInt(2000);
    if (r < 2) {
      add(shape, 0); // a new key: files widen with a new optional column
    } else if (r < 3) {
      int i = shape.kinds.indexOf(INTEGER);
      if (i >= 0) {
        shape.kinds.set(i, FRACTION); // integers to fractions: the column widens to double
      }
    }
    StringBuilder out = new StringBuilder();
    boolean leave = random.nextInt(25) == 0;
    write(out, shape, leave, random.nextInt(12) == 0);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void write(StringBuilder out, Shape s, boolean leave, boolean spaced) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < s.keys.size(); i++) {
      order.add(i);
    }
    int how = leave ? random.nextInt(8) : -1;
    if (how == 0) {
      Collections.swap(order, 0, order.size() - 1);
    } else if (how == 1) {
      order.remove(random.nextInt(order.size()));
    } else if (how == 2) {
      order.add(order.get(random.nextInt(order.size())));
    }
    int odd = random.nextInt(order.size());
    out.append(spaced ? "{ " : "{");
    for (int j = 0; j < order.size(); j++) {
      int i = order.get(j);
      if (j > 0) {
        out.append(spaced ? " ,\n " : ",");
      }
      String key = s.keys.get(i);
      if (how == 3 && j == odd) {
        key = "\\u" + String.format("%04x", (int) key.charAt(0)) + key.substring(1);
      }
      out.append('"').append(key).append(spaced ? "\" : " : "\":");
      if (how == 4 && j == odd) {
        out.append("null");
      } else if (how == 5 && j == odd && s.kinds.get(i) == INTEGER) {
        out.append("7.5"); // the column widens to double in the open file
      } else if (how == 6 && j == odd && s.kinds.get(i) == FRACTION) {
        out.append("-7"); // an integer where fractions were: written as a double
      } else {
        value(out, s.kinds.get(i), s.children.get(i), how == 7 && random.nextBoolean(), spaced);
      }
    }
    out.append(spaced ? " }\n" : "}");
  }

  private void value(StringBuilder out, byte kind, Shape child, boolean leave, boolean spaced) {
    switch (kind) {
      case TEXT -> out.append('"').append(TEXTS[random.nextInt(TEXTS.length)]).append('"');
      case INTEGER ->
          out.append(
              random.nextInt(40) == 0
                  ? INTEGERS[random.nextInt(INTEGERS.length)]
                  : Long.toString(random.nextLong() >> (4 + random.nextInt(60))));
      case FRACTION ->
          out.append(
              random.nextInt(40) == 0
                  ? FRACTIONS[random.nextInt(FRACTIONS.length)]
                  : BigDecimal.valueOf(
                          random.nextLong() % 1_000_000_000_000L, 1 + random.nextInt(9))
                      .toString());
      case BOOLEAN -> out.append(random.nextBoolean());
      case NULL -> out.append("null");
      default -> write(out, child, leave, spaced);
    }
  }
}
