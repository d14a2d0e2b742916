package dev.parquetconnect.source;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a file our sink wrote: {@code <topic>+<partition>+<first offset>[+<last
 * offset>][-<attempt>].parquet}. The topic is percent-encoded as the sink encodes path segments
 * (Kafka topic names never contain {@code +}); offsets are zero-padded so names sort by offset. The
 * attempt suffix marks a file rewritten after a rolled-back commit.
 *
 * @param topic the original topic as the name spells it (decoded)
 * @param partition the original Kafka partition
 * @param firstOffset the offset of the file's first record (its commit's first offset)
 * @param attempt 0, or the commit attempt that wrote the file
 * @param lastOffset the offset of the file's last record when known (from the name, or for a
 *     table's compacted file from its {@code __kafka_offset} values), else -1
 */
record SinkFileName(String topic, int partition, long firstOffset, int attempt, long lastOffset) {
  SinkFileName(String topic, int partition, long firstOffset, int attempt) {
    this(topic, partition, firstOffset, attempt, -1);
  }

  private static final Pattern NAME =
      Pattern.compile(
          "([^+]+)\\+(\\d{1,10})\\+(\\d{1,20})(?:\\+(\\d{1,20}))?(?:-(\\d{1,10}))?\\..*");

  /** The parsed name, or null when {@code fileName} is not a sink file name. */
  static SinkFileName parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    try {
      String topic = percentDecode(m.group(1));
      int partition = Integer.parseInt(m.group(2));
      long first = Long.parseLong(m.group(3));
      int attempt = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
      return topic == null
          ? null
          : new SinkFileName(topic, partition, first, attempt, lastOffset(fileName));
    } catch (NumberFormatException e) {
      return null; // more digits than an int or a long holds: not one of ours
    }
  }

  /**
   * The last offset a sink file name carries ({@code <topic>+<partition>+<first>+<last>...}), or -1
   * for a name without one (earlier sink versions) or not a sink file name.
   */
  static long lastOffset(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches() || m.group(4) == null) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(4));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** {@code %XX} sequences back to UTF-8 bytes; null for a malformed escape. */
  static String percentDecode(String encoded) {
    if (encoded.indexOf('%') < 0) {
      return encoded;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c != '%') {
        byte[] plain = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(plain, 0, plain.length);
        continue;
      }
      if (i + 2 >= encoded.length()) {
        return null;
      }
      int hi = Character.digit(encoded.charAt(i + 1), 16);
      int lo = Character.digit(encoded.charAt(i + 2), 16);
      if (hi < 0 || lo < 0) {
        return null;
      }
      bytes.write(hi << 4 | lo);
      i += 2;
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
