package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.partition.HivePaths;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded randomized test of partition directories, end to end: records with hostile partition
 * values (separators, dot segments, Hive's special characters, controls, emoji, unpaired
 * surrogates, 10,000-character values, empty strings, nulls) go through the real {@link
 * ParquetSinkTask} on a local store with the field, header and time partitioners, and the committed
 * tree is checked:
 *
 * <ul>
 *   <li>every file lies under the configured {@code topics.dir} (real paths, after links);
 *   <li>every record is in exactly one file (its Kafka partition and offset, read by DuckDB), also
 *       when different values share the default partition's directory (null and "");
 *   <li>the directory of each record is what the documented encoding ({@link HivePaths}'s javadoc,
 *       modelled here independently of its code) makes of its values; for the time partitioner the
 *       values are {@code java.time}'s formatting of the record time in the configured zone and
 *       locale;
 *   <li>distinct values never share a directory (null and "" do, as documented);
 *   <li>DuckDB's {@code read_parquet(..., hive_partitioning = true)} over the whole tree gives each
 *       record's partition columns back: the original value for every value that is not hashed
 *       (capped, or with an unpaired surrogate), and precisely the documented text otherwise (see
 *       {@link #duckDbValue}). The field cases on {@code s} check a column the file has as well, so
 *       they also show DuckDB taking the directory's value over the file's.
 * </ul>
 *
 * <p>What DuckDB (1.4) makes of a directory {@code name=value}, found by experiment and checked
 * here on every row: it percent-decodes the value ({@code %XX} of any UTF-8 byte, so every escape
 * of ours comes back); it reads a value that is {@code NULL} in any case as SQL NULL (so the sink
 * escapes such values); it reads {@code __HIVE_DEFAULT_PARTITION__} as that string, not as NULL; it
 * does not decode names (the column is the encoded name); and a partition column replaces a file
 * column of the same name.
 */
final class RandomPartitionPathsTest {
  private static final String TOPIC = "events";
  private static final String TOPICS_DIR = "lake/tp";
  private static final int PARTITIONS = 3;
  private static final int RECORDS = 160;

  /** Cases per partitioner; case n uses the n-th fields or path.format of the lists below. */
  private static final int SEEDS = 5;

  @TempDir Path dir;

  // ---- the cases

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String mode : List.of("field1", "field2", "fieldJson", "header", "time")) {
      for (int s = 0; s < SEEDS; s++) {
        out.add(Arguments.of(mode, s, 0x9a27_0000L + mode.hashCode() * 31L + s * 104_729L));
      }
    }
    return out.stream();
  }

  private static final Schema NESTED =
      SchemaBuilder.struct()
          .name("Nested")
          .optional()
          .field("city", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema EVENT =
      SchemaBuilder.struct()
          .name("Event")
          .field("id", Schema.INT64_SCHEMA)
          .field("s", Schema.OPTIONAL_STRING_SCHEMA)
          .field("i", Schema.OPTIONAL_INT32_SCHEMA)
          .field("l", Schema.INT64_SCHEMA)
          .field("b", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("nested", NESTED)
          .field("ts", Timestamp.builder().optional().build())
          .build();

  /** The partition fields of the field cases, by seed; leaves differ within a case. */
  private static final List<List<String>> ONE_FIELD =
      List.of(List.of("s"), List.of("nested.city"), List.of("i"), List.of("l"), List.of("b"));

  private static final List<List<String>> TWO_FIELDS =
      List.of(
          List.of("s", "nested.city"),
          List.of("nested.city", "s"),
          List.of("b", "s"),
          List.of("s", "i"),
          List.of("l", "nested.city"));

  /** path.format segments; names with a space, values with ':' and '/' (zone ids). */
  private static final List<List<String>> PATH_FORMATS =
      List.of(
          List.of("'year'=yyyy", "'month'=MM", "'day'=dd", "'hour'=HH"),
          List.of("'dt'=yyyy-MM-dd", "'hour'=HH"),
          List.of("'era'=G", "'ym'=uuuu-MMM", "'dow'=EEEE"),
          List.of("'ts'=uuuu-MM-dd'T'HH:mmXXX", "'zone'=VV"),
          List.of("'week day'=EEEE", "'q'=QQQ", "'h'=hh a"));

  private static final List<String> LOCALES =
      List.of("en", "fr-FR", "de", "ja-JP", "ar", "th-TH", "tr", "ru", "zh-CN", "hi-IN", "el");

  @ParameterizedTest(name = "{0} #{1} seed {2}")
  @MethodSource("cases")
  void directoriesAreTheDocumentedEncodingAndDuckDbReadsThemBack(
      String mode, int variant, long seed) throws Exception {
    Random random = new Random(seed);
    Values values = new Values(random);
    Map<String, String> props = new HashMap<>();
    props.put("name", "paths");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.TOPICS_DIR_CONFIG, TOPICS_DIR);
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(5 + random.nextInt(40)));
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");

    // Each record, and the raw partition columns (name, value) the documentation says it has.
    List<SinkRecord> records = new ArrayList<>();
    List<List<String[]>> columns = new ArrayList<>();
    long[] next = new long[PARTITIONS];
    List<String> fields = mode.equals("field2") ? TWO_FIELDS.get(variant) : ONE_FIELD.get(variant);
    List<String> headers = random.nextBoolean() ? List.of("tenant") : List.of("tenant", "x/y z");
    List<String> format = PATH_FORMATS.get(variant);
    ZoneId zone = randomZone(random);
    Locale locale = Locale.forLanguageTag(LOCALES.get(random.nextInt(LOCALES.size())));
    boolean timeFromField = random.nextBoolean();
    switch (mode) {
      case "field1", "field2", "fieldJson" -> {
        props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
        props.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, String.join(",", fields));
      }
      case "header" -> {
        props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "header");
        props.put(ParquetSinkConfig.PARTITION_HEADERS_CONFIG, String.join(",", headers));
      }
      default -> {
        props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "time");
        props.put(ParquetSinkConfig.PATH_FORMAT_CONFIG, String.join("/", format));
        props.put(ParquetSinkConfig.TIMEZONE_CONFIG, zone.getId());
        props.put(ParquetSinkConfig.LOCALE_CONFIG, locale.toLanguageTag());
        props.put(ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG, timeFromField ? "field" : "record");
        if (timeFromField) {
          props.put(ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG, "ts");
        }
      }
    }
    for (int n = 0; n < RECORDS; n++) {
      int partition = random.nextInt(PARTITIONS);
      long offset = next[partition]++;
      long time = values.time();
      String s = values.optionalString();
      String city = values.optionalString();
      boolean nestedNull = random.nextInt(12) == 0;
      Integer i = random.nextInt(6) == 0 ? null : values.integer();
      long l = values.longValue();
      Boolean b = random.nextInt(5) == 0 ? null : random.nextBoolean();
      Map<String, String> byField = new HashMap<>();
      byField.put("s", s);
      byField.put("nested.city", nestedNull ? null : city);
      byField.put("i", i == null ? null : Integer.toString(i));
      byField.put("l", Long.toString(l));
      byField.put("b", b == null ? null : b.toString());
      Object value;
      Schema schema;
      if (mode.equals("fieldJson")) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", (long) n);
        map.put("s", s);
        map.put("i", i == null ? null : (long) i);
        map.put("l", l);
        map.put("b", b);
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("city", city);
        map.put("nested", nestedNull ? null : nested);
        value = map;
        schema = null;
      } else {
        Struct struct =
            new Struct(EVENT)
                .put("id", (long) n)
                .put("s", s)
                .put("i", i)
                .put("l", l)
                .put("b", b)
                .put("ts", new java.util.Date(time));
        if (!nestedNull) {
          struct.put("nested", new Struct(NESTED).put("city", city));
        }
        value = struct;
        schema = EVENT;
      }
      ConnectHeaders recordHeaders = new ConnectHeaders();
      List<String[]> cols = new ArrayList<>();
      switch (mode) {
        case "field1", "field2", "fieldJson" -> {
          for (String f : fields) {
            cols.add(new String[] {f.substring(f.lastIndexOf('.') + 1), byField.get(f)});
          }
        }
        case "header" -> {
          for (String h : List.of("tenant", "x/y z", "other")) {
            String last = null;
            boolean present = false;
            int repeats = random.nextInt(8) == 0 ? 0 : 1 + (random.nextInt(6) == 0 ? 1 : 0);
            for (int r = 0; r < repeats; r++) {
              present = true;
              switch (random.nextInt(8)) {
                case 0 -> {
                  int v = values.integer();
                  recordHeaders.addInt(h, v);
                  last = Integer.toString(v);
                }
                case 1 -> {
                  long v = values.longValue();
                  recordHeaders.addLong(h, v);
                  last = Long.toString(v);
                }
                case 2 -> {
                  boolean v = random.nextBoolean();
                  recordHeaders.addBoolean(h, v);
                  last = Boolean.toString(v);
                }
                default -> {
                  String v = values.optionalString();
                  recordHeaders.addString(h, v);
                  last = v;
                }
              }
            }
            if (headers.contains(h)) {
              cols.add(new String[] {h, present ? last : null});
            }
          }
        }
        default -> {
          // java.time's own formatting of the record time, each segment split at its first '='.
          Instant instant = Instant.ofEpochMilli(time);
          for (String segment : format) {
            String text =
                DateTimeFormatter.ofPattern(segment, locale).withZone(zone).format(instant);
            int eq = text.indexOf('=');
            cols.add(new String[] {text.substring(0, eq), text.substring(eq + 1)});
          }
        }
      }
      records.add(
          new SinkRecord(
              TOPIC,
              partition,
              null,
              null,
              schema,
              value,
              offset,
              time,
              TimestampType.CREATE_TIME,
              recordHeaders));
      columns.add(cols);
    }

    // The case exercised what it is for.
    List<String> all = columns.stream().flatMap(List::stream).map(c -> c[1]).toList();
    boolean strings =
        mode.equals("header")
            || (mode.startsWith("field")
                && (fields.contains("s") || fields.contains("nested.city")));
    if (mode.equals("header") || (mode.startsWith("field") && !fields.equals(List.of("l")))) {
      assertTrue(all.contains(null), "no null value");
    }
    if (strings) {
      assertTrue(all.contains(""), "no empty value");
      assertTrue(all.stream().anyMatch(v -> v != null && v.length() == 10_000), "no long value");
      assertTrue(
          all.stream()
              .anyMatch(
                  v -> v != null && expectedValue(v).indexOf('~') >= 0 && v.length() < 10_000),
          "no value hashed for a surrogate or near the cap");
      assertTrue(
          all.stream().anyMatch(v -> v != null && expectedValue(v).startsWith("%")),
          "no value with a leading escape");
      assertTrue(
          all.stream().anyMatch(v -> v != null && v.codePoints().anyMatch(c -> c > 0xFFFF)),
          "no value with a supplementary character");
    }
    if (mode.equals("time")) {
      LongSummaryStatistics times =
          records.stream().mapToLong(SinkRecord::timestamp).summaryStatistics();
      assertTrue(
          times.getMin() < -2_208_988_800_000L && times.getMax() > 4_102_444_800_000L,
          "times from before 1900 to after 2100: " + times);
    }

    // The real task: random batches, then a scheduled commit of everything still open.
    ManualClock clock = new ManualClock();
    ParquetSinkTask task =
        new ParquetSinkTask(
            ParquetFiles::writerFactory,
            c -> dev.parquetconnect.storage.Stores.open(c.storeUrl(), c.storeSettings()),
            clock,
            CrashPoints.NONE);
    TestContext context = new TestContext(true);
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    context.assignment.addAll(tps);
    task.initialize(context);
    task.start(props);
    task.open(tps);
    Map<TopicPartition, Long> committed = new HashMap<>();
    try {
      for (int n = 0; n < records.size(); ) {
        int k = Math.min(records.size() - n, 1 + random.nextInt(30));
        task.put(new ArrayList<>(records.subList(n, n + k)));
        n += k;
      }
      clock.advance(120_000);
      task.put(List.of());
      task.preCommit(Map.of()).forEach((tp, o) -> committed.put(tp, o.offset()));
    } finally {
      task.close(tps);
      task.stop();
    }
    assertEquals(
        List.of(),
        context.deadLetterErrors.stream().map(Throwable::toString).toList(),
        "no record is dead-lettered");
    for (int p = 0; p < PARTITIONS; p++) {
      assertEquals(next[p], committed.getOrDefault(tps.get(p), 0L), "committed " + tps.get(p));
    }

    // Every file under the topics directory, data files under the topic's.
    Path root = dir.toRealPath();
    Path topicsDir = root.resolve(TOPICS_DIR);
    Path topicDir = topicsDir.resolve(TOPIC);
    Set<Path> dataFiles = new HashSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        Path real = p.toRealPath();
        assertTrue(real.startsWith(topicsDir), "outside " + TOPICS_DIR + ": " + real);
        if (real.getFileName().toString().endsWith(".parquet")) {
          assertTrue(real.startsWith(topicDir), "a data file outside the topic's: " + real);
          dataFiles.add(real);
        }
      }
    }

    // The expected directory of each record, and one set of values per directory.
    Map<String, Integer> byKey = new HashMap<>();
    Map<String, Set<List<String>>> valuesByDirectory = new TreeMap<>();
    Map<List<String>, String> directoryByValues = new HashMap<>();
    for (int n = 0; n < records.size(); n++) {
      SinkRecord r = records.get(n);
      byKey.put(r.kafkaPartition() + "/" + r.kafkaOffset(), n);
      String path = expectedPath(columns.get(n));
      // null and "" are one partition (documented); any other two values must not share one.
      List<String> key = columns.get(n).stream().map(c -> c[1] == null ? "" : c[1]).toList();
      valuesByDirectory.computeIfAbsent(path, x -> new HashSet<>()).add(key);
      String before = directoryByValues.putIfAbsent(key, path);
      assertTrue(before == null || before.equals(path), "one value, two directories: " + path);
    }
    valuesByDirectory.forEach(
        (path, set) ->
            assertEquals(
                1,
                set.size(),
                "distinct values share the directory "
                    + ascii(path)
                    + ": "
                    + set.stream()
                        .map(v -> v.stream().map(RandomPartitionPathsTest::ascii).toList())
                        .toList()));

    // DuckDB over the whole tree, with hive partitioning.
    List<String> names = columns.get(0).stream().map(c -> expectedName(c[0])).toList();
    String glob = topicsDir.toString().replace("'", "''") + "/**/*.parquet";
    int[] seen = new int[records.size()];
    Set<Path> filesRead = new HashSet<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      StringBuilder select =
          new StringBuilder("SELECT __kafka_partition, __kafka_offset, filename");
      for (String name : names) {
        select.append(", \"").append(name.replace("\"", "\"\"")).append('"');
      }
      try (ResultSet rs =
          sql.executeQuery(
              select
                  + " FROM read_parquet('"
                  + glob
                  + "', hive_partitioning = true, hive_types_autocast = false, filename = true)")) {
        ResultSetMetaData meta = rs.getMetaData();
        for (int c = 0; c < names.size(); c++) {
          assertEquals(
              names.get(c),
              meta.getColumnLabel(4 + c),
              "DuckDB names a partition column by the encoded name");
        }
        while (rs.next()) {
          String key = rs.getInt(1) + "/" + rs.getLong(2);
          Integer n = byKey.get(key);
          assertNotNull(n, "a row no record has: " + key);
          seen[n]++;
          Path file = Path.of(rs.getString(3)).toRealPath();
          filesRead.add(file);
          String where = "offset " + key + " in " + ascii(topicDir.relativize(file).toString());
          assertEquals(
              expectedPath(columns.get(n)),
              topicDir.relativize(file.getParent()).toString(),
              where + ": directory");
          for (int c = 0; c < names.size(); c++) {
            String expected = duckDbValue(columns.get(n).get(c)[1]);
            String actual = rs.getString(4 + c);
            assertEquals(
                expected == null ? null : ascii(expected),
                actual == null ? null : ascii(actual),
                where
                    + ": DuckDB's "
                    + names.get(c)
                    + " for "
                    + shortAscii(columns.get(n).get(c)[1]));
          }
        }
      }
    }
    Set<Path> unread = new TreeSet<>(dataFiles);
    unread.removeAll(filesRead);
    assertEquals(
        List.of(),
        unread.stream().map(p -> ascii(topicDir.relativize(p).toString())).toList(),
        "files DuckDB did not read");
    for (int n = 0; n < records.size(); n++) {
      assertEquals(
          1,
          seen[n],
          "rows of record "
              + n
              + " ("
              + records.get(n).kafkaPartition()
              + "/"
              + records.get(n).kafkaOffset()
              + ")");
    }
  }

  // ---- the documented encoding (HivePaths' javadoc), modelled independently

  private static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
  private static final String HIVE_SPECIALS = "\"#%'*/:=?\\{[]^";

  static String expectedPath(List<String[]> columns) {
    StringBuilder out = new StringBuilder();
    for (String[] c : columns) {
      out.append(out.length() == 0 ? "" : "/")
          .append(expectedName(c[0]))
          .append('=')
          .append(expectedValue(c[1]));
    }
    return out.toString();
  }

  static String expectedName(String name) {
    return encoded(name, 64);
  }

  /** null and "" the default partition; "null" in any case with its first letter escaped. */
  static String expectedValue(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_PARTITION;
    }
    if (value.length() == 4
        && value.chars().allMatch(c -> c < 0x80)
        && value.equalsIgnoreCase("null")) {
      return "%"
          + HexFormat.of().withUpperCase().toHexDigits((byte) value.charAt(0))
          + value.substring(1);
    }
    return encoded(value, 160);
  }

  /**
   * Hive's special characters, the controls U+0000-U+001F and U+007F, and '~' as %XX, a leading '.'
   * or '_' too, an unpaired surrogate as %EF%BF%BD (U+FFFD), anything else as it is; over {@code
   * cap} bytes, or with an unpaired surrogate: the longest prefix of whole pieces that leaves room
   * in the cap for '~' and 16 hex digits of the SHA-256 of the value's UTF-16 code units.
   */
  static String encoded(String text, int cap) {
    List<String> pieces = new ArrayList<>();
    boolean lossy = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int width = Character.charCount(cp);
      if (Character.isSurrogate(text.charAt(i)) && width == 1) {
        pieces.add("%EF%BF%BD");
        lossy = true;
      } else if (cp < 0x20
          || cp == 0x7f
          || cp == '~'
          || HIVE_SPECIALS.indexOf(cp) >= 0
          || (i == 0 && (cp == '.' || cp == '_'))) {
        StringBuilder p = new StringBuilder();
        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
          p.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
        }
        pieces.add(p.toString());
      } else {
        pieces.add(new String(Character.toChars(cp)));
      }
      i += width;
    }
    String whole = String.join("", pieces);
    if (utf8Length(whole) <= cap && !lossy) {
      return whole;
    }
    StringBuilder prefix = new StringBuilder();
    for (String p : pieces) {
      if (utf8Length(prefix.toString()) + utf8Length(p) > cap - 17) {
        break;
      }
      prefix.append(p);
    }
    return prefix + "~" + sha256Hex16(text);
  }

  /**
   * What DuckDB reads from the directory of {@code value}: the value itself, except that null and
   * "" are the string {@code __HIVE_DEFAULT_PARTITION__} (DuckDB does not read it as NULL), and a
   * hashed value (capped, or with an unpaired surrogate; its directory holds the only '~' that is
   * not escaped) is its directory text percent-decoded: a prefix of the value with U+FFFD for
   * unpaired surrogates, '~' and the hash.
   */
  static String duckDbValue(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_PARTITION;
    }
    String directory = expectedValue(value);
    return directory.indexOf('~') >= 0 ? percentDecoded(directory) : value;
  }

  static String percentDecoded(String text) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < text.length(); ) {
      if (text.charAt(i) == '%') {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        int cp = text.codePointAt(i);
        bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(cp);
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new AssertionError("not UTF-8 once decoded: " + ascii(text), e);
    }
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String sha256Hex16(String text) {
    try {
      // The code units themselves, big-endian (UTF_16BE would turn unpaired surrogates into '?').
      ByteBuffer units = ByteBuffer.allocate(text.length() * 2);
      text.chars().forEach(c -> units.putChar((char) c));
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(units.array());
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  // ---- random values

  private static ZoneId randomZone(Random random) {
    List<String> fixed =
        List.of(
            "UTC",
            "+05:45",
            "-12:00",
            "+14:00",
            "Asia/Kathmandu",
            "America/St_Johns",
            "Australia/Lord_Howe",
            "Europe/Paris",
            "Pacific/Apia");
    if (random.nextBoolean()) {
      return ZoneId.of(fixed.get(random.nextInt(fixed.size())));
    }
    List<String> all = new ArrayList<>(new TreeSet<>(ZoneId.getAvailableZoneIds()));
    return ZoneId.of(all.get(random.nextInt(all.size())));
  }

  /** Partition values that reuse earlier ones, so directories hold several records. */
  private static final class Values {
    /** Pieces of values: everything the encoding treats specially, and plain text. */
    static final String[] ATOMS = {
      "/",
      "..",
      ".",
      "_x",
      "%",
      "=",
      "~",
      "\u0000",
      "\u0001",
      "\u001f",
      "\t",
      "\n",
      "\u007f",
      "\u0080",
      "\u0085",
      "\u009f",
      "\u00a0",
      " ",
      "  ",
      "+",
      "#",
      "'",
      "\"",
      "*",
      ":",
      "?",
      "\\",
      "{",
      "}",
      "[",
      "]",
      "^",
      "&",
      "$",
      "!",
      "@",
      ",",
      ";",
      "<",
      ">",
      "|",
      "%2F",
      "%zz",
      "\u00e9",
      "caf\u00e9",
      "\u65e5\u672c",
      "\ud83d\ude00",
      "\ud83c\udff3\ufe0f\u200d\ud83c\udf08",
      "\ud800",
      "\udc00",
      "\udbff",
      "\udfff",
      "\u2028",
      "\ufffd",
      "\ufeff",
      "a",
      "Z",
      "0",
      "42",
      "null",
      "NULL",
      "x~0123456789abcdef",
      "__HIVE_DEFAULT_PARTITION__"
    };

    /** Whole values of their own. */
    static final String[] WHOLE = {
      "",
      "",
      ".",
      "..",
      "...",
      "_",
      "_x",
      "%",
      "=",
      "~",
      " ",
      "/",
      "//",
      "../..",
      "null",
      "NULL",
      "Null",
      "nULL",
      " null",
      "null ",
      "nul",
      "__HIVE_DEFAULT_PARTITION__",
      "\ud800",
      "\udc00",
      "a\ud800",
      "a\udbff",
      "a\udc00",
      "a\udfff",
      "a\ufffd",
      "a%EF%BF%BD",
      "\ud800\udc00",
      "x",
      "X",
      "true",
      "1",
      "-1",
      "1e5",
      "2024-05-01",
      "a=b",
      "a/b",
      "a%2Fb"
    };

    static final String LONG_PREFIX = "L".repeat(9_990);

    final Random random;
    final List<String> seen = new ArrayList<>();

    Values(Random random) {
      this.random = random;
    }

    String optionalString() {
      return random.nextInt(10) == 0 ? null : string();
    }

    String string() {
      int r = random.nextInt(100);
      if (r < 30 && !seen.isEmpty()) {
        return seen.get(random.nextInt(seen.size()));
      }
      String v;
      if (r < 33) {
        v = "";
      } else if (r < 50) {
        v = WHOLE[random.nextInt(WHOLE.length)];
      } else if (r < 53) {
        v = atoms(10_000); // cut anywhere, a surrogate pair included
      } else if (r < 56) {
        // Equal in the first 9,990 characters: only the hash tells them apart.
        v = LONG_PREFIX + atoms(10).substring(0, 10);
      } else if (r < 62) {
        // Around the cap of 160 bytes, in one-, two- and three-byte pieces.
        String piece = List.of("x", "\u00e9", "%", "\u65e5", "\ud83d\ude00").get(random.nextInt(5));
        v =
            piece.repeat(
                1 + (130 + random.nextInt(40)) / utf8Length(piece.equals("%") ? "%25" : piece));
      } else {
        v = atoms(1 + random.nextInt(12));
        v = v.substring(0, Math.min(v.length(), 1 + random.nextInt(12)));
      }
      seen.add(v);
      return v;
    }

    /** Atoms up to at least {@code length} characters, cut to it. */
    private String atoms(int length) {
      StringBuilder sb = new StringBuilder();
      while (sb.length() < length) {
        sb.append(ATOMS[random.nextInt(ATOMS.length)]);
      }
      return sb.substring(0, length);
    }

    int integer() {
      return switch (random.nextInt(5)) {
        case 0 -> Integer.MIN_VALUE;
        case 1 -> Integer.MAX_VALUE;
        case 2 -> random.nextInt(7) - 3;
        default -> random.nextInt();
      };
    }

    long longValue() {
      return switch (random.nextInt(5)) {
        case 0 -> Long.MIN_VALUE;
        case 1 -> Long.MAX_VALUE;
        case 2 -> random.nextInt(7) - 3;
        default -> random.nextLong();
      };
    }

    /** Milliseconds since the epoch: mostly 1800-2600, with the eras' and years' edges. */
    long time() {
      long[] edges = {
        0,
        -1,
        1,
        -62_135_596_800_000L,
        -62_135_596_800_001L,
        253_402_300_799_999L,
        253_402_300_800_000L,
        8_640_000_000_000_000L,
        -8_640_000_000_000_000L,
        -2_208_988_800_000L,
        951_782_400_000L,
        4_102_444_800_000L,
        1_711_846_800_000L,
        1_729_990_800_000L
      };
      if (random.nextInt(6) == 0) {
        return edges[random.nextInt(edges.length)] + (random.nextInt(3) - 1) * 3_600_000L;
      }
      if (random.nextInt(4) == 0) {
        return 1_700_000_000_000L + random.nextInt(3) * 86_400_000L;
      }
      return -5_364_662_400_000L + (long) (random.nextDouble() * 25_245_000_000_000L);
    }
  }

  // ---- messages

  static String ascii(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
    }
    return out.toString();
  }

  static String shortAscii(String s) {
    if (s == null) {
      return "null";
    }
    return ascii(s.length() > 60 ? s.substring(0, 60) + "...(" + s.length() + ")" : s);
  }
}
