package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.source.ParquetSourceConfig;
import dev.parquetconnect.source.TaskDriver;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded differential test of the schemaless path, end to end: random JSON documents, written as
 * text, become Connect values through Kafka's own {@link JsonConverter} ({@code
 * schemas.enable=false}, as a worker runs it), go through the real {@link ParquetSinkTask} on a
 * local store until every offset is committed, and the committed files are read back by DuckDB and
 * by parquet-java and compared row by row with what the documented rules say each row must hold;
 * the files are also replayed with our {@link ConnectRecordReader} and through the real source task
 * ({@code TaskDriver}: each offset once, in order) and compared with what JsonConverter produced.
 * It also bounds the files: schema change commits equal the model's and at most its distinct
 * widenings, and files at most flush.size's plus those.
 *
 * <p>The expectation is derived here from the JSON documents alone, from the rules as documented
 * (docs/configuration.md {@code schemaless.type.conflict}, docs/architecture.md, the javadoc of
 * {@code SchemaInference}, {@code ConnectToParquet} and {@code ParquetToConnect}), not from the
 * sink's inference code:
 *
 * <ul>
 *   <li>a file's schema is inferred from its records: JSON integers are INT64, other numbers
 *       DOUBLE, an integer widens to DOUBLE where the other records have fractions; an object is a
 *       struct of its keys (sorted), a key seen in any record is an optional column; an array's
 *       element type is the merge of its elements'; a key that was only ever null so far (or an
 *       array only ever empty or of nulls) has no column at all, so no file holds a column whose
 *       values were all null in the topic up to it (a column of a guessed type that later files
 *       contradict);
 *   <li>any other pair of types is a conflict: with {@code string} the field is STRING and values
 *       that are not strings are stored as their JSON text; with {@code fail} the record that
 *       brings the conflict (with its file's schema, or within itself) is a bad record (dead letter
 *       queue) and the file goes on; an object with an empty key counts as a conflict (no Connect
 *       field can be named ""); a document stored whole as text is the one column {@code value};
 *   <li>every file starts from the merge of all the types the task's files had so far and its first
 *       record's; a record that does not fit its file's schema widens the file's schema in place
 *       when every value the file holds has a form in the wider type: a new key at any depth, a key
 *       that was only ever null or an empty array's element getting a type, a column without values
 *       taking any type, a long becoming DOUBLE, a long or boolean its JSON text; otherwise (a
 *       fraction, an object or an array turned into STRING) it commits the open file and the next
 *       one starts from the merge of all learned (no row group is written out in these small files,
 *       which would also make it commit). {@code flush.size} counts every record read, bad ones
 *       too. Under {@code fail}, a record that does not fit its file and whose types conflict with
 *       what was learned is a bad record;
 *   <li>an object without keys (or whose keys all have no column) is a Parquet group holding one
 *       always-null {@code __empty};
 *   <li>replay (schemaless) gives maps again, without the keys whose value was null or absent, or
 *       whose column the file lacks (an array that was only empty or of nulls in the topic).
 * </ul>
 */
final class RandomSchemalessTest {
  private static final String TOPIC = "json";

  /** Seeds per conflict policy; each is a few hundred records in tens of files. */
  private static final int SEEDS = 6;

  private static final int RECORDS = 220;

