package dev.parquetconnect.sink.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.SinkKeys;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreOutput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No partition value can place a file outside the configured prefix. */
final class HivePathsTest {

  /** Values an attacker or a careless producer might send. */
  static List<String> hostileValues() {
    List<String> values =
        new ArrayList<>(
            List.of(
                "/",
                "..",
                ".",
                "../../etc/passwd",
                "a/../../b",
                "/abs/path",
                "\\..\\windows",
                "a\\b",
                "..%2F..%2F",
                "%2e%2e",
                "x\u0000y",
                "tab\tnew\nline\rcr",
                "\u0085\u009f",
                "\u007f",
                "_hidden",
                ".tmp-pqc-00",
                ".hidden",
                "a=b",
                "k=v/w=x",
                "~",
                "a~0123456789abcdef",
                "\ud800",
                "emoji \ud83d\ude00 \u00e9",
                "",
                " ",
                "__HIVE_DEFAULT_PARTITION__",
                "null",
                "NULL",
                "nUlL",
                "%6Eull",
                "\udc00",
                "a\ud800",
                "a\udbff",
                "a\ufffd",
                "\ud83d"));
    values.add("x".repeat(10_000));
    values.add("/".repeat(10_000));
    values.add("..".repeat(5_000));
    values.add("\u00e9".repeat(10_000));
    values.add("\ud83d\ude00".repeat(5_000));
    values.add("x".repeat(9_999) + "y");
    return values;
  }

  @Test
  void everyValueBecomesOneSafeSegmentUnderThePrefix() {
    SinkKeys keys = new SinkKeys("lake/topics");
    for (String value : hostileValues()) {
      String path =
          HivePaths.path(
              List.of(
                  new PartitionColumn("k", value),
                  new PartitionColumn(value.isEmpty() ? "n" : value, "v")));
      String key = keys.dataKey("t", path, new TopicPartition("t", 0), 42, 99, 0);
      String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
      assertEquals(key, StoreKeys.checkKey(key), "the store accepts the key of " + shown);
      assertTrue(key.startsWith("lake/topics/t/k="), key);
      String[] segments = key.split("/");
      assertEquals(6, segments.length, "one segment per column for " + shown + ": " + key);
      for (String segment : segments) {
        assertFalse(segment.equals("..") || segment.equals("."), key);
        assertFalse(
            segment.startsWith(".") || segment.startsWith("_"), "engines would hide " + segment);
        assertTrue(segment.getBytes(StandardCharsets.UTF_8).length <= 255, segment);
        for (char c : segment.toCharArray()) {
          assertFalse(c < 0x20 || c == 0x7f, "control character in " + key);
        }
      }
    }
  }

  /**
   * Spark and Hive decode {@code %XX} as the one character XX and DuckDB as a UTF-8 byte, so the C1
   * controls read back the same in both only when they are not escaped.
   */
  @Test
  void c1ControlsStayAsTheyAreSoEveryEngineReadsTheSameValue() {
    assertEquals(
        "k=\u0080a\u0085\u009f",
        HivePaths.path(List.of(new PartitionColumn("k", "\u0080a\u0085\u009f"))));
    assertEquals("\u0085=v", HivePaths.path(List.of(new PartitionColumn("\u0085", "v"))));
    assertEquals("k=%7F%01", HivePaths.path(List.of(new PartitionColumn("k", "\u007f\u0001"))));
  }

