package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.CanonicalValues;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two registry versions of one Avro schema, converted as Confluent's AvroConverter converts them
 * ({@link AvroShapedSchemas}: version 3, and a version 4 built from it by one edit), alternate in
 * runs of five records through the real sink task under each {@code schema.compatibility}. Which
 * versions share a file follows the rules of {@code SchemaEvolution}: docs and other converter
 * parameters are not data; an enum's symbols and a decimal's precision are.
 *
 * <ul>
 *   <li>a doc edit (record, field and enum docs): BACKWARD and FULL keep version 4 once seen and
 *       project version 3 to it (two files); FORWARD keeps version 3 and projects version 4 (one
 *       file); NONE commits at every change (four files);
 *   <li>an added enum symbol: every version 3 value is one of version 4, so BACKWARD and FULL as
 *       for docs; under FORWARD version 4's values may not be version 3's: four files;
 *   <li>a removed enum symbol: the reverse, FORWARD one file, BACKWARD and FULL four;
 *   <li>an added optional field with a default: BACKWARD and FULL two files (version 3 records get
 *       the default), FORWARD one (the field dropped);
 *   <li>a decimal's precision (10 to 12 digits): another Parquet type, four files in every mode.
 * </ul>
 *
 * Each file is read by parquet-java and DuckDB (equal rows), its footer holds the schema of the
 * version it keeps, and the replay gives each record as a value of that schema: its own values,
 * projected (docs and version the file's, an added field's default).
 */
class AvroSchemaVersionsTest {
  private static final Logger LOG = LoggerFactory.getLogger(AvroSchemaVersionsTest.class);
  private static final String TOPIC = "orders";
  private static final int RUN = 5;
  private static final int RECORDS = 4 * RUN;

  private static DuckDbOracle duck;

  @TempDir Path dir;

  @BeforeAll
  static void openDuckDb() throws Exception {
    duck = new DuckDbOracle();
  }

  @AfterAll
  static void closeDuckDb() throws Exception {
    duck.close();
  }

  /** The edit from version 3 to version 4. */
  enum Edit {
    DOCS,
    ADDED_SYMBOL,
    REMOVED_SYMBOL,
    ADDED_FIELD_WITH_DEFAULT,
    DECIMAL_PRECISION
  }

  /** The versions of the files, in order of their offsets: "34" a file of 3, then one of 4. */
  static Stream<Arguments> cases() {
    Map<Edit, String[]> files = new LinkedHashMap<>();
    // NONE, BACKWARD, FULL, FORWARD
    files.put(Edit.DOCS, new String[] {"3434", "34", "34", "3"});
    files.put(Edit.ADDED_SYMBOL, new String[] {"3434", "34", "34", "3434"});
    files.put(Edit.REMOVED_SYMBOL, new String[] {"3434", "3434", "3434", "3"});
    files.put(Edit.ADDED_FIELD_WITH_DEFAULT, new String[] {"3434", "34", "34", "3"});
    files.put(Edit.DECIMAL_PRECISION, new String[] {"3434", "3434", "3434", "3434"});
    String[] modes = {"NONE", "BACKWARD", "FULL", "FORWARD"};
    List<Arguments> out = new ArrayList<>();
    files.forEach(
        (edit, expected) -> {
          for (int m = 0; m < modes.length; m++) {
            out.add(Arguments.of(edit, modes[m], expected[m]));
          }
        });
    return out.stream();
  }

  @ParameterizedTest(name = "{0} under {1}: files of versions {2}")
  @MethodSource("cases")
  void versionsShareFilesWhereTheirDataAllows(Edit edit, String mode, String fileVersions)
      throws Exception {
    assertFiles(AvroShapedSchemas.defaults(), edit, mode, fileVersions);
  }

  /**
   * With {@code generalized.sum.type.support} and {@code discard.type.doc.default} the docs are the
   * schemas' own and {@code connect.record.doc}/{@code connect.enum.doc} parameters, the symbols
   * {@code org.apache.kafka.connect.data.Enum.SYMBOL} = index: the same rules.
   */
  @ParameterizedTest(name = "generalized: {0} under {1}: files of versions {2}")
  @CsvSource({
    "DOCS, BACKWARD, 34",
    "DOCS, FORWARD, 3",
    "DOCS, NONE, 3434",
    "ADDED_SYMBOL, FULL, 34",
    "ADDED_SYMBOL, FORWARD, 3434"
  })
  void generalizedSumTypesFollowTheSameRules(Edit edit, String mode, String fileVersions)
      throws Exception {
    assertFiles(AvroShapedSchemas.generalizedSumTypes(), edit, mode, fileVersions);
  }

