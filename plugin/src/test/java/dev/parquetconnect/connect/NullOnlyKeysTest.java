package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schemaless key that had no value but null so far has no column: not at the top level, not in a
 * struct, not as a list's element (an empty list, a list of nulls) nor a map's value. A column of a
 * guessed type (it used to be STRING) would contradict the type a later file learns, and Spark's
 * mergeSchema refuses a directory whose files disagree on a column's type; a column a file lacks
 * reads as null everywhere. A struct left without columns keeps its presence with the always-null
 * {@code __empty} of an object without keys (a Parquet group needs a field); a list or map that
 * would be left empty is left out whole. The footer's Connect schema still names every key.
 * parquet-java and DuckDB read the files; the source replays them as before, but for lists and maps
 * without a typed element so far, which read as absent.
 */
final class NullOnlyKeysTest {
  private final SchemaInference inference =
      new SchemaInference(SchemaInference.ConflictPolicy.STRING);
  private final MappingOptions mapping = MappingOptions.defaults();

  @TempDir Path dir;

  /** Every shape of "no value so far", twice. */
  private static List<Object> nullOnlyDocs() {
    List<Object> docs = new ArrayList<>();
    for (long i = 0; i < 2; i++) {
      Map<Object, Object> nullValue = new HashMap<>();
      nullValue.put(1L + i, null);
      docs.add(
          doc(
              "id",
              i,
              "a",
              null,
              "o",
              doc(),
              "s",
              doc("x", null),
              "l",
              List.of(),
              "ln",
              Arrays.asList(null, null),
              "ls",
              List.of(doc("y", null)),
              "m",
              nullValue,
              "ms",
              Map.of(7L, doc("z", null)),
              "n",
              doc("e", List.of(), "k", i)));
    }
    return docs;
  }

  @Test
  void aFileHoldsNoColumnForAKeyWithoutAValueSoFar() throws Exception {
    List<Object> docs = nullOnlyDocs();
    FileLayout layout = layoutOf(docs);
    Path file = write(layout, docs);
    MessageType schema = schemaOf(file);
    // a, l, ln and m have no column; o, s and the element of ls and value of ms keep presence.
    assertEquals(
        """
        message kafka_record {
          optional int64 id;
          optional group ls (LIST) {
            repeated group list {
              optional group element {
                optional boolean __empty;
              }
            }
          }
          optional group ms (MAP) {
            repeated group key_value {
              required int64 key;
              optional group value {
                optional boolean __empty;
              }
            }
          }
          optional group n {
            optional int64 k;
          }
          optional group o {
            optional boolean __empty;
          }
          optional group s {
            optional boolean __empty;
          }
          required binary __kafka_topic (STRING);
          required int32 __kafka_partition;
          required int64 __kafka_offset;
          optional int64 __kafka_timestamp (TIMESTAMP(MILLIS,true));
        }
        """,
        ParquetJavaOracle.toParquetJava(schema).toString().replace("\r", "").strip() + "\n");
    // The learned schema still knows every key, its type unknown.
    Schema stored = layout.valueSchema();
    for (String key : List.of("a", "l", "ln", "m")) {
      assertTrue(stored.field(key) != null, key);
    }
    assertTrue(SchemaInference.isUnknown(stored.field("a").schema()));
    assertTrue(SchemaInference.isUnknown(stored.field("s").schema().field("x").schema()));

    List<Row> rows = ParquetJavaOracle.read(file, schema);
    assertEquals(
        "{id: 0, ls: [{__empty: null}], ms: {7: {__empty: null}}, n: {k: 0},"
            + " o: {__empty: null}, s: {__empty: null}",
        prefix(rows.get(0)));
    assertEquals(
        List.of(
            "id=0 ls=[{'__empty': NULL}] ms={7={'__empty': NULL}} n={'k': 0} o={'__empty': NULL}"
                + " s={'__empty': NULL} ",
            "id=1 ls=[{'__empty': NULL}] ms={7={'__empty': NULL}} n={'k': 1} o={'__empty': NULL}"
                + " s={'__empty': NULL} "),
        duckDb(file, "id, ls, ms, n, o, s"));

    // Replay: as before (null keys left out), but for the list and map without a typed element
    // so far, which read as absent rather than empty.
    assertEquals(
        List.of(
            doc(
                "id",
                0L,
                "ls",
                List.of(doc()),
                "ms",
                doc(7L, doc()),
                "n",
                doc("k", 0L),
                "o",
                doc(),
                "s",
                doc()),
            doc(
                "id",
                1L,
                "ls",
                List.of(doc()),
                "ms",
                doc(7L, doc()),
                "n",
                doc("k", 1L),
                "o",
                doc(),
                "s",
                doc())),
        replay(file));
  }

