package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changes inside nested objects are made in the open file ({@link ParquetRecordWriter#reshape}),
 * with pages already closed before the change (two rows a page): a new key at depth 2 and 3, in a
 * struct, in a list's element and in a map's value; a nested field that was only null getting its
 * first type; an empty list's element type; and widenings of values written (a long to a double, an
 * integer or boolean to its JSON text). Each file reads in parquet-java and DuckDB exactly as a
 * file written with the wider schema from its first record does, and its pages stay aligned; but a
 * place that had no column before the change (a field only null, a list only empty or of nulls: a
 * file holds no column for them) reads as null in the rows before it, as in a file written wide
 * from the start with those rows {@link Change#written as stored}. A double or a list turned into
 * text is refused: the sink starts a new file.
 */
final class NestedReshapeTest {
  private static final int BEFORE = 9;
  private static final int AFTER = 5;

  private final SchemaInference inference =
      new SchemaInference(SchemaInference.ConflictPolicy.STRING);
  private final MappingOptions mapping = MappingOptions.defaults();

  @TempDir Path dir;

  /**
   * A name, the documents before the change and those after (by record number), and the documents
   * before as the narrow file holds them: a list without a typed element so far has no column, so
   * it is null in the rows written before its elements got a type.
   */
  record Change(
      String name,
      LongFunction<Object> before,
      LongFunction<Object> after,
      LongFunction<Object> written) {
    Change(String name, LongFunction<Object> before, LongFunction<Object> after) {
      this(name, before, after, before);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Change> changes() {
    return List.of(
        new Change(
            "a new key at depth 3 and a new struct at depth 2",
            i -> doc("id", i, "s", doc("t", doc("a", i))),
            i -> doc("id", i, "s", doc("t", doc("a", i, "b", "x" + i), "u", doc("c", i % 2 == 0)))),
        new Change(
            "a new key in a list's element, itself a list",
            i ->
                doc(
                    "id",
                    i,
                    "l",
                    i % 4 == 0
                        ? List.of()
                        : i % 4 == 1 ? null : Arrays.asList(doc("a", i), null, doc("a", -i))),
            i -> doc("id", i, "l", List.of(doc("a", i, "b", List.of(i, i + 1)), doc()))),
        new Change(
            "a new key in a map's value, inside a struct",
            i -> doc("id", i, "s", doc("m", i % 3 == 0 ? Map.of() : Map.of(i, doc("a", i)))),
            i -> doc("id", i, "s", doc("m", Map.of(i, doc("a", i, "b", "y"), -i, doc())))),
        new Change(
            "a nested field's first type and an empty list's element type",
            i ->
                doc(
                    "id",
                    i,
                    "s",
                    doc("n", null, "e", i % 2 == 0 ? List.of() : Arrays.asList((Object) null)),
                    "o",
                    doc()),
            i -> doc("id", i, "s", doc("n", i, "e", List.of(i)), "o", doc("k", i)),
            i -> doc("id", i, "s", doc("n", null, "e", null), "o", doc())),
        new Change(
            "a list of only nulls whose elements become structs",
            i -> doc("id", i, "l", i % 2 == 0 ? List.of() : Arrays.asList(null, null)),
            i -> doc("id", i, "l", List.of(doc("a", i))),
            i -> doc("id", i, "l", null)),
        new Change(
            "widenings: a long to a double, a long and a boolean to text, in a list",
            i ->
                doc(
                    "id",
                    i,
                    "s",
                    doc("v", i * 1_000_003L, "w", i, "f", i % 3 == 0),
                    "l",
                    List.of(doc("z", i))),
            i ->
                doc(
                    "id",
                    i,
                    "s",
                    doc("v", i + 0.5, "w", "text" + i, "f", "no"),
                    "l",
                    List.of(doc("z", i * 0.25)))));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Change change : changes()) {
      for (PageVersion version : PageVersion.values()) {
        for (boolean dictionary : new boolean[] {true, false}) {
          out.add(Arguments.of(change, version, dictionary, true));
        }
      }
      out.add(Arguments.of(change, PageVersion.V1, true, false));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}, {1}, dictionary {2}, aligned {3}")
  @MethodSource("cases")
  void takenInPlaceAndReadAsIfWrittenWideFromTheStart(
      Change change, PageVersion version, boolean dictionary, boolean aligned) throws Exception {
    WriterOptions options =
        WriterOptions.builder()
            .pageVersion(version)
            .dictionary(dictionary)
            .alignedPages(aligned)
            .pageRowLimit(2)
            .build();
    List<Object> docs = new ArrayList<>();
    for (long i = 0; i < BEFORE; i++) {
      docs.add(change.before().apply(i));
    }
    FileLayout narrow = layoutOf(docs);
    for (long i = 0; i < AFTER; i++) {
      docs.add(change.after().apply(BEFORE + i));
      docs.add(change.before().apply(BEFORE + i)); // the old shape still fits
    }
    FileLayout wide = layoutOf(docs);
    Path reshaped = dir.resolve("reshaped.parquet");
    try (OutputStream out = Files.newOutputStream(reshaped);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, narrow, options, inference)) {
      for (int i = 0; i < BEFORE; i++) {
        writer.write(record(i, docs.get(i)));
      }
      assertTrue(writer.reshape(wide), "in place");
      assertEquals(wide, writer.layout());
      for (int i = BEFORE; i < docs.size(); i++) {
        writer.write(record(i, docs.get(i)));
      }
    }
    Path reference = dir.resolve("reference.parquet");
    try (OutputStream out = Files.newOutputStream(reference);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, wide, options, inference)) {
      for (int i = 0; i < docs.size(); i++) {
        writer.write(record(i, i < BEFORE ? change.written().apply(i) : docs.get(i)));
      }
    }
    MessageType schema = schemaOf(reshaped);
    assertEquals(schemaOf(reference), schema);
    List<Row> got = ParquetJavaOracle.read(reshaped, schema);
    List<Row> want = ParquetJavaOracle.read(reference, schema);
    assertEquals(docs.size(), got.size());
    for (int i = 0; i < want.size(); i++) {
      assertEquals(want.get(i), got.get(i), "parquet-java, row " + i);
    }
    assertEquals(duckDb(reference), duckDb(reshaped), "DuckDB");
    List<List<Long>> pages = pageStarts(reshaped);
    assertTrue(pages.get(0).size() > BEFORE / 2, "pages closed before the change: " + pages);
    if (aligned) {
      for (List<Long> column : pages) {
        assertEquals(pages.get(0), column, "aligned pages");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void aChangeOfValuesWithoutAFormInTheWiderTypeIsRefused(String name, Object before, Object after)
      throws Exception {
    FileLayout narrow = layoutOf(List.of(before));
    try (OutputStream out = Files.newOutputStream(dir.resolve("refused.parquet"));
        ParquetRecordWriter writer =
            new ParquetRecordWriter(
                out, narrow, WriterOptions.builder().pageRowLimit(2).build(), inference)) {
      for (int i = 0; i < 5; i++) {
        writer.write(record(i, before));
      }
      assertFalse(writer.reshape(layoutOf(List.of(before, after))), name);
      assertEquals(narrow, writer.layout());
      writer.write(record(5, before));
    }
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        Arguments.of(
            "a double turned into text (5 and 5.0 are one double)",
            doc("s", doc("d", 1.5)),
            doc("s", doc("d", "x"))),
        Arguments.of(
            "a struct turned into text", doc("s", doc("t", doc("a", 1L))), doc("s", doc("t", "x"))),
        Arguments.of(
            "a list turned into text", doc("s", doc("l", List.of(1L))), doc("s", doc("l", 2L))));
  }

  private FileLayout layoutOf(List<Object> docs) {
    Schema schema = null;
    for (Object d : docs) {
      schema = inference.merge(schema, inference.infer(d));
    }
    return FileLayout.of(null, false, schema, true, mapping);
  }

  private static MessageType schemaOf(Path file) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.schema();
    }
  }

  /** Every row as DuckDB renders its columns, in offset order. */
  private static List<String> duckDb(Path file) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT * FROM read_parquet('"
                    + file
                    + "') ORDER BY "
                    + FileLayout.OFFSET_COLUMN)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= columns; c++) {
          row.append(rs.getMetaData().getColumnName(c))
              .append('=')
              .append(rs.getString(c))
              .append(' ');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /** Per column of the first row group, the first row of each page (parquet-java's index). */
  private static List<List<Long>> pageStarts(Path file) throws Exception {
    List<List<Long>> out = new ArrayList<>();
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      BlockMetaData block = reader.getRowGroups().get(0);
      for (ColumnChunkMetaData column : block.getColumns()) {
        OffsetIndex index = reader.readOffsetIndex(column);
        List<Long> starts = new ArrayList<>();
        for (int p = 0; p < index.getPageCount(); p++) {
          starts.add(index.getFirstRowIndex(p));
        }
        out.add(starts);
      }
    }
    return out;
  }

  private static Map<Object, Object> doc(Object... keyValues) {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      out.put(keyValues[i], keyValues[i + 1]);
    }
    return out;
  }

  private static SinkRecord record(long offset, Object value) {
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