  private void assertFiles(AvroShapedSchemas avro, Edit edit, String mode, String fileVersions)
      throws Exception {
    Schema v3 = avro.order;
    Schema v4 = nextVersion(avro, edit);
    List<SinkRecord> records = new ArrayList<>();
    List<Struct> orders = avro.orders(RECORDS);
    for (int i = 0; i < RECORDS; i++) {
      boolean newer = (i / RUN) % 2 == 1;
      Struct value = newer ? asVersion4(edit, v4, orders.get(i), i) : orders.get(i);
      records.add(
          new SinkRecord(
              TOPIC,
              0,
              null,
              null,
              value.schema(),
              value,
              i,
              1_700_000_000_000L + i,
              TimestampType.CREATE_TIME));
    }

    long filesCommitted;
    long schemaCommits;
    Map<TopicPartition, Long> committed;
    TopicPartition tp = new TopicPartition(TOPIC, 0);
    try (SinkTaskHarness sink = new SinkTaskHarness(props(mode), List.of(tp), true)) {
      sink.put(records);
      sink.commitOpenFiles(120_000);
      assertEquals(List.of(), sink.deadLettered(), "bad records: " + sink.deadLetterErrors());
      filesCommitted = sink.filesCommitted();
      schemaCommits = sink.rotations("schema change");
      committed = sink.committed();
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir.resolve("topics"))) {
      files = walk.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
    }
    LOG.info("{} under {}: files {}", edit, mode, files.stream().map(Path::getFileName).toList());
    assertEquals(fileVersions.length(), files.size(), "files");
    assertEquals(files.size(), filesCommitted, "files committed");
    assertEquals(files.size() - 1, schemaCommits, "commits a schema change started");
    assertEquals(RECORDS, committed.get(tp), "committed offset");