  @Test
  void aValueWhoseKeysAreAllNullKeepsThePlaceholderColumn() throws Exception {
    List<Object> docs = List.of(doc("a", null), doc("a", null, "b", List.of()));
    Path file = write(layoutOf(docs), docs);
    MessageType schema = schemaOf(file);
    assertEquals("__empty", schema.root().field(0).name());
    assertEquals(5, schema.root().fieldCount());
    assertEquals(2, ParquetJavaOracle.read(file, schema).size());
    assertEquals(List.of("__empty=null ", "__empty=null "), duckDb(file, "__empty"));
    assertEquals(List.of(doc(), doc()), replay(file));
  }

  @Test
  void theFirstValueAddsTheColumnInPlaceNullInTheRowsBefore() throws Exception {
    List<Object> docs = new ArrayList<>(nullOnlyDocs());
    FileLayout narrow = layoutOf(docs);
    Map<Object, Object> typed =
        doc(
            "id",
            2L,
            "a",
            5L,
            "o",
            doc("p", true),
            "s",
            doc("x", "t"),
            "l",
            List.of(7L),
            "ln",
            Arrays.asList(null, 1.5),
            "ls",
            List.of(doc("y", "u")),
            "m",
            Map.of(3L, 2.5),
            "ms",
            Map.of(7L, doc("z", 4L)),
            "n",
            doc("e", List.of("v")));
    docs.add(typed);
    FileLayout wide = layoutOf(docs);
    Path file = dir.resolve("reshaped.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer =
            new ParquetRecordWriter(
                out, narrow, WriterOptions.builder().pageRowLimit(1).build(), inference)) {
      writer.write(record(0, docs.get(0)));
      writer.write(record(1, docs.get(1)));
      assertTrue(writer.reshape(wide), "in place");
      writer.write(record(2, typed));
    }
    MessageType schema = schemaOf(file);
    assertEquals(wide.parquetSchema(), schema);
    List<Row> rows = ParquetJavaOracle.read(file, schema);
    assertEquals(
        "{a: null, id: 0, l: null, ln: null, ls: [{y: null}], m: null,"
            + " ms: {7: {z: null}}, n: {e: null, k: 0}, o: {p: null}, s: {x: null}",
        prefix(rows.get(0)));
    assertEquals(
        "{a: 5, id: 2, l: [7], ln: [null, 1.5], ls: [{y: u}], m: {3: 2.5},"
            + " ms: {7: {z: 4}}, n: {e: [v], k: null}, o: {p: true}, s: {x: t}",
        prefix(rows.get(2))
            .replace("b64:dQ==", "u")
            .replace("b64:dg==", "v")
            .replace("b64:dA==", "t"));
    List<String> duck = duckDb(file, "id, a, l, ln, m, o, s");
    assertEquals("id=0 a=null l=null ln=null m=null o={'p': NULL} s={'x': NULL} ", duck.get(0));
    assertEquals("id=2 a=5 l=[7] ln=[NULL, 1.5] m={3=2.5} o={'p': true} s={'x': t} ", duck.get(2));
    assertEquals(
        doc(
            "id",
            0L,
            "ls",
            List.of(doc()),
            "ms",
            doc(7L, doc()),
            "n",
            doc("k", 0L),
            "o",
            doc(),
            "s",
            doc()),
        replay(file).get(0));
  }

