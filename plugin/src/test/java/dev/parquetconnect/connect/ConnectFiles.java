package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.CanonicalValues;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.io.LocalInputFile;

/** Writing records to a file and checking what parquet-java and DuckDB read back. */
public final class ConnectFiles {
  private ConnectFiles() {}

  static void write(Path file, FileLayout layout, List<SinkRecord> records, WriterOptions options)
      throws IOException {
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (SinkRecord r : records) {
        writer.write(r);
      }
      assertEquals(records.size(), writer.recordCount());
    }
  }

  /** The footer's key/value metadata as parquet-java reads it. */
  static Map<String, String> footerMetadata(Path file) throws IOException {
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFileMetaData().getKeyValueMetaData();
    }
  }

  /**
   * Reads {@code file} with parquet-java, converts each row back to Connect with the footer's
   * metadata, and checks each equals its original record; then checks DuckDB reads every row as
   * parquet-java does. Returns parquet-java's rows.
   */
  static List<Row> assertReadBackEqual(Path file, FileLayout layout, List<SinkRecord> records)
      throws Exception {
    try (DuckDbOracle duck = new DuckDbOracle()) {
      return assertReadBackEqual(file, layout, records, duck);
    }
  }

  /**
   * {@link #assertReadBackEqual(Path, FileLayout, List)} on a DuckDB connection the caller keeps
   * open (tests that check hundreds of files); {@code duck} null for a file DuckDB cannot read (the
   * deprecated, Hadoop-framed LZ4 codec), read then by parquet-java and our reader only.
   */
  public static List<Row> assertReadBackEqual(
      Path file, FileLayout layout, List<SinkRecord> records, DuckDbOracle duck) throws Exception {
    MessageType schema = layout.parquetSchema();
    List<Row> rows = ParquetJavaOracle.read(file, schema);
    assertEquals(records.size(), rows.size());
    ParquetToConnect converter = ParquetToConnect.of(schema, footerMetadata(file));
    RowToConnect oracle = new RowToConnect(converter);
    assertTrue(converter.sinkFile());
    for (int i = 0; i < rows.size(); i++) {
      assertRestored(records.get(i), oracle.convert(rows.get(i)), layout);
    }
    List<Row> ours = readWithOurReader(file);
    assertEquals(rows, ours, "our reader reads what parquet-java reads");
    RowToConnect ourConverter;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      ourConverter =
          RowToConnect.of(
              reader.schema(), ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
    }
    for (int i = 0; i < ours.size(); i++) {
      assertRestored(records.get(i), ourConverter.convert(ours.get(i)), layout);
    }
    if (duck == null) {
      return rows;
    }
    List<List<String>> duckRows = duck.read(file, schema);
    assertEquals(rows.size(), duckRows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(CanonicalValues.fields(rows.get(i), schema), duckRows.get(i), "row " + i);
    }
    return rows;
  }

  /** Every row of {@code file} as our reader assembles it. */
  public static List<Row> readWithOurReader(Path file) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader rowReader = reader.rowReader()) {
      while (rowReader.hasNext()) {
        rows.add(rowReader.next());
      }
    }
    return rows;
  }

  static void assertRestored(SinkRecord original, RestoredRecord restored, FileLayout layout) {
    String at = "offset " + original.kafkaOffset();
    MappingOptions options = layout.options();
    if (options.kafkaMetadata()) {
      assertEquals(original.topic(), restored.topic(), at);
      assertEquals(original.kafkaPartition(), restored.partition(), at);
      assertEquals(original.kafkaOffset(), restored.offset(), at);
      assertEquals(original.timestamp(), restored.timestamp(), at);
    }
    if (options.kafkaKey()) {
      assertEquals(original.keySchema(), restored.keySchema(), at);
      assertDeepEquals(
          ConnectTestData.normalized(original.keySchema(), original.key()), restored.key(), at);
    }
    if (original.value() != null || layout.hasTombstoneColumn()) {
      assertEquals(original.valueSchema(), restored.valueSchema(), at);
      assertDeepEquals(
          ConnectTestData.normalized(original.valueSchema(), original.value()),
          restored.value(),
          at);
    }
    if (options.kafkaHeaders()) {
      assertHeadersEqual(original.headers(), restored.headers(), at);
    }
  }

  static void assertHeadersEqual(Headers expected, Headers actual, String at) {
    Iterator<Header> e = expected.iterator();
    Iterator<Header> a = actual.iterator();
    while (e.hasNext()) {
      assertTrue(a.hasNext(), at + ": a header is missing");
      Header x = e.next();
      Header y = a.next();
      assertEquals(x.key(), y.key(), at);
      assertEquals(x.schema(), y.schema(), at + " header " + x.key());
      assertDeepEquals(x.value(), y.value(), at + " header " + x.key());
    }
    assertFalse(a.hasNext(), at + ": an extra header");
  }

  /**
   * Equality that compares byte arrays by content wherever they are: at the top, in lists, in map
   * keys and values and in Structs at any depth. (Struct.equals and Map.equals compare a byte[]
   * inside a map, or inside a list in a Struct, by identity, so a value holding a map of BYTES
   * never equalled its copy read back.) Structs compare by schema and by their fields' values as
   * set (a null is not its default); maps regardless of order, lists in order.
   */
  public static void assertDeepEquals(Object expected, Object actual, String at) {
    assertEquals(canonical(expected), canonical(actual), at);
  }

  /** A byte[] with equality and hash by content. */
  private record Bytes(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return Arrays.toString(bytes);
    }
  }

  /**
   * A Struct as its schema and its fields' values (canonical, as set: no defaults). Hashed by its
   * values only: Connect's schema hash takes a bytes default by identity while its equals compares
   * it by content, so equal schemas may hash apart.
   */
  private record CanonicalStruct(Schema schema, List<Object> values) {
    @Override
    public int hashCode() {
      return values.hashCode();
    }
  }

  /** {@code value} with every byte[] a {@link Bytes} and every Struct a CanonicalStruct. */
  private static Object canonical(Object value) {
    if (value instanceof byte[] b) {
      return new Bytes(b);
    }
    if (value instanceof Struct struct) {
      List<Object> values = new ArrayList<>();
      for (Field f : struct.schema().fields()) {
        values.add(canonical(struct.getWithoutDefault(f.name())));
      }
      return new CanonicalStruct(struct.schema(), values);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(canonical(e));
      }
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new HashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(canonical(e.getKey()), canonical(e.getValue()));
      }
      if (out.size() != map.size()) {
        throw new AssertionError("keys equal by content: " + map);
      }
      return out;
    }
    return value;
  }
}
