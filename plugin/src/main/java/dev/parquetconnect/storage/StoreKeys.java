package dev.parquetconnect.storage;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * Key rules shared by every store: the last line of defence against a key that would escape the
 * store root, and the naming of temporary files.
 */
public final class StoreKeys {
  /** Names starting with this are temporary files of uncommitted writers; reserved. */
  public static final String TEMP_PREFIX = ".tmp-pqc-";

  /** S3's key limit; the root prefix counts too. */
  public static final int MAX_KEY_BYTES = 1024;

  /** The common file-name limit of local file systems and HDFS. */
  public static final int MAX_SEGMENT_BYTES = 255;

  /** Orders keys by their UTF-8 bytes, unsigned: the order S3 lists in. */
  public static final Comparator<String> UTF8_ORDER = StoreKeys::compareUtf8;

  private static final SecureRandom RANDOM = new SecureRandom();

  private StoreKeys() {}

  /**
   * Checks a file key.
   *
   * @return {@code key}
   * @throws IllegalArgumentException if the key is empty or breaks a rule of {@link Store}
   */
  public static String checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a store key must not be empty");
    }
    return check(key, "key");
  }

  /** Checks a prefix: {@code ""} (the root) or a key. */
  public static String checkPrefix(String prefix) {
    if (prefix == null) {
      throw new IllegalArgumentException("a store prefix must not be null (use \"\" for the root)");
    }
    return prefix.isEmpty() ? prefix : check(prefix, "prefix");
  }

  private static String check(String key, String what) {
    if (key.length() > MAX_KEY_BYTES) {
      throw refuse(key, what, "is longer than " + MAX_KEY_BYTES + " bytes");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      // The C1 controls U+0080-U+009F are allowed: partition values keep them raw, the only
      // form that Spark and Hive (which decode %XX as one character) and DuckDB (which decodes
      // %XX as a UTF-8 byte) both read back; every store takes them as any other character.
      if (c < 0x20 || c == 0x7f) {
        throw refuse(key, what, "contains a control character at " + i);
      }
      if (c == '\\') {
        throw refuse(key, what, "contains a backslash at " + i);
      }
      if (Character.isSurrogate(c)) {
        boolean pair =
            Character.isHighSurrogate(c)
                && i + 1 < key.length()
                && Character.isLowSurrogate(key.charAt(i + 1));
        if (!pair) {
          throw refuse(key, what, "contains an unpaired surrogate at " + i);
        }
        i++;
      }
    }
    if (key.charAt(0) == '/') {
      throw refuse(key, what, "is absolute (starts with /)");
    }
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      throw refuse(key, what, "is longer than " + MAX_KEY_BYTES + " bytes in UTF-8");
    }
    int start = 0;
    while (true) {
      int slash = key.indexOf('/', start);
      String segment = slash < 0 ? key.substring(start) : key.substring(start, slash);
      if (segment.isEmpty()) {
        throw refuse(key, what, "has an empty segment (// or a trailing /)");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw refuse(key, what, "has a '" + segment + "' segment");
      }
      if (segment.startsWith(TEMP_PREFIX)) {
        throw refuse(key, what, "uses the reserved temporary prefix " + TEMP_PREFIX);
      }
      if (segment.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
        throw refuse(key, what, "has a segment longer than " + MAX_SEGMENT_BYTES + " bytes");
      }
      if (slash < 0) {
        return key;
      }
      start = slash + 1;
    }
  }

  /** Whether a key is valid (used to skip foreign objects in listings). */
  public static boolean isValidKey(String key) {
    try {
      checkKey(key);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether a file name (last segment) is a temporary file of ours. */
  public static boolean isTemporaryName(String name) {
    return name.startsWith(TEMP_PREFIX);
  }

  /**
   * A fresh temporary file name for {@code finalName} in the same directory: {@link #TEMP_PREFIX},
   * 32 random hex digits, then the final name when the result stays within {@link
   * #MAX_SEGMENT_BYTES}.
   */
  public static String temporaryName(String finalName) {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    String base = TEMP_PREFIX + HexFormat.of().formatHex(id);
    String full = base + "-" + finalName;
    return full.getBytes(StandardCharsets.UTF_8).length <= MAX_SEGMENT_BYTES ? full : base;
  }

  /**
   * The final name a temporary file name of {@link #temporaryName} carries, {@code ""} when it
   * carries none (a name too long to fit).
   */
  public static String finalNameOfTemporary(String temporaryName) {
    int start = TEMP_PREFIX.length() + 32;
    return temporaryName.length() > start + 1
            && temporaryName.startsWith(TEMP_PREFIX)
            && temporaryName.charAt(start) == '-'
        ? temporaryName.substring(start + 1)
        : "";
  }

  /** 32 random hex digits: a writer's token. */
  static String randomToken() {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  /** The parent key of {@code key}, {@code ""} at the top. */
  public static String parent(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? "" : key.substring(0, slash);
  }

  /** The last segment of {@code key}. */
  public static String name(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(slash + 1);
  }

  /** {@code prefix + "/" + name}, or {@code name} when the prefix is the root. */
  public static String join(String prefix, String name) {
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** Compares two strings by their UTF-8 bytes without encoding them. */
  public static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        // UTF-16 order equals code point order (and so UTF-8 order) except that surrogates
        // (code points above U+FFFF) sort after U+E000..U+FFFF in code point order.
        boolean sa = Character.isSurrogate(ca);
        boolean sb = Character.isSurrogate(cb);
        if (sa != sb) {
          return sa ? 1 : -1;
        }
        return Character.compare(ca, cb);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static IllegalArgumentException refuse(String key, String what, String why) {
    return new IllegalArgumentException("store " + what + " '" + printable(key) + "' " + why);
  }

  /** The key with control characters escaped, cut at 200 characters, for messages. */
  static String printable(String key) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < key.length() && sb.length() < 200; i++) {
      char c = key.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.isSurrogate(c)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (sb.length() >= 200) {
      sb.append("...(").append(key.length()).append(" chars)");
    }
    return sb.toString();
  }
}