  @Test
  void encodingIsInjectiveAndCapped() {
    Set<String> encoded = new HashSet<>();
    for (String value : hostileValues()) {
      String e = HivePaths.encodeValue(value);
      assertTrue(e.getBytes(StandardCharsets.UTF_8).length <= HivePaths.MAX_VALUE_BYTES, e);
      if (!value.isEmpty() && !value.equals(HivePaths.DEFAULT_PARTITION)) {
        assertTrue(encoded.add(e), "two values encode to " + e);
      }
    }
    // Long values sharing a prefix stay apart through the hash of the whole value.
    assertNotEquals(
        HivePaths.encodeValue("x".repeat(10_000)), HivePaths.encodeValue("x".repeat(9_999) + "y"));
    assertEquals(HivePaths.DEFAULT_PARTITION, HivePaths.encodeValue(null));
    assertEquals("a%2Fb%3Dc%25d%7Ee", HivePaths.encodeValue("a/b=c%d~e"));
    assertEquals("%2E.", HivePaths.encodeValue(".."), "a leading dot is enough to escape");
    assertEquals("caf\u00e9 ok", HivePaths.encodeValue("caf\u00e9 ok"));
    assertEquals("\u0085", HivePaths.encodeValue("\u0085"), "C1 controls stay raw");
    // Unpaired surrogates: U+FFFD and the hash, so that they stay apart.
    assertTrue(HivePaths.encodeValue("a\ud800").startsWith("a%EF%BF%BD~"));
    assertEquals(27, HivePaths.encodeValue("a\ud800").length());
    assertNotEquals(HivePaths.encodeValue("a\ud800"), HivePaths.encodeValue("a\udc00"));
    assertTrue(HivePaths.encodeName("\udfff").startsWith("%EF%BF%BD~"));
    assertEquals("%EF%BF%BD", HivePaths.encodeSegment("\ud800", 200), "segments stay as they were");
    assertEquals("%6Eull", HivePaths.encodeValue("null"), "DuckDB reads null as NULL");
    assertEquals("%4EuLL", HivePaths.encodeValue("NuLL"));
    assertEquals("nulls", HivePaths.encodeValue("nulls"));
  }

  @Test
  void aLocalStoreKeepsEveryFileInsideItsRoot(@TempDir Path dir) throws Exception {
    Path root = Files.createDirectories(dir.resolve("root"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    SinkKeys keys = new SinkKeys("topics");
    int n = 0;
    try (Store store = new LocalStore(root)) {
      for (String value : hostileValues()) {
        String key =
            keys.dataKey(
                "t",
                HivePaths.path(List.of(new PartitionColumn("k", value))),
                new TopicPartition("t", 0),
                n,
                n++,
                0);
        try (StoreOutput out = store.create(key)) {
          out.write(new byte[] {1});
          out.commit();
        }
      }
      List<StoreFile> files = store.list("topics/t", true);
      assertEquals(hostileValues().size(), files.size(), "one file per value");
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.toList()) {
        assertTrue(p.startsWith(root) || p.equals(dir) || p.equals(outside), p.toString());
      }
    }
    try (Stream<Path> left = Files.list(outside)) {
      assertEquals(0, left.count());
    }
  }

  /** Hive-style engines decode what we encode: DuckDB reads each value back unchanged. */
  @Test
  void duckDbDecodesTheValuesBack(@TempDir Path dir) throws Exception {
    List<String> values =
        List.of(
            "a/b",
            "x=y",
            "50% off",
            "caf\u00e9",
            "#1 'q' \"d\"",
            "..",
            "_u",
            "tab\there",
            "a~b",
            "sp ace",
            "plus+sign",
            "?*:[]{}^\\",
            "null",
            "NULL",
            "Null");
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement()) {
      for (int i = 0; i < values.size(); i++) {
        Path partition =
            Files.createDirectories(dir.resolve(HivePaths.segment("k", values.get(i))));
        sql.execute(
            "COPY (SELECT "
                + i
                + " AS id) TO '"
                + partition.resolve("f.parquet").toString().replace("'", "''")
                + "' (FORMAT parquet)");
      }
      ResultSet rows =
          sql.executeQuery(
              "SELECT id, k FROM read_parquet('"
                  + dir.toString().replace("'", "''")
                  + "/**/*.parquet', hive_partitioning=true, hive_types_autocast=false) ORDER BY id");
      int i = 0;
      while (rows.next()) {
        assertEquals(i, rows.getInt(1));
        assertEquals(values.get(i), rows.getString(2), "value " + i);
        i++;
      }
      assertEquals(values.size(), i);
    }
  }
}