    int offset = 0;
    for (int f = 0; f < files.size(); f++) {
      Schema kept = fileVersions.charAt(f) == '3' ? v3 : v4;
      offset += checkFile(files.get(f), kept, records, offset);
    }
    assertEquals(RECORDS, offset, "every record in one file");
  }

  /** Checks one file against the records from {@code first} on; returns its row count. */
  private static int checkFile(Path file, Schema kept, List<SinkRecord> records, int first)
      throws Exception {
    String at = file.getFileName() + " (version " + kept.version() + ")";
    MessageType parquet;
    ParquetToConnect mapping;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      parquet = reader.schema();
      mapping =
          ParquetToConnect.of(
              parquet, ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
    }
    assertEquals(kept, mapping.valueSchema(), at + ": the footer's schema, docs included");
    assertEquals(kept.version(), mapping.valueSchema().version(), at);

    List<Row> parquetJava = ParquetJavaOracle.read(file, parquet);
    List<List<String>> duckRows = duck.read(file, parquet);
    assertEquals(parquetJava.size(), duckRows.size(), at);
    for (int r = 0; r < parquetJava.size(); r++) {
      assertEquals(
          CanonicalValues.fields(parquetJava.get(r), parquet), duckRows.get(r), at + " row " + r);
    }

    int rows = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        ConnectRecordReader replay = new ConnectRecordReader(reader, mapping)) {
      while (replay.hasNext()) {
        replay.next();
        SinkRecord original = records.get(first + rows);
        assertEquals(original.kafkaOffset(), replay.offset(), at);
        Struct expected = (Struct) asValueOf(kept, original.valueSchema(), original.value());
        assertEquals(kept, ((Struct) replay.value()).schema(), at);
        assertEquals(
            ConnectTestData.normalized(kept, expected),
            replay.value(),
            at + " offset " + original.kafkaOffset());
        rows++;
      }
    }
    assertEquals(parquetJava.size(), rows, at);
    assertFalse(rows == 0, at);
    return rows;
  }

  private static Map<String, String> propsTemplate(Path dir) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "avro-versions");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "1000");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    return props;
  }

  private Map<String, String> props(String mode) {
    Map<String, String> props = propsTemplate(dir);
    props.put(ParquetSinkConfig.SCHEMA_COMPATIBILITY_CONFIG, mode);
    return props;
  }

  // ---- version 4, as AvroData converts the edited Avro schema

  private static Schema nextVersion(AvroShapedSchemas avro, Edit edit) {
    Schema order = avro.order;
    SchemaBuilder next = SchemaBuilder.struct().name(order.name()).version(4);
    Map<String, String> parameters = new LinkedHashMap<>(order.parameters());
    if (edit == Edit.DOCS && parameters.containsKey("connect.record.doc")) {
      next.doc("An order placed in the shop");
      parameters.put("connect.record.doc", "An order placed in the shop");
    } else if (edit == Edit.DOCS) {
      parameters.put(AvroShapedSchemas.NAMESPACE + ".record.doc", "An order placed in the shop");
      parameters.put(AvroShapedSchemas.NAMESPACE + ".field.doc.status", "Its state now");
    }
    if (next.doc() == null) {
      next.doc(order.doc());
    }
    next.parameters(parameters);
    for (Field f : order.fields()) {
      Schema schema = f.schema();
      if (f.name().equals("status")) {
        schema = editedStatus(avro.status, edit);
      } else if (f.name().equals("amount") && edit == Edit.DECIMAL_PRECISION) {
        schema = Decimal.builder(2).parameter("connect.decimal.precision", "12").build();
      }
      next.field(f.name(), schema);
    }
    if (edit == Edit.ADDED_FIELD_WITH_DEFAULT) {
      // {"name": "channel", "type": ["string", "null"], "default": "web"}
      next.field(
          "channel",
          SchemaBuilder.string()
              .optional()
              .defaultValue("web")
              .parameter(AvroShapedSchemas.FIELD_DEFAULT, "true")
              .build());
    }
    return next.build();
  }

  private static Schema editedStatus(Schema status, Edit edit) {
    Map<String, String> parameters = new LinkedHashMap<>(status.parameters());
    boolean generalized = parameters.containsKey(AvroShapedSchemas.GENERALIZED_ENUM);
    String marker = generalized ? AvroShapedSchemas.GENERALIZED_ENUM : AvroShapedSchemas.ENUM;
    String doc = status.doc();
    switch (edit) {
      case DOCS -> {
        if (generalized) {
          doc = "Its state now";
          parameters.put("connect.enum.doc", "States");
          parameters.put("connect.record.doc", "States");
        } else {
          parameters.put(AvroShapedSchemas.NAMESPACE + ".enum.doc.Status", "States");
        }
      }
      case ADDED_SYMBOL -> parameters.put(marker + ".CANCELLED", generalized ? "3" : "CANCELLED");
      case REMOVED_SYMBOL -> parameters.remove(marker + ".SHIPPED");
      default -> {
        return status;
      }
    }
    // AvroData keeps the symbols in their Avro order: parameters are a LinkedHashMap.
    return SchemaBuilder.string()
        .name(status.name())
        .doc(doc)
        .parameters(parameters)
        .defaultValue(status.defaultValue())
        .build();
  }

  /** A version 4 record: version 3's values, and what only version 4 can hold. */
  private static Struct asVersion4(Edit edit, Schema v4, Struct v3Value, int i) {
    Struct value = (Struct) asValueOf(v4, v3Value.schema(), v3Value);
    switch (edit) {
      case ADDED_SYMBOL -> {
        if (i % 2 == 0) {
          value.put("status", "CANCELLED");
        }
      }
      case REMOVED_SYMBOL -> {
        if ("SHIPPED".equals(value.get("status"))) {
          value.put("status", "PAID");
        }
      }
      case ADDED_FIELD_WITH_DEFAULT -> value.put("channel", i % 2 == 0 ? "app" : "shop");
      default -> {}
    }
    return value;
  }

  /**
   * {@code value} as a value of {@code target}: a struct takes the target's fields, each from the
   * field of that name or the target field's default; fields the target lacks are dropped.
   */
  private static Object asValueOf(Schema target, Schema source, Object value) {
    if (value == null) {
      return null;
    }
    switch (target.type()) {
      case STRUCT -> {
        Struct in = (Struct) value;
        Struct out = new Struct(target);
        for (Field t : target.fields()) {
          Field s = source.field(t.name());
          out.put(
              t,
              s == null ? t.schema().defaultValue() : asValueOf(t.schema(), s.schema(), in.get(s)));
        }
        return out;
      }
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        for (Object e : (List<?>) value) {
          out.add(asValueOf(target.valueSchema(), source.valueSchema(), e));
        }
        return out;
      }
      default -> {
        return value;
      }
    }
  }
}
