package dev.parquetconnect.sink.partition;

/**
 * Reads a {@code path.format} written for Confluent's time partitioners, which format with
 * Joda-Time, as the java.time pattern that prints the same directories. The letters mean different
 * things in the two: Joda's {@code YYYY} is the year (java.time's {@code yyyy}), java.time's {@code
 * YYYY} the week-based year, which prints the next year in the last days of some Decembers. A
 * letter with no faithful translation (week-based fields, whose week rules differ; the century; the
 * day of week as a number) is refused rather than guessed.
 */
final class JodaPatterns {
  private JodaPatterns() {}

  /**
   * The java.time pattern printing what the Joda-Time pattern prints.
   *
   * @throws IllegalArgumentException naming the letter that has no translation
   */
  static String toJavaTime(String joda) {
    StringBuilder out = new StringBuilder(joda.length() + 8);
    int i = 0;
    while (i < joda.length()) {
      char c = joda.charAt(i);
      if (c == '\'') {
        int close = closingQuote(joda, i);
        out.append(joda, i, close + 1);
        i = close + 1;
      } else if (isAsciiLetter(c)) {
        int run = i;
        while (run < joda.length() && joda.charAt(run) == c) {
          run++;
        }
        out.append(translate(c, run - i, joda));
        i = run;
      } else {
        if ("[]{}#".indexOf(c) >= 0) {
          // Literal in Joda-Time, reserved in java.time.
          out.append('\'').append(c).append('\'');
        } else {
          out.append(c);
        }
        i++;
      }
    }
    return out.toString();
  }

  private static String translate(char letter, int count, String pattern) {
    String same = String.valueOf(letter).repeat(count);
    return switch (letter) {
      case 'G', 'E', 'D', 'M', 'd', 'a', 'K', 'h', 'H', 'k', 'm', 's', 'S', 'z' -> same;
      case 'Y' -> "y".repeat(count);
      case 'y' -> "u".repeat(count);
      case 'Z' -> count == 1 ? "XX" : count == 2 ? "XXX" : "VV";
      case 'x', 'w' ->
          throw refused(
              letter,
              pattern,
              "a week-based field: Joda-Time's ISO weeks and java.time's localized weeks differ");
      case 'e' ->
          throw refused(
              letter, pattern, "the day of week as a number, which java.time prints localized");
      case 'C' -> throw refused(letter, pattern, "the century, which java.time cannot print");
      default -> throw refused(letter, pattern, "not a Joda-Time pattern letter");
    };
  }

  private static IllegalArgumentException refused(char letter, String pattern, String why) {
    return new IllegalArgumentException(
        "Joda-Time path.format '"
            + pattern
            + "' uses '"
            + letter
            + "', "
            + why
            + "; write the format for partitioner.class=time (java.time) instead");
  }

  private static int closingQuote(String pattern, int open) {
    int i = open + 1;
    while (i < pattern.length()) {
      if (pattern.charAt(i) == '\'') {
        if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '\'' && i != open + 1) {
          i += 2; // '' inside quoted text is one quote
          continue;
        }
        return i;
      }
      i++;
    }
    throw new IllegalArgumentException(
        "Joda-Time path.format '" + pattern + "' has an unclosed quote at position " + open);
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
