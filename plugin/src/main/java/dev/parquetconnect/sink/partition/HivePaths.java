package dev.parquetconnect.sink.partition;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns partition names and values into directory segments that stay where they are put.
 *
 * <p>Values come from records, so they can hold anything: {@code /}, {@code ..}, control
 * characters, 10,000 characters. Each one becomes exactly one path segment:
 *
 * <ul>
 *   <li>the characters Hive escapes ({@code "#%'*\/:=?\{[]^}, U+0000-U+001F, U+007F) and {@code ~}
 *       (kept for the hash suffix below) are written as {@code %XX}, so a separator or control
 *       character never reaches the store, and engines decode the value back (DuckDB decodes
 *       every {@code %XX} of a value, not of a name; what it reads is in
 *       docs/compatibility.md, Partition directories);
 *   <li>the C1 controls U+0080-U+009F stay as they are, like every other non-ASCII character:
 *       Spark and Hive decode {@code %XX} as the one character XX, DuckDB as one UTF-8 byte, so
 *       no escape of them reads back the same in both;
 *   <li>an unpaired surrogate (not encodable in UTF-8) becomes {@code %EF%BF%BD}, U+FFFD, and a
 *       name or value that had one ends in the hash suffix below, as if capped: U+FFFD alone
 *       would put all values that differ only in their unpaired surrogates in one directory;
 *   <li>a leading {@code .} or {@code _} is escaped too: engines skip entries whose name starts
 *       with either, and {@code .tmp-pqc-} is the stores' temporary prefix;
 *   <li>an encoded part longer than its cap keeps a prefix and ends in {@code ~} and 16 hex
 *       digits of the SHA-256 of the whole value, so long values stay distinct and every segment
 *       stays within the 255-byte name limit of file systems;
 *   <li>{@code null} and the empty string become {@code __HIVE_DEFAULT_PARTITION__}, as in Hive;
 *   <li>a value that is the word {@code null} in any case ({@code null}, {@code NULL}, {@code
 *       Null}...) has its first letter escaped ({@code %6Eull}, {@code %4EULL}): DuckDB reads
 *       such a directory value as SQL NULL before it decodes, so unescaped it would not read back.
 * </ul>
 *
 * Because {@code %} and {@code ~} are always escaped in the input, the encoding of values is
 * injective but for null and "" (one partition) and up to the 64-bit hash of hashed values. The
 * stores refuse escaping keys as well; this is the first line of defence, the store the last.
 */
public final class HivePaths {
  /** Hive's name for the partition of null (and empty) values. */
  public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  /** The most UTF-8 bytes an encoded value takes (name, {@code =} and value stay below 255). */
  public static final int MAX_VALUE_BYTES = 160;

  /** The most UTF-8 bytes an encoded partition name takes. */
  public static final int MAX_NAME_BYTES = 64;

  private static final int HASH_HEX_DIGITS = 16;
  private static final char HASH_MARK = '~';
  private static final boolean[] ESCAPED = new boolean[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPED[c] = true;
    }
    ESCAPED[0x7f] = true;
    for (char c : "\"#%'*/:=?\\{[]^~".toCharArray()) {
      ESCAPED[c] = true;
    }
  }

  private HivePaths() {}

  /** One directory segment {@code name=value}, both encoded. */
  public static String segment(String name, String value) {
    return encodeName(name) + "=" + encodeValue(value);
  }

  /** The segments of {@code columns} joined by {@code /} ({@code ""} for no column). */
  public static String path(List<PartitionColumn> columns) {
    StringBuilder sb = new StringBuilder();
    for (PartitionColumn column : columns) {
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(segment(column.name(), column.value()));
    }
    return sb.toString();
  }

  /** A partition name: never empty, at most {@link #MAX_NAME_BYTES}. */
  public static String encodeName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a partition name must not be empty");
    }
    return encode(name, MAX_NAME_BYTES, true);
  }

  /** A partition value: {@link #DEFAULT_PARTITION} for null or empty, else encoded and capped. */
  public static String encodeValue(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_PARTITION;
    }
    if (isNullWord(value)) {
      // DuckDB takes a directory value equal to "null" (ignoring case) for SQL NULL, and checks
      // before it percent-decodes: escaped, the word reads back as itself there as everywhere.
      return percent(value.charAt(0)) + value.substring(1);
    }
    return encode(value, MAX_VALUE_BYTES, true);
  }

  /** Whether {@code value} is "null" in any mix of ASCII case. */
  private static boolean isNullWord(String value) {
    if (value.length() != 4) {
      return false;
    }
    for (int i = 0; i < 4; i++) {
      char c = value.charAt(i);
      if (c != "null".charAt(i) && c != "NULL".charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A whole segment of its own (a topic's directory, a topic in a file name, the connector in the
   * markers' path): encoded like a value, capped at {@code maxBytes}, but without the hash suffix
   * for unpaired surrogates (Kafka topic names cannot hold them, and a connector name's markers
   * must stay where earlier versions put them).
   */
  public static String encodeSegment(String text, int maxBytes) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("a path segment must not be empty");
    }
    return encode(text, maxBytes, false);
  }

  /**
   * @param hashLossy whether a text with an unpaired surrogate gets the hash suffix (so that the
   *     encoding stays injective although U+FFFD stands for every such surrogate)
   */
  private static String encode(String text, int maxBytes, boolean hashLossy) {
    StringBuilder out = new StringBuilder(Math.min(text.length() + 8, maxBytes + 32));
    // Byte length of the output so far and the end of the longest prefix that still leaves room
    // for the hash suffix: the cut never splits an escape or a surrogate pair.
    int bytes = 0;
    int cutAt = 0;
    int roomForPrefix = maxBytes - 1 - HASH_HEX_DIGITS;
    boolean lossy = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int width = Character.charCount(cp);
      boolean first = i == 0;
      String piece;
      if (Character.isSurrogate(text.charAt(i)) && width == 1) {
        piece = "%EF%BF%BD";
        lossy |= hashLossy;
      } else if (cp < 128 && (ESCAPED[cp] || (first && (cp == '.' || cp == '_')))) {
        piece = percent(cp);
      } else {
        piece = new String(Character.toChars(cp));
      }
      int pieceBytes = piece.getBytes(StandardCharsets.UTF_8).length;
      if (bytes + pieceBytes <= roomForPrefix) {
        cutAt = out.length() + piece.length();
      }
      out.append(piece);
      bytes += pieceBytes;
      i += width;
      if (bytes > maxBytes) {
        // No need to encode the rest: the result is the prefix and the hash of the whole text.
        break;
      }
    }
    if (bytes <= maxBytes && !lossy) {
      return out.toString();
    }
    return out.substring(0, cutAt) + HASH_MARK + hash(text);
  }

  private static String percent(int asciiChar) {
    return String.format("%%%02X", asciiChar);
  }

  private static String hash(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      // Over the UTF-16 code units, so that even values with unpaired surrogates (which UTF-8
      // would turn into '?') hash apart.
      byte[] units = new byte[text.length() * 2];
      for (int i = 0; i < text.length(); i++) {
        units[2 * i] = (byte) (text.charAt(i) >>> 8);
        units[2 * i + 1] = (byte) text.charAt(i);
      }
      byte[] digest = sha.digest(units);
      return HexFormat.of().formatHex(digest, 0, HASH_HEX_DIGITS / 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
