package dev.parquetconnect.cli;

/** Shortens long texts for {@code pq meta}, saying how long they really are. */
final class TextLimits {
  private TextLimits() {}

  /**
   * {@code text} cut to {@code max} characters (not inside a surrogate pair) with the full length
   * appended, or unchanged when short enough.
   */
  static String abbreviate(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end) + "... (" + text.length() + " chars)";
  }
}
