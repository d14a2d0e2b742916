package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.WriterOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records converted by Confluent's or Apicurio's AvroConverter ({@link AvroShapedSchemas}: enums,
 * unions, nested optionals with defaults, decimals with their precision, names, versions, docs and
 * parameters) are written so that parquet-java and DuckDB read the same values and the types an
 * Avro user expects (an enum an ENUM-annotated string, a union a struct of one optional field per
 * branch), and the source's replay restores Connect schemas {@code equals} to the converter's and
 * the same values.
 */
class AvroShapedSchemasTest {
  private static final Logger LOG = LoggerFactory.getLogger(AvroShapedSchemasTest.class);

  private static DuckDbOracle duck;
  private static Connection duckdb;

  @TempDir Path dir;

  @BeforeAll
  static void openDuckDb() throws Exception {
    duck = new DuckDbOracle();
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
  }

  @AfterAll
  static void closeDuckDb() throws Exception {
    duck.close();
    duckdb.close();
  }

  @Test
  void confluentsDefaultShapesReadEqualEverywhereAndReplayToEqualSchemas() throws Exception {
    AvroShapedSchemas avro = AvroShapedSchemas.defaults();
    Path file = write(avro, "confluent.parquet");
    assertEnginesSeeEnumsAndUnions(file, avro);
    assertReplayRestores(file, avro);
  }

  @Test
  void generalizedSumTypesReadEqualEverywhereAndReplayToEqualSchemas() throws Exception {
    AvroShapedSchemas avro = AvroShapedSchemas.generalizedSumTypes();
    Path file = write(avro, "generalized.parquet");
    assertEnginesSeeEnumsAndUnions(file, avro);
    assertReplayRestores(file, avro);
  }