  @TempDir Path dir;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String policy : List.of("string", "fail")) {
      for (int s = 0; s < SEEDS; s++) {
        out.add(Arguments.of(policy, 0x5eed_0000L + s * 7919L + (policy.equals("fail") ? 1 : 0)));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("cases")
  void committedFilesHoldTheDocumentedValues(String policy, long seed) throws Exception {
    boolean failOnConflict = policy.equals("fail");
    Random random = new Random(seed);
    Generator gen = new Generator(random, 0.025);

    // Documents as text, through JsonConverter as a worker converts them.
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), false);
    List<Object> docs = new ArrayList<>();
    List<SinkRecord> records = new ArrayList<>();
    for (int offset = 0; offset < RECORDS; offset++) {
      Object doc = gen.document();
      String text = gen.text(doc);
      SchemaAndValue connect =
          converter.toConnectData(TOPIC, text.getBytes(StandardCharsets.UTF_8));
      assertEquals(null, connect.schema(), "schemaless");
      assertSameJson(
          doc, connect.value(), "JsonConverter's value of offset " + offset + ": " + ascii(text));
      docs.add(doc);
      records.add(
          new SinkRecord(
              TOPIC,
              0,
              null,
              null,
              null,
              connect.value(),
              offset,
              1_700_000_000_000L + offset,
              org.apache.kafka.common.record.TimestampType.CREATE_TIME));
    }

    int flushSize = 5 + random.nextInt(60);
    Model model = new Model(failOnConflict, flushSize);
    for (int offset = 0; offset < docs.size(); offset++) {
      model.add(offset, docs.get(offset));
    }
    model.end();

    // The real task, every record of one batch-split sequence, then a scheduled commit.
    TopicPartition tp = new TopicPartition(TOPIC, 0);
    Map<String, String> props = new HashMap<>();
    props.put("name", "json-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(flushSize));
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    props.put(ParquetSinkConfig.SCHEMALESS_TYPE_CONFLICT_CONFIG, policy);
    props.put(ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, Integer.toString(1 + random.nextInt(8)));
    props.put(ParquetSinkConfig.PARQUET_PAGE_VERSION_CONFIG, random.nextBoolean() ? "v1" : "v2");
    long committed;
    long schemaChanges;
    List<Long> deadLettered;
    List<Throwable> errors;
    try (SinkTaskHarness sink = new SinkTaskHarness(props, List.of(tp), true)) {
      sink.putInRandomBatches(records, random, 40);
      sink.commitOpenFiles(120_000);
      committed = sink.committed().get(tp);
      schemaChanges = sink.rotations("schema change");
      deadLettered = sink.deadLettered().stream().map(SinkRecord::kafkaOffset).toList();
      errors = sink.deadLetterErrors();
    }
    assertEquals(records.size(), committed, "every offset committed");
    assertEquals(model.bad, deadLettered, "bad records: " + errors);

    // The committed files, in offset order, against the model's files.
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir.resolve("topics"))) {
      files =
          walk.filter(p -> p.getFileName().toString().endsWith(".parquet"))
              .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
              .toList();
    }
    assertEquals(model.files.size(), files.size(), "files " + files + " vs model " + model.files);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      for (int f = 0; f < files.size(); f++) {
        checkFile(files.get(f), model.files.get(f), docs, records, model.bad, duck);
      }
    }
    // Replay through the source task, as a worker runs it: each offset once, in order, with the
    // value its file's schema gives.
    replayThroughTheSource(model, records);
    // The seed exercised what it is for: files that widened, and conflicts of its policy.
    int rows = model.files.stream().mapToInt(m -> m.offsets.size()).sum();
    assertEquals(records.size(), rows + model.bad.size(), "rows and bad records");
    assertTrue(model.files.size() > 3, "files: " + model.files.size());
    // The bounds: only a real widening of written values commits for the schema, never twice
    // for the same widening (files start from all that was learned), and the files are those
    // flush.size makes plus one per such commit.
    assertEquals(model.schemaChanges, schemaChanges, "schema change commits");
    assertTrue(
        schemaChanges <= model.widenings(),
        schemaChanges + " schema change commits, " + model.widenings() + " distinct widenings");
    assertTrue(
        model.files.size() <= (records.size() + flushSize - 1) / flushSize + schemaChanges,
        model.files.size() + " files, flush.size " + flushSize);
    assertTrue(model.widened > 0, "no long stored in a DOUBLE column");
    // Changes inside nested objects and lists, and retyped columns, were made in open files.
    assertTrue(model.nestedInPlace > 0, "no nested change in place");
    assertTrue(model.retypedInPlace > 0, "no column retyped in place");
    if (failOnConflict) {
      assertTrue(!model.bad.isEmpty(), "no bad record");
    } else {
      assertTrue(model.bad.isEmpty(), "bad records under string: " + model.bad);
      assertTrue(model.asText > 0, "no value stored as JSON text");
    }
  }

  private void replayThroughTheSource(Model model, List<SinkRecord> records) throws Exception {
    Map<Long, Type> typeOf = new HashMap<>();
    Map<Long, Type> rowTypeOf = new HashMap<>();
    List<Long> offsets = new ArrayList<>();
    for (ModelFile f : model.files) {
      for (int i = 0; i < f.offsets.size(); i++) {
        long offset = f.offsets.get(i);
        typeOf.put(offset, f.type);
        rowTypeOf.put(offset, f.rowTypes.get(i));
        offsets.add(offset);
      }
    }
    Map<String, String> props = new HashMap<>();
    props.put("name", "json-replay");
    props.put(ParquetSourceConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSourceConfig.DISCOVERY_INTERVAL_MS_CONFIG, "100");
    TaskDriver source = new TaskDriver(props).start();
    List<SourceRecord> replayed;
    try {
      replayed = source.drain(5);
    } finally {
      source.stop();
    }
    assertEquals(
        offsets,
        replayed.stream().map(r -> ((Number) r.sourceOffset().get("offset")).longValue()).toList(),
        "replayed offsets (source task)");
    for (SourceRecord r : replayed) {
      long offset = ((Number) r.sourceOffset().get("offset")).longValue();
      String where = "offset " + offset + " (source task)";
      assertEquals(TOPIC, r.topic(), where);
      assertEquals(null, r.valueSchema(), where + ": schemaless");
      assertSame(
          replayed(records.get((int) offset).value(), typeOf.get(offset), rowTypeOf.get(offset)),
          r.value(),
          where);
    }
  }

  // ---- checking one file

  private void checkFile(
      Path file,
      ModelFile expected,
      List<Object> docs,
      List<SinkRecord> records,
      List<Long> bad,
      Connection duck)
      throws Exception {
    String at = file.getFileName().toString();
    MessageType schema;
    Map<String, String> metadata;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      schema = reader.schema();
      metadata = ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata());
    }
    // The schema: the value's columns (a struct's sorted keys, else one column "value"), then
    // the Kafka metadata columns.
    Type valueType = expected.type;
    boolean struct = valueType instanceof Struct;
    Struct type =
        struct ? (Struct) valueType : new Struct(new TreeMap<>(Map.of("value", valueType)));
    // Only keys with a column (some value but null so far); a value without such keys is a
    // struct without fields: its placeholder is the one column.
    List<String> keys = withColumns(type);
    List<String> names = new ArrayList<>(keys.isEmpty() ? List.of("__empty") : keys);
    names.addAll(
        List.of("__kafka_topic", "__kafka_partition", "__kafka_offset", "__kafka_timestamp"));
    List<String> actualNames = schema.fields().stream().map(SchemaNode::name).toList();
    assertEquals(names, actualNames, at + ": columns");
    for (int i = 0; i < keys.size(); i++) {
      checkSchema(type.fields.get(names.get(i)), schema.fields().get(i), at + " " + names.get(i));
    }
    checkNoColumnOfOnlyNulls(schema, struct, expected, docs, bad, at);
    int offsetColumn = names.size() - 2;

    // The expected rows, from the documents.
    List<Map<String, Object>> expectedRows = new ArrayList<>();
    for (long offset : expected.offsets) {
      Map<String, Object> row = new LinkedHashMap<>();
      Object doc = docs.get((int) offset);
      for (String k : keys) {
        Type then = expected.rowTypes.get(expected.offsets.indexOf(offset));
        row.put(
            k,
            stored(
                struct ? ((Map<?, ?>) doc).get(k) : doc,
                type.fields.get(k),
                struct ? field(then, k) : then));
      }
      expectedRows.add(row);
    }

    // parquet-java.
    List<Row> rows = ParquetJavaOracle.read(file, schema);
    assertEquals(expected.offsets.size(), rows.size(), at + ": rows (parquet-java)");
    for (int r = 0; r < rows.size(); r++) {
      String where = at + " row " + r + " (parquet-java, offset " + expected.offsets.get(r) + ")";
      assertEquals(expected.offsets.get(r), rows.get(r).get(offsetColumn), where);
      for (int c = 0; c < keys.size(); c++) {
        assertSame(
            expectedRows.get(r).get(names.get(c)),
            fromRow(rows.get(r).get(c), schema.fields().get(c)),
            where + " " + names.get(c));
      }
    }

    // DuckDB.
    String path = file.toAbsolutePath().toString().replace("'", "''");
    try (Statement s = duck.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT * FROM read_parquet('"
                    + path
                    + "', file_row_number = true) ORDER BY file_row_number")) {
      int r = 0;
      while (rs.next()) {
        String where = at + " row " + r + " (DuckDB, offset " + expected.offsets.get(r) + ")";
        assertEquals(expected.offsets.get(r), rs.getObject(offsetColumn + 1), where);
        for (int c = 0; c < keys.size(); c++) {
          assertSame(
              expectedRows.get(r).get(names.get(c)),
              fromDuck(rs.getObject(c + 1), schema.fields().get(c)),
              where + " " + names.get(c));
        }
        r++;
      }
      assertEquals(expected.offsets.size(), r, at + ": rows (DuckDB)");
    }

    // Replay: maps again, equal to JsonConverter's values but for the documented changes.
    ParquetToConnect mapping = ParquetToConnect.of(schema, metadata);
    assertEquals(null, mapping.valueSchema(), at + ": replayed schemaless");
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        ConnectRecordReader replay = new ConnectRecordReader(reader, mapping)) {
      int r = 0;
      while (replay.hasNext()) {
        replay.next();
        long offset = expected.offsets.get(r);
        String where = at + " row " + r + " (replay, offset " + offset + ")";
        assertEquals(offset, replay.offsetValue(), where);
        assertSame(
            replayed(records.get((int) offset).value(), valueType, expected.rowTypes.get(r)),
            replay.value(),
            where);
        r++;
      }
      assertEquals(expected.offsets.size(), r, at + ": rows (replay)");
    }
  }

  /** The Parquet node of each inferred type (ConnectToParquet's javadoc). */
  private static void checkSchema(Type type, SchemaNode node, String at) {
    assertTrue(!node.isRepeated() && node.isOptional(), at + ": optional");
    if (type instanceof Struct s) {
      assertTrue(node instanceof GroupNode g && !g.isList() && !g.isMap(), at + ": a group");
      GroupNode g = (GroupNode) node;
      List<String> names = withColumns(s);
      if (names.isEmpty()) {
        assertEquals(1, g.fieldCount(), at);
        assertEquals("__empty", g.field(0).name(), at);
        return;
      }
      assertEquals(names, g.fields().stream().map(SchemaNode::name).toList(), at);
      for (int i = 0; i < names.size(); i++) {
        checkSchema(s.fields.get(names.get(i)), g.field(i), at + "." + names.get(i));
      }
      return;
    }
    if (type instanceof ArrayOf a) {
      assertTrue(node instanceof GroupNode g && g.isList(), at + ": a LIST");
      checkSchema(a.element, NestedTypes.listShape((GroupNode) node).element(), at + "[]");
      return;
    }
    assertTrue(node instanceof PrimitiveNode, at + ": a leaf");
    PrimitiveNode leaf = (PrimitiveNode) node;
    Prim p = (Prim) type;
    PhysicalType physical =
        switch (p) {
          case INT64 -> PhysicalType.INT64;
          case DOUBLE -> PhysicalType.DOUBLE;
          case BOOLEAN -> PhysicalType.BOOLEAN;
          case STRING -> PhysicalType.BYTE_ARRAY;
          case UNKNOWN -> throw new AssertionError(at + ": a column for a key only ever null");
        };
    assertEquals(physical, leaf.type(), at);
    if (physical == PhysicalType.BYTE_ARRAY) {
      assertTrue(leaf.logicalType() instanceof LogicalType.StringType, at + ": STRING");
    } else {
      assertEquals(null, leaf.logicalType(), at);
    }
  }

  /** The keys of {@code s} that have a column, in order. */
  private static List<String> withColumns(Struct s) {
    List<String> keys = new ArrayList<>();
    s.fields.forEach(
        (k, t) -> {
          if (Model.stored(t) != null) {
            keys.add(k);
          }
        });
    return keys;
  }

  /**
   * No column of the file holds only nulls in the topic so far: every leaf column of the value but
   * the placeholder of an object without typed keys has a non-null value in a good record up to the
   * file's last one. A column of a guessed type for a key nobody has seen a value of would
   * contradict the type a later file learns (Spark's mergeSchema refuses such a directory).
   */
  private static void checkNoColumnOfOnlyNulls(
      MessageType schema,
      boolean struct,
      ModelFile file,
      List<Object> docs,
      List<Long> bad,
      String at) {
    long last = file.offsets.get(file.offsets.size() - 1);
    Set<String> valued = new HashSet<>();
    for (long offset = 0; offset <= last; offset++) {
      if (bad.contains(offset)) {
        continue;
      }
      Object doc = docs.get((int) offset);
      for (SchemaNode f : schema.fields()) {
        if (!f.name().startsWith("__kafka_")) {
          valued(struct && doc instanceof Map<?, ?> m ? m.get(f.name()) : doc, f, f.name(), valued);
        }
      }
    }
    List<String> leaves = new ArrayList<>();
    for (SchemaNode f : schema.fields()) {
      if (!f.name().startsWith("__kafka_")) {
        leaves(f, f.name(), schema.fields().size(), leaves);
      }
    }
    for (String leaf : leaves) {
      assertTrue(
          valued.contains(leaf) || leaf.endsWith("#placeholder"),
          at + ": column " + leaf + " holds only nulls in the topic so far");
    }
  }

  /** The leaf paths of {@code node} with a non-null value in {@code v} (JsonConverter's form). */
  private static void valued(Object v, SchemaNode node, String path, Set<String> out) {
    if (v == null) {
      return;
    }
    if (node instanceof PrimitiveNode) {
      out.add(path);
      return;
    }
    GroupNode g = (GroupNode) node;
    if (g.isList()) {
      if (v instanceof List<?> list) {
        for (Object e : list) {
          valued(e, NestedTypes.listShape(g).element(), path + "[]", out);
        }
      }
      return;
    }
    if (v instanceof Map<?, ?> map) {
      for (SchemaNode f : g.fields()) {
        valued(map.get(f.name()), f, path + "." + f.name(), out);
      }
    }
  }

  /**
   * The leaf paths under {@code node}; the always-null {@code __empty} of a group with no other
   * field is marked {@code #placeholder}.
   */
  private static void leaves(SchemaNode node, String path, int siblings, List<String> out) {
    if (node instanceof PrimitiveNode leaf) {
      boolean placeholder =
          siblings == 1 && leaf.name().equals("__empty") && leaf.type() == PhysicalType.BOOLEAN;
      out.add(placeholder ? path + "#placeholder" : path);
      return;
    }
    GroupNode g = (GroupNode) node;
    if (g.isList()) {
      SchemaNode element = NestedTypes.listShape(g).element();
      leaves(element, path + "[]", 0, out);
      return;
    }
    for (SchemaNode f : g.fields()) {
      leaves(f, path + "." + f.name(), g.fieldCount(), out);
    }
  }

  // ---- what a file stores and what replay gives

  /**
   * A JSON value stored in a column of {@code type} by a file whose type was {@code then} when the
   * row was written: the form the oracles' values are read in. A place that had no column then is
   * null: the column added later in place holds null in the rows before it.
   */
  private static Object stored(Object v, Type type, Type then) {
    if (then != null && Model.stored(then) == null) {
      return null;
    }
    if (v == null || type == Prim.UNKNOWN) {
      assertEquals(null, v, "a non-null value of a never-typed field");
      return null;
    }
    if (type instanceof Struct s) {
      Map<?, ?> map = (Map<?, ?>) v;
      Map<String, Object> out = new LinkedHashMap<>();
      List<String> keys = withColumns(s);
      if (keys.isEmpty()) {
        out.put("__empty", null);
      }
      for (String k : keys) {
        out.put(k, stored(map.get(k), s.fields.get(k), field(then, k)));
      }
      return out;
    }
    if (type instanceof ArrayOf a) {
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) v) {
        out.add(stored(e, a.element, then instanceof ArrayOf t ? t.element : null));
      }
      return out;
    }
    return switch ((Prim) type) {
      case INT64 -> (Long) v;
      case DOUBLE -> ((Number) v).doubleValue();
      case BOOLEAN -> (Boolean) v;
      case STRING -> v instanceof String ? v : new JsonText(v);
      case UNKNOWN -> throw new AssertionError();
    };
  }

  /** The type of key {@code k} in {@code then}, null when unknown. */
  private static Type field(Type then, String k) {
    return then instanceof Struct t ? t.fields.get(k) : null;
  }

  /**
   * JsonConverter's value {@code v} replayed from a column of {@code type}, written when the file's
   * type was {@code then} (see {@link #stored}).
   */
  private static Object replayed(Object v, Type type, Type then) {
    if (v == null || then != null && Model.stored(then) == null) {
      return null;
    }
    if (type instanceof Struct s) {
      Map<String, Object> out = new LinkedHashMap<>();
      ((Map<?, ?>) v)
          .forEach(
              (k, e) -> {
                // A key whose column the file lacks reads as null: left out, like a null value.
                Object value = replayed(e, s.fields.get(k), field(then, (String) k));
                if (value != null) {
                  out.put((String) k, value);
                }
              });
      return out;
    }
    if (type instanceof ArrayOf a) {
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) v) {
        out.add(replayed(e, a.element, then instanceof ArrayOf t ? t.element : null));
      }
      return out;
    }
    return stored(v, type, then);
  }

  /** A parquet-java value (our generic model) in the form of {@link #stored}. */
  private static Object fromRow(Object v, SchemaNode node) {
    if (v == null) {
      return null;
    }
    if (node instanceof PrimitiveNode leaf) {
      return leaf.type() == PhysicalType.BYTE_ARRAY
          ? new String((byte[]) v, StandardCharsets.UTF_8)
          : v;
    }
    GroupNode g = (GroupNode) node;
    if (g.isList()) {
      SchemaNode element = NestedTypes.listShape(g).element();
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) v) {
        out.add(fromRow(e, element));
      }
      return out;
    }
    Row row = (Row) v;
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < g.fieldCount(); i++) {
      out.put(g.field(i).name(), fromRow(row.get(i), g.field(i)));
    }
    return out;
  }

  /** A DuckDB JDBC value in the form of {@link #stored}. */
  private static Object fromDuck(Object v, SchemaNode node) throws Exception {
    if (v == null) {
      return null;
    }
    if (node instanceof PrimitiveNode leaf) {
      return switch (leaf.type()) {
        case BYTE_ARRAY -> (String) v;
        case INT64 -> (Long) v;
        case DOUBLE -> (Double) v;
        case BOOLEAN -> (Boolean) v;
        default -> throw new AssertionError(leaf);
      };
    }
    GroupNode g = (GroupNode) node;
    if (g.isList()) {
      SchemaNode element = NestedTypes.listShape(g).element();
      List<Object> out = new ArrayList<>();
      for (Object e : (Object[]) ((Array) v).getArray()) {
        out.add(fromDuck(e, element));
      }
      return out;
    }
    Object[] attributes = ((java.sql.Struct) v).getAttributes();
    assertEquals(g.fieldCount(), attributes.length, "DuckDB struct of " + g.name());
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < g.fieldCount(); i++) {
      out.put(g.field(i).name(), fromDuck(attributes[i], g.field(i)));
    }
    return out;
  }

  // ---- comparing

  /** A value stored as its JSON text (a conflict under {@code string}). */
  private record JsonText(Object value) {}

  private static final ObjectMapper JACKSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  /** {@code actual} is {@code expected}: maps by key, doubles bit for bit, JSON text parsed. */
  private static void assertSame(Object expected, Object actual, String at) {
    if (expected instanceof JsonText text) {
      if (!(actual instanceof String s)) {
        fail(at + ": expected the JSON text of " + text.value + ", got " + describe(actual));
        return;
      }
      Object parsed;
      try {
        parsed = fromJackson(JACKSON.readTree(s));
      } catch (Exception e) {
        fail(at + ": not JSON text: " + s + " (" + e + ")");
        return;
      }
      assertSameJson(text.value, parsed, at + ": JSON text " + s);
      return;
    }
    assertSameJson(expected, actual, at);
  }

  /** Equality of JSON-model values: Long, Double (bitwise), String, Boolean, Map, List, null. */
  private static void assertSameJson(Object expected, Object actual, String at) {
    if (expected instanceof Map<?, ?> e) {
      if (!(actual instanceof Map<?, ?> a)) {
        fail(at + ": expected " + describe(expected) + ", got " + describe(actual));
        return;
      }
      assertEquals(new TreeMap<>(e).keySet(), new TreeMap<>(a).keySet(), at + ": keys");
      for (Map.Entry<?, ?> entry : e.entrySet()) {
        assertSame(entry.getValue(), a.get(entry.getKey()), at + "." + entry.getKey());
      }
      return;
    }
    if (expected instanceof List<?> e) {
      if (!(actual instanceof List<?> a) || a.size() != e.size()) {
        fail(at + ": expected " + describe(expected) + ", got " + describe(actual));
        return;
      }
      for (int i = 0; i < e.size(); i++) {
        assertSame(e.get(i), a.get(i), at + "[" + i + "]");
      }
      return;
    }
    if (!Objects.equals(expected, actual)) {
      fail(at + ": expected " + describe(expected) + ", got " + describe(actual));
    }
  }

  private static String describe(Object v) {
    return v == null ? "null" : v.getClass().getSimpleName() + " " + ascii(String.valueOf(v));
  }

  /** {@code s} with every character outside printable ASCII as a Java escape, for messages. */
  static String ascii(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.toString();
  }

  /** Jackson's tree in the JSON model: integral numbers Long, others Double. */
  private static Object fromJackson(JsonNode n) {
    if (n.isNull()) {
      return null;
    }
    if (n.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.put(e.getKey(), fromJackson(e.getValue()));
      }
      return out;
    }
    if (n.isArray()) {
      List<Object> out = new ArrayList<>();
      n.forEach(e -> out.add(fromJackson(e)));
      return out;
    }
    if (n.isIntegralNumber()) {
      assertTrue(n.canConvertToLong(), "an integer beyond long: " + n);
      return n.longValue();
    }
    if (n.isNumber()) {
      // The text as written, parsed once to the nearest double (as Double.parseDouble does).
      return Double.parseDouble(
          n.numberValue() instanceof BigDecimal d ? d.toString() : n.asText());
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    return n.textValue();
  }

  // ---- the documented schema rules, as a model of the sink's files

  private sealed interface Type permits Prim, Struct, ArrayOf {}

  private enum Prim implements Type {
    UNKNOWN,
    INT64,
    DOUBLE,
    BOOLEAN,
    STRING
  }

  private record Struct(TreeMap<String, Type> fields) implements Type {}

  private record ArrayOf(Type element) implements Type {}

  /** A type conflict under {@code fail}. */
  private static final class Conflict extends Exception {
    Conflict() {
      super(null, null, false, false);
    }
  }

  private static final class Model {
    final boolean failOnConflict;
    final int flushSize;
    final List<ModelFile> files = new ArrayList<>();
    final List<Long> bad = new ArrayList<>();
    ModelFile open;
    int readSinceCommit;

    /** Longs in DOUBLE columns and non-strings in STRING columns, over the committed files. */
    int widened;

    int asText;

    Model(boolean failOnConflict, int flushSize) {
      this.failOnConflict = failOnConflict;
      this.flushSize = flushSize;
    }

    void add(long offset, Object doc) {
      docs.put(offset, doc);
      try {
        Type t = infer(doc);
        if (open == null) {
          open = new ModelFile(start(t));
        } else {
          Type merged = merge(open.type, t);
          if (!merged.equals(open.type)) {
            Type wider = start(merged);
            List<Object> held = open.values(docs);
            if (inPlace(open.type, wider, held)) {
              countInPlace(open.type, wider, 0);
              open.type = wider; // new columns, null in the rows so far; widened values
            } else if (inPlace(open.type, merged, held)) {
              countInPlace(open.type, merged, 0);
              open.type = merged;
            } else {
              // A widening of values the file holds that has no in-place form commits it;
              // the next file starts from all that was learned.
              commit();
              schemaChanges++;
              open = new ModelFile(wider);
            }
            learn(open.type);
          }
        }
        open.offsets.add(offset);
        open.rowTypes.add(open.type);
      } catch (Conflict c) {
        bad.add(offset);
      }
      if (++readSinceCommit >= flushSize) {
        commit();
      }
    }

    final Map<Long, Object> docs = new HashMap<>();

    /** The merge of every file's type so far: where a new file starts. */
    Type learned;

    /** Commits because a record widened what its file held. */
    int schemaChanges;

    /** The learned types that were not an in-place change of the one before. */
    private final List<Type> widenedTypes = new ArrayList<>();

    /** How often what was learned widened in a way a file cannot take in place. */
    int widenings() {
      return widenedTypes.size();
    }

    /**
     * The type of a new file for a record of type {@code t}: merged with what was learned; a
     * conflict with what was learned is the record's.
     */
    private Type start(Type t) throws Conflict {
      Type type = learned == null ? t : merge(learned, t);
      learn(type);
      return type;
    }

    private void learn(Type type) {
      try {
        Type before = learned;
        learned = learned == null ? type : merge(learned, type);
        if (before != null && !inPlace(before, learned, null)) {
          widenedTypes.add(learned);
        }
      } catch (Conflict c) {
        // Keeps what it learned before.
      }
    }

    /**
     * Whether a file of {@code from} whose rows hold {@code values} at this place (null: assume
     * values everywhere) becomes {@code to} in place: every value it holds has the same or a
     * documented wider form (an integer as a DOUBLE, an integer or boolean as its JSON text), a
     * place that holds no value takes any type, and new keys at any depth are new columns. A struct
     * or array never turns into text in place, nor a fraction (whose text the double stored cannot
     * tell: 5 and 5.0 are the same double).
     */
    static boolean inPlace(Type from, Type to, List<Object> values) {
      if (stored(from) == null || stored(from).equals(stored(to))) {
        return true; // no column yet takes any type: new columns, null in the rows so far
      }
      if (from instanceof Struct a) {
        if (!(to instanceof Struct b)) {
          return false;
        }
        for (Map.Entry<String, Type> e : a.fields.entrySet()) {
          Type then = b.fields.get(e.getKey());
          if (then == null || !inPlace(e.getValue(), then, field(values, e.getKey()))) {
            return false;
          }
        }
        return true;
      }
      if (from instanceof ArrayOf a) {
        return to instanceof ArrayOf b && inPlace(a.element, b.element, elements(values));
      }
      if (values != null && values.stream().allMatch(Objects::isNull)) {
        return true; // a column of nulls takes any type
      }
      return from == Prim.INT64 && (to == Prim.DOUBLE || to == Prim.STRING)
          || from == Prim.BOOLEAN && to == Prim.STRING;
    }

    /** In-place changes below the top level (inside an object or a list's element). */
    int nestedInPlace;

    /** In-place changes of a column's stored type (its values re-encoded, or its first type). */
    int retypedInPlace;

    private void countInPlace(Type from, Type to, int depth) {
      if (from instanceof Struct a && to instanceof Struct b) {
        for (Map.Entry<String, Type> e : b.fields.entrySet()) {
          Type was = a.fields.get(e.getKey());
          if (was == null) {
            nestedInPlace += depth > 0 ? 1 : 0;
          } else {
            countInPlace(was, e.getValue(), depth + 1);
          }
        }
      } else if (from instanceof ArrayOf a && to instanceof ArrayOf b) {
        countInPlace(a.element, b.element, depth + 1);
      } else if (stored(from) == null && stored(to) != null) {
        nestedInPlace += depth > 1 ? 1 : 0; // a first type: a new column
      } else if (!Objects.equals(stored(from), stored(to))) {
        retypedInPlace++;
        nestedInPlace += depth > 1 ? 1 : 0;
      }
    }

    private static List<Object> field(List<Object> values, String key) {
      if (values == null) {
        return null;
      }
      List<Object> out = new ArrayList<>();
      for (Object v : values) {
        if (v instanceof Map<?, ?> m) {
          out.add(m.get(key));
        }
      }
      return out;
    }

    private static List<Object> elements(List<Object> values) {
      if (values == null) {
        return null;
      }
      List<Object> out = new ArrayList<>();
      for (Object v : values) {
        if (v instanceof List<?> l) {
          out.addAll(l);
        }
      }
      return out;
    }

    /**
     * The type as its Parquet columns store it, null for no column: an unknown type (a key only
     * ever null so far) and an array of one have none; a struct leaves such keys out.
     */
    static Type stored(Type t) {
      if (t == Prim.UNKNOWN) {
        return null;
      }
      if (t instanceof ArrayOf a) {
        Type element = stored(a.element);
        return element == null ? null : new ArrayOf(element);
      }
      if (t instanceof Struct st) {
        TreeMap<String, Type> fields = new TreeMap<>();
        st.fields.forEach(
            (k, v) -> {
              Type column = stored(v);
              if (column != null) {
                fields.put(k, column);
              }
            });
        return new Struct(fields);
      }
      return t;
    }

    private void count(Object v, Type type) {
      if (v == null) {
        return;
      }
      if (type == Prim.DOUBLE && v instanceof Long) {
        widened++;
      } else if (type == Prim.STRING && !(v instanceof String)) {
        asText++;
      } else if (type instanceof Struct s && v instanceof Map<?, ?> map) {
        s.fields.forEach((k, t) -> count(map.get(k), t));
      } else if (type instanceof ArrayOf a && v instanceof List<?> list) {
        list.forEach(e -> count(e, a.element));
      }
    }

    void end() {
      commit();
    }

    private void commit() {
      if (open != null && !open.offsets.isEmpty()) {
        files.add(open);
        for (long offset : open.offsets) {
          count(docs.get(offset), open.type);
        }
      }
      open = null;
      readSinceCommit = 0;
    }

    Type infer(Object v) throws Conflict {
      if (v == null) {
        return Prim.UNKNOWN;
      }
      if (v instanceof Long) {
        return Prim.INT64;
      }
      if (v instanceof Double) {
        return Prim.DOUBLE;
      }
      if (v instanceof Boolean) {
        return Prim.BOOLEAN;
      }
      if (v instanceof String) {
        return Prim.STRING;
      }
      if (v instanceof List<?> list) {
        Type element = Prim.UNKNOWN;
        for (Object e : list) {
          element = merge(element, infer(e));
        }
        return new ArrayOf(element);
      }
      if (((Map<?, ?>) v).containsKey("")) {
        // An empty key names no struct field: a conflict (SchemaInference's javadoc).
        if (failOnConflict) {
          throw new Conflict();
        }
        return Prim.STRING;
      }
      TreeMap<String, Type> fields = new TreeMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        fields.put((String) e.getKey(), infer(e.getValue()));
      }
      return new Struct(fields);
    }

    Type merge(Type a, Type b) throws Conflict {
      if (a == Prim.UNKNOWN) {
        return b;
      }
      if (b == Prim.UNKNOWN || a.equals(b)) {
        return a;
      }
      if (a instanceof Struct x && b instanceof Struct y) {
        TreeMap<String, Type> fields = new TreeMap<>(x.fields);
        for (Map.Entry<String, Type> e : y.fields.entrySet()) {
          Type mine = fields.get(e.getKey());
          fields.put(e.getKey(), mine == null ? e.getValue() : merge(mine, e.getValue()));
        }
        return new Struct(fields);
      }
      if (a instanceof ArrayOf x && b instanceof ArrayOf y) {
        return new ArrayOf(merge(x.element, y.element));
      }
      if ((a == Prim.INT64 || a == Prim.DOUBLE) && (b == Prim.INT64 || b == Prim.DOUBLE)) {
        return Prim.DOUBLE;
      }
      if (failOnConflict) {
        throw new Conflict();
      }
      return Prim.STRING;
    }
  }

  private static final class ModelFile {
    Type type;
    final List<Long> offsets = new ArrayList<>();

    /** The file's type when each row was written (a place without a column then holds null). */
    final List<Type> rowTypes = new ArrayList<>();

    ModelFile(Type type) {
      this.type = type;
    }

    /** The documents of the file's rows. */
    List<Object> values(Map<Long, Object> docs) {
      List<Object> out = new ArrayList<>(offsets.size());
      for (long offset : offsets) {
        out.add(docs.get(offset));
      }
      return out;
    }

    @Override
    public String toString() {
      return offsets.toString();
    }
  }

  // ---- random JSON documents and their text

  /**
   * Documents whose keys keep a type per path (so that files widen and grow rather than conflict on
   * every record), with a conflict now and then.
   */
  private static final class Generator {
    static final String[] KEYS = {
      "id",
      "name",
      "a",
      "A",
      "b",
      "a b",
      "x.y",
      "a.b.c",
      "\u00fcml\u00e4ut",
      "\u65e5\u672c",
      "\ud83d\ude00",
      "q\"uote",
      "back\\slash",
      "tab\tkey",
      "new\nline",
      "__empty",
      "value",
      "k/1",
      "element",
      "list",
      "key",
      "n0",
      "n1",
      "n2",
      "n3",
      "Z",
      "z"
    };
    static final String[] STRINGS = {
      "",
      "plain",
      "\u00fcn\u00efc\u00f6d\u00e9",
      "\ud83d\ude00 smile",
      "\u0000nul",
      "line\nbreak",
      "tab\there",
      "quote\"d",
      "back\\slash",
      "{\"a\":1}",
      "[1,2]",
      "123",
      "1.5",
      "null",
      "true",
      "\u2028\u2029",
      "\u007f\u0080\u07ff\u0800\uffff",
      "/slash/",
      "\u00a0nbsp",
      "  spaces  "
    };
    static final String[] DOUBLES = {
      "1.0", "0.0", "-0.0", "1e300", "1E300", "-1.5e-7", "5e-324", "1.7976931348623157e308",
      "2.5", "0.1", "123456789.123456789", "1E2", "1e+2", "-2.0E-3", "4.9E-324",
          "3.141592653589793",
      "9007199254740993.0", "1e-400", "100.0", "-0e0"
    };
    static final long[] LONGS = {
      0,
      1,
      -1,
      42,
      Long.MAX_VALUE,
      Long.MIN_VALUE,
      9007199254740993L,
      -9007199254740993L,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE,
      2147483648L,
      1234567890123L
    };

    final Random random;
    final double conflictRate;
    final Map<String, Integer> kinds = new HashMap<>();
    final Map<Object, String> doubleText = new java.util.IdentityHashMap<>();

    Generator(Random random, double conflictRate) {
      this.random = random;
      this.conflictRate = conflictRate;
    }

    Object document() {
      return object("", 0);
    }

    /** The kind of a path: 0 number, 1 string, 2 boolean, 3 object, 4 array, 5 null only. */
    int kind(String path, int depth) {
      int k =
          kinds.computeIfAbsent(
              path,
              p -> {
                int r = random.nextInt(100);
                return r < 30 ? 0 : r < 50 ? 1 : r < 58 ? 2 : r < 78 ? 3 : r < 94 ? 4 : 5;
              });
      if (random.nextDouble() < conflictRate) {
        k = random.nextInt(5);
      }
      return depth >= 5 && (k == 3 || k == 4) ? 1 : k;
    }

    Map<String, Object> object(String path, int depth) {
      Map<String, Object> out = new LinkedHashMap<>();
      if (random.nextInt(12) == 0) {
        return out;
      }
      // A few keys per object of a path, each present in about half the records.
      int width = depth == 0 ? 10 : 5;
      List<String> keys = new ArrayList<>();
      Random pathKeys = new Random(path.hashCode() * 31L + depth);
      for (int i = 0; i < width; i++) {
        keys.add(KEYS[pathKeys.nextInt(KEYS.length)]);
      }
      if (random.nextInt(40) == 0) {
        keys.add(""); // rare: the object is then stored as JSON text, or a bad record
      }
      Collections.shuffle(keys, random);
      for (String k : keys) {
        if (!out.containsKey(k) && random.nextInt(100) < 60) {
          out.put(k, value(path + "/" + k, depth + 1));
        }
      }
      return out;
    }

    Object value(String path, int depth) {
      if (random.nextInt(15) == 0) {
        return null;
      }
      return switch (kind(path, depth)) {
        case 0 -> number(path);
        case 1 ->
            STRINGS[random.nextInt(STRINGS.length)]
                + (random.nextInt(4) == 0 ? Integer.toString(random.nextInt(1000)) : "");
        case 2 -> random.nextBoolean();
        case 3 -> object(path, depth);
        case 4 -> array(path, depth);
        default -> null;
      };
    }

    Object number(String path) {
      // Each numeric path leans to integers or to fractions; both mix, which widens.
      boolean fractions = (path.hashCode() & 1) == 0;
      if (random.nextInt(100) < (fractions ? 50 : 25)) {
        String text = DOUBLES[random.nextInt(DOUBLES.length)];
        // JsonConverter reads fractions as BigDecimal (exact) and hands out its doubleValue():
        // the nearest double, except that a negative zero is a zero (BigDecimal has no -0).
        Double d = new BigDecimal(text).doubleValue();
        doubleText.put(d, text);
        return d;
      }
      return random.nextInt(3) == 0
          ? LONGS[random.nextInt(LONGS.length)]
          : (long) (random.nextInt(2001) - 1000);
    }

    List<Object> array(String path, int depth) {
      int n = random.nextInt(6) == 0 ? 0 : random.nextInt(5);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(value(path + "[]", depth + 1));
      }
      return out;
    }

    // Text: random spacing, escapes and number spellings.

    String text(Object doc) {
      StringBuilder out = new StringBuilder();
      write(doc, out);
      return out.toString();
    }

    private void space(StringBuilder out) {
      int r = random.nextInt(10);
      if (r == 0) {
        out.append(' ');
      } else if (r == 1) {
        out.append("\n\t ");
      }
    }

    private void write(Object v, StringBuilder out) {
      space(out);
      if (v == null) {
        out.append("null");
      } else if (v instanceof Boolean b) {
        out.append(b);
      } else if (v instanceof Long l) {
        out.append(l == 0 && random.nextInt(3) == 0 ? "-0" : Long.toString(l));
      } else if (v instanceof Double d) {
        String text = doubleText.get(v);
        out.append(text != null ? text : Double.toString(d));
      } else if (v instanceof String s) {
        string(s, out);
      } else if (v instanceof List<?> list) {
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
          out.append(i == 0 ? "" : ",");
          write(list.get(i), out);
        }
        space(out);
        out.append(']');
      } else {
        out.append('{');
        String sep = "";
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          out.append(sep);
          space(out);
          string((String) e.getKey(), out);
          space(out);
          out.append(':');
          write(e.getValue(), out);
          sep = ",";
        }
        space(out);
        out.append('}');
      }
      space(out);
    }

    private void string(String s, StringBuilder out) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        boolean mustEscape = c == '"' || c == '\\' || c < 0x20;
        int r = random.nextInt(8);
        if (c == '/' && r == 0) {
          out.append("\\/");
        } else if (mustEscape && r < 4 && "\"\\\b\f\n\r\t".indexOf(c) >= 0) {
          out.append('\\')
              .append(
                  switch (c) {
                    case '"' -> '"';
                    case '\\' -> '\\';
                    case '\b' -> 'b';
                    case '\f' -> 'f';
                    case '\n' -> 'n';
                    case '\r' -> 'r';
                    default -> 't';
                  });
        } else if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          // A pair is escaped as two escapes or written as it is, never split (a lone half
          // would not survive the UTF-8 of the record's bytes).
          if (r == 1) {
            out.append(String.format("\\u%04x\\u%04X", (int) c, (int) s.charAt(i + 1)));
          } else {
            out.append(c).append(s.charAt(i + 1));
          }
          i++;
        } else if (mustEscape || r == 1) {
          out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
        } else {
          out.append(c);
        }
      }
      out.append('"');
    }
  }
}
