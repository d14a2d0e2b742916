package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schemaless file takes new optional columns in place ({@link ParquetRecordWriter#reshape}): the
 * rows written before read back null in them, in parquet-java and DuckDB alike; a list or struct
 * turned into text, or a row group already written out, is refused (the sink starts a new file
 * then). Nested changes and widenings: {@code NestedReshapeTest}.
 */
final class ReshapeTest {
  private final SchemaInference inference =
      new SchemaInference(SchemaInference.ConflictPolicy.STRING);
  private final MappingOptions options = MappingOptions.defaults();

  @TempDir Path dir;

  @Test
  void aNewKeyAndAFirstTypeAreColumnsOfTheOpenFileNullInEarlierRows() throws Exception {
    Map<String, Object> first = doc("a", 1L, "c", null);
    Map<String, Object> second = doc("a", 2L, "c", null);
    Map<String, Object> third = doc("a", 3L, "b", "x", "c", List.of(7L));
    Path file = dir.resolve("reshaped.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer =
            new ParquetRecordWriter(
                out, layoutOf(first, second), WriterOptions.builder().build(), inference)) {
      writer.write(record(0, first));
      writer.write(record(1, second));
      FileLayout wider = layoutOf(first, second, third);
      assertTrue(writer.reshape(wider), "a new key (b), a first type (c)");
      assertEquals(wider, writer.layout());
      writer.write(record(2, third));
      assertFalse(
          writer.reshape(layoutOf(first, second, third, doc("c", "text"))),
          "c: a list turned into text");
    }
    MessageType schema;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      schema = reader.schema();
    }
    List<Row> rows = ParquetJavaOracle.read(file, schema);
    assertEquals(3, rows.size());
    List<Object> b = new ArrayList<>();
    List<Object> offsets = new ArrayList<>();
    for (Row r : rows) {
      b.add(
          r.get("b") == null
              ? null
              : new String((byte[]) r.get("b"), java.nio.charset.StandardCharsets.UTF_8));
      offsets.add(r.get(FileLayout.OFFSET_COLUMN));
    }
    assertEquals(java.util.Arrays.asList(null, null, "x"), b, "parquet-java");
    assertEquals(List.of(0L, 1L, 2L), offsets, "parquet-java");
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT a, b, c[1], __kafka_offset FROM read_parquet('"
                    + file
                    + "') ORDER BY __kafka_offset")) {
      Object[][] want = {{1L, null, null, 0L}, {2L, null, null, 1L}, {3L, "x", 7L, 2L}};
      for (Object[] w : want) {
        assertTrue(rs.next());
        assertArrayEquals(
            w,
            new Object[] {rs.getObject(1), rs.getObject(2), rs.getObject(3), rs.getObject(4)},
            "DuckDB");
      }
      assertFalse(rs.next());
    }
  }

  @Test
  void aRowGroupWrittenOutCannotTakeANewColumn() throws Exception {
    Map<String, Object> first = doc("a", 1L);
    try (OutputStream out = Files.newOutputStream(dir.resolve("flushed.parquet"));
        ParquetRecordWriter writer =
            new ParquetRecordWriter(
                out, layoutOf(first), WriterOptions.builder().build(), inference)) {
      writer.write(record(0, first));
      writer.flushRowGroup();
      FileLayout before = writer.layout();
      assertFalse(writer.reshape(layoutOf(first, doc("a", 1L, "b", "x"))));
      assertEquals(before, writer.layout());
      writer.write(record(1, first));
    }
  }

  private FileLayout layoutOf(Map<?, ?>... docs) {
    Schema schema = null;
    for (Map<?, ?> d : docs) {
      schema = inference.merge(schema, inference.infer(d));
    }
    return FileLayout.of(null, false, schema, true, options);
  }

  private static Map<String, Object> doc(Object... keyValues) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      out.put((String) keyValues[i], keyValues[i + 1]);
    }
    return out;
  }

  private static SinkRecord record(long offset, Map<String, Object> value) {
    return new SinkRecord(
        "t",
        0,
        null,
        null,
        null,
        value,
        offset,
        1_700_000_000_000L + offset,
        TimestampType.CREATE_TIME);
  }
}