  @Test
  void protobufEnumsAreEnumColumnsAndIntegerEnumsStayIntegers() {
    // As Confluent's ProtobufConverter builds a proto3 enum field: an optional STRING named after
    // the enum, with the enum's name and each symbol's tag as parameters (int.for.enums: INT32).
    Schema symbols =
        SchemaBuilder.string()
            .name("Color")
            .parameter("io.confluent.connect.protobuf.Enum", "Color")
            .parameter("io.confluent.connect.protobuf.Enum.RED", "0")
            .parameter("io.confluent.connect.protobuf.Enum.GREEN", "1")
            .optional()
            .build();
    Schema tags =
        SchemaBuilder.int32()
            .name("Color")
            .parameter("io.confluent.connect.protobuf.Enum", "Color")
            .parameter("io.confluent.connect.protobuf.Enum.RED", "0")
            .optional()
            .build();
    Schema value =
        SchemaBuilder.struct().name("Paint").field("color", symbols).field("tag", tags).build();
    dev.parquetconnect.format.schema.MessageType schema =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, value, MappingOptions.defaults())
            .parquetSchema();
    SchemaNode color = schema.root().field(schema.root().fieldIndex("color"));
    SchemaNode tag = schema.root().field(schema.root().fieldIndex("tag"));
    assertEquals(LogicalType.ENUM, color.logicalType());
    assertEquals(null, tag.logicalType());
  }

  private Path write(AvroShapedSchemas avro, String name) throws Exception {
    FileLayout layout =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, avro.order, MappingOptions.fullFidelity());
    List<SinkRecord> records = records(avro);
    Path file = dir.resolve(name);
    ConnectFiles.write(file, layout, records, WriterOptions.defaults());
    // parquet-java's and our reader's rows, converted back with the footer's schemas, equal the
    // records (schemas included); DuckDB's values equal parquet-java's.
    ConnectFiles.assertReadBackEqual(file, layout, records, duck);
    return file;
  }

  private static List<SinkRecord> records(AvroShapedSchemas avro) {
    List<SinkRecord> records = new ArrayList<>();
    long offset = 0;
    for (Struct value : avro.orders(24)) {
      records.add(ConnectTestData.record(avro.order, value, offset++));
    }
    return records;
  }

  private static void assertEnginesSeeEnumsAndUnions(Path file, AvroShapedSchemas avro)
      throws Exception {
    MessageType parquetJava = parquetJavaSchema(file);
    LOG.info("parquet-java reads the schema as {}", parquetJava);
    assertEquals(
        LogicalTypeAnnotation.enumType(),
        parquetJava.getType("status").getLogicalTypeAnnotation(),
        "an Avro enum is an ENUM-annotated string");
    GroupType tags = parquetJava.getType("tags").asGroupType();
    assertEquals(
        LogicalTypeAnnotation.enumType(),
        tags.getType("list").asGroupType().getType("element").getLogicalTypeAnnotation());
    GroupType payment = parquetJava.getType("payment").asGroupType();
    assertEquals(3, payment.getFieldCount(), "one field per branch but null");
    for (int i = 0; i < 3; i++) {
      assertTrue(
          payment.getType(i).isRepetition(org.apache.parquet.schema.Type.Repetition.OPTIONAL));
    }
    assertEquals(avro.unionField(2, "Card"), payment.getType(1).getName());

    Map<String, String> types = new LinkedHashMap<>();
    try (Statement s = duckdb.createStatement();
        ResultSet r =
            s.executeQuery(
                "DESCRIBE SELECT * FROM read_parquet('" + file.toAbsolutePath() + "')")) {
      while (r.next()) {
        types.put(r.getString(1), r.getString(2));
      }
    }
    LOG.info("DuckDB types the columns {}", types);
    assertEquals("VARCHAR", types.get("status"));
    assertEquals("VARCHAR[]", types.get("tags"));
    assertEquals("DECIMAL(10,2)", types.get("amount"));
    assertEquals("DECIMAL(30,6)", types.get("exact"));
    assertEquals("STRUCT(city VARCHAR, zip INTEGER)", types.get("address"));
    String union = types.get("payment");
    assertTrue(
        union.startsWith("STRUCT(")
            && union.contains(avro.unionField(2, "Card") + " STRUCT(number VARCHAR, expiry DATE)"),
        union);
    try (Statement s = duckdb.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*) FILTER (WHERE payment IS NULL),"
                    + " count(payment."
                    + avro.unionField(2, "Card")
                    + ".number), string_agg(DISTINCT status, ',' ORDER BY status)"
                    + " FROM read_parquet('"
                    + file.toAbsolutePath()
                    + "')")) {
      assertTrue(r.next());
      assertEquals(6, r.getLong(1), "a null union is a null struct");
      assertEquals(6, r.getLong(2), "the Card branch, read by name");
      assertEquals("NEW,PAID,SHIPPED", r.getString(3));
    }
  }

  /** The replay path of the source: the footer's schemas and ConnectRecordReader's values. */
  private static void assertReplayRestores(Path file, AvroShapedSchemas avro) throws Exception {
    List<SinkRecord> records = records(avro);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      ParquetToConnect mapping =
          ParquetToConnect.of(
              reader.schema(), ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
      assertEquals(avro.order, mapping.valueSchema(), "the converter's schema, equal");
      assertEquals(avro.order.version(), mapping.valueSchema().version());
      assertEquals(avro.status, mapping.valueSchema().field("status").schema());
      assertEquals(avro.payment, mapping.valueSchema().field("payment").schema());
      try (ConnectRecordReader replay = new ConnectRecordReader(reader, mapping)) {
        int i = 0;
        while (replay.hasNext()) {
          replay.next();
          SinkRecord original = records.get(i++);
          assertEquals(original.kafkaOffset(), replay.offset());
          assertEquals(
              ConnectTestData.normalized(original.valueSchema(), original.value()),
              replay.value(),
              "offset " + original.kafkaOffset());
        }
        assertEquals(records.size(), i);
      }
    }
  }

  private static MessageType parquetJavaSchema(Path file) throws Exception {
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            new LocalInputFile(file),
            org.apache.parquet.ParquetReadOptions.builder(new PlainParquetConfiguration())
                .build())) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }
}
