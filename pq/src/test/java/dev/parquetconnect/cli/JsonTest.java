package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** JSON text: string escapes, non-finite numbers, the validity check of JSON columns. */
class JsonTest {
  @Test
  void stringsEscapeQuotesBackslashesAndControlCharacters() {
    assertEquals(
        "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\\u2028\\u2029\u00e9\ud83d\ude00\"",
        Json.quote("a\"b\\c\n\r\t\b\f\u0001\u001f\u2028\u2029\u00e9\ud83d\ude00"));
    assertEquals("\"/\"", Json.quote("/"));
  }

  @Test
  void nonFiniteNumbersAreStrings() {
    StringBuilder out = new StringBuilder();
    Json.appendDouble(out, Double.NaN);
    out.append(',');
    Json.appendFloat(out, Float.NEGATIVE_INFINITY);
    out.append(',');
    Json.appendDouble(out, Double.POSITIVE_INFINITY);
    out.append(',');
    Json.appendDouble(out, -0.0);
    out.append(',');
    Json.appendFloat(out, 1e20f);
    assertEquals("\"NaN\",\"-Infinity\",\"Infinity\",-0.0,1.0E20", out.toString());
  }

  @Test
  void jsonSyntaxAcceptsExactlyOneValue() {
    for (String valid :
        new String[] {
          "0",
          "-0.5e+3",
          "\"\\u00e9\\n\"",
          "true",
          "null",
          " [1, {\"a\": [], \"b\": {}}] ",
          "{\"a\":\n1}",
          "[]",
          "1E5"
        }) {
      assertTrue(JsonSyntax.isValid(valid), valid);
    }
    for (String invalid :
        new String[] {
          "",
          " ",
          "01",
          "1.",
          ".5",
          "+1",
          "[1,]",
          "{\"a\"}",
          "{a: 1}",
          "'s'",
          "\"a\nb\"",
          "[1] [2]",
          "tru",
          "NaN",
          "\"\\x\"",
          "\"\\u12g4\"",
          "[",
          "{\"a\":1,}",
          "-",
          "1e"
        }) {
      assertFalse(JsonSyntax.isValid(invalid), invalid);
    }
    assertFalse(
        JsonSyntax.isValid(
            "[".repeat(JsonSyntax.MAX_DEPTH + 2) + "]".repeat(JsonSyntax.MAX_DEPTH + 2)),
        "deeper than the bound");
    assertTrue(JsonSyntax.isValid("[".repeat(100) + "]".repeat(100)));
  }

  @Test
  void validJsonGoesOnOneLine() {
    assertEquals("{\"a\":  1, \"b\": \"x\"}", JsonSyntax.onOneLine("{\"a\":\r\n1, \"b\": \"x\"}"));
  }
}