  @Test
  void aKeyNamedLikeThePlaceholderIsNotReadFromIt() throws Exception {
    List<Object> docs = List.of(doc("id", 0L, "s", doc("__empty", null)));
    Path file = write(layoutOf(docs), docs);
    GroupNode s = (GroupNode) schemaOf(file).root().field(1);
    assertEquals("s", s.name());
    assertEquals(List.of("__empty"), s.fields().stream().map(SchemaNode::name).toList());
    assertEquals(List.of(doc("id", 0L, "s", doc())), replay(file));
  }

  /**
   * Files of earlier versions hold a STRING column of nulls for a key without a value so far; the
   * source still replays them, as before.
   */
  @Test
  void filesWithAStringColumnOfNullsStillReplay() throws Exception {
    List<Object> docs = List.of(doc("a", null, "id", 1L, "s", doc("x", null)));
    FileLayout layout = layoutOf(docs);
    Schema asBefore =
        SchemaBuilder.struct()
            .optional()
            .field("a", Schema.OPTIONAL_STRING_SCHEMA)
            .field("id", Schema.OPTIONAL_INT64_SCHEMA)
            .field(
                "s",
                SchemaBuilder.struct().optional().field("x", Schema.OPTIONAL_STRING_SCHEMA).build())
            .build();
    MessageType schema = FileLayout.of(null, asBefore, mapping).parquetSchema();
    WriterOptions.Builder options = WriterOptions.builder();
    layout.keyValueMetadata().forEach(options::keyValue);
    Path file = dir.resolve("before.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options.build())) {
      GroupNode root = schema.root();
      writer.write(
          Row.of(
              root,
              null,
              1L,
              Row.of((GroupNode) root.field(2), (Object) null),
              "t".getBytes(StandardCharsets.UTF_8),
              0,
              0L,
              1_700_000_000_000L));
    }
    assertEquals(List.of(doc("id", 1L, "s", doc())), replay(file));
  }

  @Test
  void aSchemaFieldThatIsAlwaysNullKeepsItsColumn() {
    Schema value =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_INT64_SCHEMA).optional().build())
            .build();
    MessageType schema = FileLayout.of(null, value, mapping).parquetSchema();
    assertEquals(
        List.of("id", "note", "tags"),
        schema.fields().subList(0, 3).stream().map(f -> f.name()).toList());
  }

  // ---- helpers

  private FileLayout layoutOf(List<Object> docs) {
    Schema schema = null;
    for (Object d : docs) {
      schema = inference.merge(schema, inference.infer(d));
    }
    return FileLayout.of(null, false, schema, true, mapping);
  }

  private Path write(FileLayout layout, List<Object> docs) throws Exception {
    Path file = dir.resolve("file.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer =
            new ParquetRecordWriter(out, layout, WriterOptions.builder().build(), inference)) {
      for (int i = 0; i < docs.size(); i++) {
        writer.write(record(i, docs.get(i)));
      }
    }
    return file;
  }

  private static MessageType schemaOf(Path file) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.schema();
    }
  }

  /** The value columns of a parquet-java row (the text before the Kafka metadata). */
  private static String prefix(Row row) {
    String text = row.toString();
    int end = text.indexOf(", __kafka_topic");
    return end < 0 ? text : text.substring(0, end);
  }

  private static List<String> duckDb(Path file, String columns) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT "
                    + columns
                    + " FROM read_parquet('"
                    + file
                    + "') ORDER BY "
                    + FileLayout.OFFSET_COLUMN)) {
      int count = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= count; c++) {
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

  /** The values the source replays, schemaless. */
  private static List<Object> replay(Path file) throws Exception {
    List<Object> values = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      ParquetToConnect mapping =
          ParquetToConnect.of(
              reader.schema(), ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
      assertEquals(null, mapping.valueSchema(), "schemaless");
      try (ConnectRecordReader records = new ConnectRecordReader(reader, mapping)) {
        while (records.hasNext()) {
          records.next();
          values.add(records.value());
        }
      }
    }
    return values;
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
