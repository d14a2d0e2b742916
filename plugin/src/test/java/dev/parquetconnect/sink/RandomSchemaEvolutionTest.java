package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded randomized test of {@code schema.compatibility} through the real {@link ParquetSinkTask}
 * on a local store.
 *
 * <p>A random base struct schema (nested structs, arrays of primitives and of structs) evolves by
 * Avro/Confluent-style steps: add an optional field or a field with a default, remove a field that
 * is optional or has a default, remove or add a required field without default, promote int32 to
 * int64, int64 or float32 to float64, change a type incompatibly, make a field optional or
 * required, rename a struct (Connect compares names), change a doc or a default (a new schema to a
 * registry, projectable both ways), at any depth. Versions are numbered as a Schema Registry
 * subject numbers them: each distinct schema gets the next version, and a step that comes back to
 * an earlier schema gets that schema's version (and is then the very same Connect schema). Some
 * chains carry no versions at all (a converter without a registry). Records of the chain's
 * versions, interleaved at random and going back to older ones, go to two Kafka partitions through
 * the task under each mode with a random {@code flush.size}.
 *
 * <p>The expectation is derived here from the documented rules (javadoc of {@code SchemaEvolution}
 * and {@code SchemaCompatibility}, docs/configuration.md), not from the sink's code: a file holds
 * the schema of the record that opened it; a record of the same schema is written; under NONE any
 * other schema commits the file; under BACKWARD and FULL (file keeps the newest) a versioned record
 * newer than the file commits it, an older one is projected when Connect's projection can (same
 * names, numeric promotion; these schemas carry no parameters, which AvroSchemaVersionsTest covers,
 * every target field it lacks optional or defaulted, an optional source only into an optional or
 * defaulted target), otherwise it commits the file; under FORWARD (file keeps the oldest) the same
 * with older and newer swapped; without versions BACKWARD and FULL project only when nothing is
 * dropped and FORWARD whatever can be projected. Projection is Avro's schema resolution restricted
 * to those rules: fields the target lacks dropped, fields the record lacks take their default (null
 * for optional ones), numbers widened. No record is a bad record. A file ends at {@code flush.size}
 * offsets or at a schema change; the rest is committed by the schedule at the end.
 *
 * <p>Each committed file is checked against the model: its name (partition, first and last offset),
 * its Connect schema as stored in the footer, its Parquet schema as parquet-java reads it, and
 * every row as parquet-java and DuckDB read it and as our reader replays it.
 */
final class RandomSchemaEvolutionTest {
  private static final Logger LOG = LoggerFactory.getLogger(RandomSchemaEvolutionTest.class);

  private static final String TOPIC = "evo";
  private static final int PARTITIONS = 2;
  private static final int SEEDS = 6;
  private static final int RECORDS = 300;
  private static final Pattern NAME =
      Pattern.compile("evo\\+(\\d+)\\+(\\d{20})\\+(\\d{20})\\.parquet");
  private static final List<String> METADATA_COLUMNS =
      List.of("__kafka_topic", "__kafka_partition", "__kafka_offset", "__kafka_timestamp");

  @TempDir Path dir;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String mode : List.of("NONE", "BACKWARD", "FORWARD", "FULL")) {
      for (int s = 0; s < SEEDS; s++) {
        // A third of the chains carry no versions (a converter without a registry).
        out.add(Arguments.of(mode, 0xe70_0000L + s * 104_729L + out.size(), s % 3 != 2));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} seed {1} versioned {2}")
  @MethodSource("cases")
  void committedFilesHoldEachRecordProjectedToTheirSchema(String mode, long seed, boolean versioned)
      throws Exception {
    Random random = new Random(seed);
    Evolver evolver = new Evolver(random, versioned);
    int steps = 4 + random.nextInt(5);
    for (int i = 0; i < steps; i++) {
      evolver.step();
    }

    // Records: the producers' current schema advances along the chain; older producers keep
    // writing, in runs of a few records.
    List<Schema> chain = evolver.chain;
    List<SinkRecord> records = new ArrayList<>();
    long[] nextOffset = new long[PARTITIONS];
    int current = 0;
    while (records.size() < RECORDS) {
      int now = Math.min(chain.size() - 1, records.size() * chain.size() / RECORDS);
      int pick = random.nextInt(10);
      current =
          pick < 5
              ? now
              : pick < 7 ? Math.max(0, now - 1) : pick < 9 ? random.nextInt(now + 1) : current;
      int run = 1 + random.nextInt(random.nextBoolean() ? 2 : 8);
      for (int r = 0; r < run && records.size() < RECORDS; r++) {
        Schema schema = chain.get(current);
        int partition = random.nextInt(PARTITIONS);
        long offset = nextOffset[partition]++;
        records.add(
            new SinkRecord(
                TOPIC,
                partition,
                null,
                null,
                schema,
                evolver.value(schema),
                offset,
                1_700_000_000_000L + records.size(),
                TimestampType.CREATE_TIME));
      }
    }

    int flushSize = 5 + random.nextInt(50);
    Model model = new Model(Mode.valueOf(mode), flushSize);
    for (SinkRecord r : records) {
      model.add(r);
    }

    runTask(mode, flushSize, random, records, nextOffset);
    checkFiles(model);

    LOG.info(
        "schema-evolution {} seed {}: versioned {}, {} schemas, flush.size {}, {} files,"
            + " {} projected, {} schema changes",
        mode,
        seed,
        versioned,
        evolver.distinct(),
        flushSize,
        model.files.size(),
        model.projected,
        model.schemaChanges);
    // The seed did what it is for.
    assertTrue(evolver.distinct() >= 3, "distinct schemas: " + evolver.distinct());
    // (Under FORWARD without versions every projectable record is projected, so a chain of
    // compatible steps may never need a new file; and a file that starts from the learned
    // schema may take every later version by projection.)
    assertTrue(
        model.schemaChanges > 0 || (mode.equals("FORWARD") && !versioned) || model.projected > 0,
        "no schema change committed a file, none projected");
    if (!mode.equals("NONE")) {
      assertTrue(model.projected > 0, "no record projected");
    }
  }

  /**
   * Two fully compatible versions interleaved record by record (v2 adds an optional field and a
   * field with a default): NONE commits at every change; BACKWARD and FULL keep v2 once it is seen
   * (one extra file, not one per record), FORWARD keeps v1, the first seen, and projects v2 to it
   * (one file).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"NONE", "BACKWARD", "FORWARD", "FULL"})
  void twoInterleavedCompatibleVersionsShareFiles(String mode) throws Exception {
    Schema v1 =
        SchemaBuilder.struct()
            .name("com.example.Order")
            .version(1)
            .field("id", Schema.INT32_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema v2 =
        SchemaBuilder.struct()
            .name("com.example.Order")
            .version(2)
            .field("id", Schema.INT32_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .field("qty", SchemaBuilder.int32().defaultValue(7).build())
            .field("tag", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Struct value =
          i % 2 == 0
              ? new Struct(v1).put("id", i).put("note", "n" + i)
              : new Struct(v2).put("id", i).put("note", null).put("qty", i).put("tag", "t");
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
    Model model = new Model(Mode.valueOf(mode), 1000);
    records.forEach(model::add);
    int expectedFiles =
        switch (mode) {
          case "NONE" -> 40;
          case "FORWARD" -> 1;
          default -> 2;
        };
    assertEquals(expectedFiles, model.files.size(), "the model's files");
    runTask(mode, 1000, new Random(1), records, new long[] {40, 0});
    checkFiles(model);
  }

  /**
   * Without versions BACKWARD and FULL project only without loss (SchemaEvolution's javadoc): an
   * int64 record in a file whose field is float64 must not be rounded into it (2^53 + 1 has no
   * double), it opens a file of its own; FORWARD projects whatever the projector can.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"BACKWARD", "FORWARD", "FULL"})
  void withoutVersionsNoLongIsRoundedUnlessForward(String mode) throws Exception {
    Schema asDouble =
        SchemaBuilder.struct().name("com.example.M").field("x", Schema.FLOAT64_SCHEMA).build();
    Schema asLong =
        SchemaBuilder.struct().name("com.example.M").field("x", Schema.INT64_SCHEMA).build();
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Struct value =
          i % 2 == 0
              ? new Struct(asDouble).put("x", i + 0.5)
              : new Struct(asLong).put("x", (1L << 53) + i);
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
    Model model = new Model(Mode.valueOf(mode), 1000);
    records.forEach(model::add);
    assertEquals(mode.equals("FORWARD") ? 1 : 6, model.files.size(), "the model's files");
    runTask(mode, 1000, new Random(2), records, new long[] {6, 0});
    checkFiles(model);
  }

  // ---- the real task

  private void runTask(
      String mode, int flushSize, Random random, List<SinkRecord> records, long[] ends) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    Map<String, String> props = new HashMap<>();
    props.put("name", "evo-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(flushSize));
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    props.put(ParquetSinkConfig.SCHEMA_COMPATIBILITY_CONFIG, mode.toLowerCase());
    props.put(ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, Integer.toString(1 + random.nextInt(8)));
    Map<TopicPartition, Long> committed;
    List<SinkRecord> deadLettered;
    List<Throwable> errors;
    try (SinkTaskHarness sink = new SinkTaskHarness(props, tps, true)) {
      sink.putInRandomBatches(records, random, 40);
      sink.commitOpenFiles(120_000);
      committed = sink.committed();
      deadLettered = sink.deadLettered();
      errors = sink.deadLetterErrors();
    }
    assertEquals(
        List.of(),
        deadLettered.stream().map(SinkRecord::kafkaOffset).toList(),
        "bad records: " + errors);
    for (int p = 0; p < PARTITIONS; p++) {
      if (ends[p] > 0) {
        assertEquals(ends[p], committed.get(tps.get(p)), "committed offset of " + p);
      }
    }
  }

  // ---- the expectation

  enum Mode {
    NONE,
    BACKWARD,
    FORWARD,
    FULL
  }

  /** A file the rules predict: its schema and its records, projected to it. */
  static final class ModelFile {
    final int partition;
    final Schema schema;
    final List<Long> offsets = new ArrayList<>();
    final List<Struct> rows = new ArrayList<>();

    ModelFile(int partition, Schema schema) {
      this.partition = partition;
      this.schema = schema;
    }

    long start() {
      return offsets.get(0);
    }

    long end() {
      return offsets.get(offsets.size() - 1);
    }

    @Override
    public String toString() {
      return partition + ":" + start() + "-" + end() + " v" + schema.version();
    }
  }

  /** The documented rules, per Kafka partition. */
  static final class Model {
    final Mode mode;
    final int flushSize;
    final List<ModelFile> files = new ArrayList<>();
    final Map<Integer, ModelFile> open = new HashMap<>();
    int projected;
    int schemaChanges;

    /** Where new files start: the schema of the topic's files that the others project to. */
    Schema learned;

    Model(Mode mode, int flushSize) {
      this.mode = mode;
      this.flushSize = flushSize;
    }

    void add(SinkRecord record) {
      int p = record.kafkaPartition();
      Schema schema = record.valueSchema();
      Struct value = (Struct) record.value();
      ModelFile file = open.get(p);
      Struct row = value;
      if (file != null && !schema.equals(file.schema)) {
        Struct fitted = fit(file.schema, schema, value);
        if (fitted == null) {
          schemaChanges++;
          file = null;
        } else {
          projected++;
          row = fitted;
        }
      }
      if (file == null) {
        // A new file starts from the schema learned for the topic when the record projects to
        // it and not the other way round (e.g. an older version under BACKWARD), else from the
        // record's.
        Struct fitted =
            learned == null || learned.equals(schema) || fits(schema, learned)
                ? null
                : fit(learned, schema, value);
        if (fitted != null) {
          projected++;
          row = fitted;
          file = new ModelFile(p, learned);
        } else {
          file = new ModelFile(p, schema);
        }
        files.add(file);
        open.put(p, file);
        learn(file.schema);
      }
      file.offsets.add(record.kafkaOffset());
      file.rows.add(row);
      if (file.offsets.size() >= flushSize) {
        open.remove(p);
      }
    }

    /**
     * The wider of what was learned and a new file's schema: the one a value of the other goes
     * into, the new file's when neither or both.
     */
    private void learn(Schema fileSchema) {
      if (learned != null
          && !learned.equals(fileSchema)
          && !fits(fileSchema, learned)
          && fits(learned, fileSchema)) {
        return;
      }
      learned = fileSchema;
    }

    private boolean fits(Schema fileSchema, Schema schema) {
      if (mode == Mode.NONE) {
        return fileSchema.equals(schema);
      }
      boolean keepOldest = mode == Mode.FORWARD;
      Integer fileVersion = fileSchema.version();
      Integer version = schema.version();
      boolean allowDrop;
      if (fileVersion != null && version != null && !fileVersion.equals(version)) {
        if (version > fileVersion != keepOldest) {
          return false;
        }
        allowDrop = true;
      } else {
        allowDrop = keepOldest;
      }
      return fileSchema.equals(schema) || Projection.possible(schema, fileSchema, allowDrop);
    }

    /** The value projected to the file's schema, or null when the record needs a new file. */
    private Struct fit(Schema fileSchema, Schema schema, Struct value) {
      if (mode == Mode.NONE) {
        return null;
      }
      boolean keepOldest = mode == Mode.FORWARD;
      Integer fileVersion = fileSchema.version();
      Integer version = schema.version();
      boolean allowDrop;
      if (fileVersion != null && version != null && !fileVersion.equals(version)) {
        boolean newer = version > fileVersion;
        if (newer != keepOldest) {
          return null; // this record's schema is the one a file keeps
        }
        allowDrop = true;
      } else {
        allowDrop = keepOldest;
      }
      if (!Projection.possible(schema, fileSchema, allowDrop)) {
        return null;
      }
      return (Struct) Projection.value(schema, value, fileSchema);
    }
  }

  /** Connect's schema projection as documented, written from Avro's resolution rules. */
  static final class Projection {
    private Projection() {}

    /**
     * Whether values of {@code from} project to {@code to}; unless {@code allowDrop}, also without
     * loss: no field dropped, and no number widened to a type that cannot hold every value of its
     * old one (int32 to float32, int64 to float32 or float64 round).
     */
    static boolean possible(Schema from, Schema to, boolean allowDrop) {
      if (!Objects.equals(from.name(), to.name())
          || !Objects.equals(from.parameters(), to.parameters())) {
        return false;
      }
      if (from.type() != to.type() && !widens(from.type(), to.type())) {
        return false;
      }
      if (!allowDrop && from.type() != to.type() && !exact(from.type(), to.type())) {
        return false;
      }
      if (from.isOptional() && !to.isOptional() && to.defaultValue() == null) {
        return false; // a null would have no value in the target
      }
      if (to.type() == Schema.Type.ARRAY) {
        return possible(from.valueSchema(), to.valueSchema(), allowDrop);
      }
      if (to.type() != Schema.Type.STRUCT) {
        return true;
      }
      for (Field f : from.fields()) {
        Field t = to.field(f.name());
        if (t == null && !allowDrop) {
          return false;
        }
        if (t != null && !possible(f.schema(), t.schema(), allowDrop)) {
          return false;
        }
      }
      for (Field t : to.fields()) {
        if (from.field(t.name()) == null
            && !t.schema().isOptional()
            && t.schema().defaultValue() == null) {
          return false; // nothing to fill it with
        }
      }
      return true;
    }

    /** Avro's numeric promotions (and Connect's narrower integers, unused here). */
    private static boolean widens(Schema.Type from, Schema.Type to) {
      List<Schema.Type> order =
          List.of(
              Schema.Type.INT8,
              Schema.Type.INT16,
              Schema.Type.INT32,
              Schema.Type.INT64,
              Schema.Type.FLOAT32,
              Schema.Type.FLOAT64);
      int f = order.indexOf(from);
      int t = order.indexOf(to);
      return f >= 0 && t > f;
    }

    /** Whether every value of {@code from} has an equal value of {@code to}. */
    private static boolean exact(Schema.Type from, Schema.Type to) {
      int bits =
          switch (from) {
            case INT8 -> 8;
            case INT16 -> 16;
            case INT32 -> 32;
            case INT64 -> 64;
            case FLOAT32 -> to == Schema.Type.FLOAT64 ? 0 : 99;
            default -> 99;
          };
      return switch (to) {
        case INT16, INT32, INT64 -> bits <= 64;
        case FLOAT32 -> bits <= 24;
        case FLOAT64 -> bits <= 53;
        default -> false;
      };
    }

    static Object value(Schema from, Object v, Schema to) {
      if (v == null) {
        return to.isOptional() ? null : to.defaultValue();
      }
      switch (to.type()) {
        case STRUCT:
          {
            Struct in = (Struct) v;
            Struct out = new Struct(to);
            for (Field t : to.fields()) {
              Field f = from.field(t.name());
              out.put(
                  t.name(),
                  f == null
                      ? t.schema().defaultValue()
                      : value(f.schema(), in.getWithoutDefault(f.name()), t.schema()));
            }
            return out;
          }
        case ARRAY:
          {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) {
              out.add(value(from.valueSchema(), e, to.valueSchema()));
            }
            return out;
          }
        case INT64:
          return ((Number) v).longValue();
        case FLOAT64:
          return ((Number) v).doubleValue();
        default:
          assertEquals(from.type(), to.type(), "no promotion to " + to.type());
          return v;
      }
    }
  }

  // ---- the random schemas

  /** A mutable schema tree the steps edit; {@link #connect} makes the Connect schema. */
  static final class Node {
    Schema.Type type;
    boolean optional;
    Object defaultValue;
    String name;
    String doc;
    LinkedHashMap<String, Node> fields;
    Node element;

    Node copy() {
      Node n = new Node();
      n.type = type;
      n.optional = optional;
      n.defaultValue = defaultValue;
      n.name = name;
      n.doc = doc;
      if (fields != null) {
        n.fields = new LinkedHashMap<>();
        fields.forEach((k, f) -> n.fields.put(k, f.copy()));
      }
      n.element = element == null ? null : element.copy();
      return n;
    }

    Schema connect(Integer version) {
      SchemaBuilder b =
          switch (type) {
            case STRUCT -> {
              SchemaBuilder s = SchemaBuilder.struct().name(name);
              fields.forEach((k, f) -> s.field(k, f.connect(null)));
              yield s;
            }
            case ARRAY -> SchemaBuilder.array(element.connect(null));
            default -> SchemaBuilder.type(type);
          };
      if (optional) {
        b.optional();
      }
      if (defaultValue != null) {
        b.defaultValue(defaultValue);
      }
      if (doc != null) {
        b.doc(doc);
      }
      if (version != null) {
        b.version(version);
      }
      return b.build();
    }
  }

  private static final List<Schema.Type> PRIMITIVES =
      List.of(
          Schema.Type.INT32,
          Schema.Type.INT64,
          Schema.Type.FLOAT32,
          Schema.Type.FLOAT64,
          Schema.Type.BOOLEAN,
          Schema.Type.STRING);

  /** A chain of schemas and a registry subject's numbering of them. */
  static final class Evolver {
    final Random random;
    final boolean versioned;

    /** The schema after each step (the base first); repeats are the same Connect schema. */
    final List<Schema> chain = new ArrayList<>();

    /** The subject's distinct schemas, without version, in the order they were registered. */
    private final List<Schema> registered = new ArrayList<>();

    private final List<Schema> registeredVersioned = new ArrayList<>();
    private final List<String> removedNames = new ArrayList<>();
    private Node root;
    private int names;

    Evolver(Random random, boolean versioned) {
      this.random = random;
      this.versioned = versioned;
      root = struct(0);
      root.name = "com.example.Root";
      register();
    }

    int distinct() {
      return registered.size();
    }

    private void register() {
      Schema plain = root.connect(null);
      int i = registered.indexOf(plain);
      if (i < 0) {
        registered.add(plain);
        registeredVersioned.add(versioned ? root.connect(registered.size()) : plain);
        i = registered.size() - 1;
      }
      chain.add(registeredVersioned.get(i));
    }

    /** One evolution step somewhere in the tree, then registered. */
    void step() {
      Node next = root.copy();
      Node saved = root;
      root = next;
      for (int attempt = 0; attempt < 100; attempt++) {
        if (mutate()) {
          register();
          return;
        }
      }
      root = saved;
      throw new AssertionError("no step applied");
    }

    private boolean mutate() {
      List<Node> structs = new ArrayList<>();
      collectStructs(root, structs);
      Node s = structs.get(random.nextInt(structs.size()));
      List<String> fieldNames = new ArrayList<>(s.fields.keySet());
      String pick = fieldNames.get(random.nextInt(fieldNames.size()));
      Node f = s.fields.get(pick);
      switch (random.nextInt(17)) {
        case 0, 1 -> { // add an optional field
          Node n = field(depthOf(s) + 1);
          n.optional = true;
          n.defaultValue = null;
          s.fields.put(newName(s), n);
        }
        case 2, 3 -> { // add a field with a default
          Node n = primitive();
          n.defaultValue = primitiveValue(n.type);
          s.fields.put(newName(s), n);
        }
        case 4, 5 -> { // remove a field that is optional or has a default
          if (s.fields.size() < 2 || !(f.optional || f.defaultValue != null)) {
            return false;
          }
          s.fields.remove(pick);
          removedNames.add(pick);
        }
        case 6 -> { // remove a required field without default
          if (s.fields.size() < 2 || f.optional || f.defaultValue != null) {
            return false;
          }
          s.fields.remove(pick);
          removedNames.add(pick);
        }
        case 7 -> { // add a required field without default
          Node n = field(depthOf(s) + 1);
          n.optional = false;
          n.defaultValue = null;
          s.fields.put(newName(s), n);
        }
        case 8, 9 -> { // promote a number (or an array's numbers)
          Node target = f.type == Schema.Type.ARRAY ? f.element : f;
          Schema.Type to =
              switch (target.type) {
                case INT32 -> random.nextBoolean() ? Schema.Type.INT64 : Schema.Type.FLOAT64;
                case INT64, FLOAT32 -> Schema.Type.FLOAT64;
                default -> null;
              };
          if (to == null) {
            return false;
          }
          target.type = to;
          if (target.defaultValue != null) {
            target.defaultValue =
                to == Schema.Type.INT64
                    ? (Object) ((Number) target.defaultValue).longValue()
                    : (Object) ((Number) target.defaultValue).doubleValue();
          }
        }
        case 10 -> { // change a type incompatibly
          Node target = f.type == Schema.Type.ARRAY && random.nextBoolean() ? f.element : f;
          List<Schema.Type> choices = new ArrayList<>();
          for (Schema.Type t : PRIMITIVES) {
            if (t != target.type && !Projection.widens(target.type, t)) {
              choices.add(t);
            }
          }
          Schema.Type to = choices.get(random.nextInt(choices.size()));
          target.type = to;
          target.fields = null;
          target.element = null;
          target.name = null;
          if (target.defaultValue != null) {
            target.defaultValue = primitiveValue(to);
          }
        }
        case 11 -> { // rename a struct: another schema to Connect
          Node target = structs.get(random.nextInt(structs.size()));
          if (target == root && random.nextInt(3) != 0) {
            return false;
          }
          target.name = target.name + "X";
        }
        case 12 -> { // make a field optional (dropping its default) or required
          if (f.optional) {
            f.optional = false;
          } else {
            f.optional = true;
            f.defaultValue = null;
          }
        }
        case 13 -> { // a doc: a new schema for a registry, projectable both ways
          Node target = random.nextBoolean() ? s : f;
          target.doc = "doc " + names++;
        }
        case 15 -> { // reorder the fields (Avro resolves by name; Connect sees another schema)
          if (s.fields.size() < 2) {
            return false;
          }
          List<String> order = new ArrayList<>(s.fields.keySet());
          java.util.Collections.rotate(order, 1 + random.nextInt(order.size() - 1));
          LinkedHashMap<String, Node> reordered = new LinkedHashMap<>();
          order.forEach(k -> reordered.put(k, s.fields.get(k)));
          s.fields = reordered;
        }
        case 16 -> { // an optional primitive becomes required with a default
          if (!f.optional || f.type == Schema.Type.STRUCT || f.type == Schema.Type.ARRAY) {
            return false;
          }
          f.optional = false;
          f.defaultValue = primitiveValue(f.type);
        }
        default -> { // change a default
          if (f.defaultValue == null) {
            return false;
          }
          Object d = primitiveValue(f.type);
          if (d.equals(f.defaultValue)) {
            return false;
          }
          f.defaultValue = d;
        }
      }
      return true;
    }

    private void collectStructs(Node n, List<Node> out) {
      if (n.type == Schema.Type.STRUCT) {
        out.add(n);
        n.fields.values().forEach(f -> collectStructs(f, out));
      } else if (n.type == Schema.Type.ARRAY) {
        collectStructs(n.element, out);
      }
    }

    private int depthOf(Node target) {
      return depth(root, target, 0);
    }

    private int depth(Node n, Node target, int d) {
      if (n == target) {
        return d;
      }
      List<Node> children = new ArrayList<>();
      if (n.fields != null) {
        children.addAll(n.fields.values());
      }
      if (n.element != null) {
        children.add(n.element);
      }
      for (Node c : children) {
        int found = depth(c, target, d + 1);
        if (found >= 0) {
          return found;
        }
      }
      return -1;
    }

    private String newName(Node s) {
      if (!removedNames.isEmpty() && random.nextInt(5) == 0) {
        String name = removedNames.get(random.nextInt(removedNames.size()));
        if (!s.fields.containsKey(name)) {
          removedNames.remove(name);
          return name; // a removed name comes back, perhaps with another type
        }
      }
      return "f" + names++;
    }

    private Node struct(int depth) {
      Node n = new Node();
      n.type = Schema.Type.STRUCT;
      n.name = "com.example.S" + names++;
      n.fields = new LinkedHashMap<>();
      int count = 1 + random.nextInt(depth == 0 ? 6 : 3);
      for (int i = 0; i < count; i++) {
        n.fields.put("f" + names++, field(depth + 1));
      }
      return n;
    }

    private Node field(int depth) {
      int c = random.nextInt(20);
      Node n;
      if (depth < 4 && c < 3) {
        n = struct(depth);
      } else if (depth < 4 && c < 5) {
        n = new Node();
        n.type = Schema.Type.ARRAY;
        n.element = c == 3 && depth < 3 ? struct(depth + 1) : primitive();
        if (n.element.type != Schema.Type.STRUCT && random.nextInt(3) == 0) {
          n.element.optional = true;
        }
      } else {
        n = primitive();
        if (random.nextInt(4) == 0) {
          n.defaultValue = primitiveValue(n.type);
        }
      }
      // Optional fields have no default but null (Avro's ["null", T] unions).
      if (n.defaultValue == null && random.nextInt(3) == 0) {
        n.optional = true;
      }
      return n;
    }

    private Node primitive() {
      Node n = new Node();
      n.type = PRIMITIVES.get(random.nextInt(PRIMITIVES.size()));
      return n;
    }

    private Object primitiveValue(Schema.Type type) {
      return switch (type) {
        case INT32 -> random.nextBoolean() ? random.nextInt(100) : random.nextInt();
        case INT64 -> random.nextBoolean() ? (long) random.nextInt(100) : random.nextLong();
        case FLOAT32 -> (float) (random.nextInt(2_000_001) - 1_000_000) / 64f;
        case FLOAT64 -> random.nextGaussian() * 1e6;
        case BOOLEAN -> random.nextBoolean();
        case STRING -> {
          String alphabet = "abcxyz é日\u00df0";
          StringBuilder sb = new StringBuilder();
          int n = random.nextInt(8);
          for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
          }
          yield sb.toString();
        }
        default -> throw new AssertionError(type);
      };
    }

    /** A random value of {@code schema}. */
    Object value(Schema schema) {
      if (schema.isOptional() && random.nextInt(5) == 0) {
        return null;
      }
      switch (schema.type()) {
        case STRUCT:
          {
            Struct s = new Struct(schema);
            for (Field f : schema.fields()) {
              s.put(f, value(f.schema()));
            }
            return s;
          }
        case ARRAY:
          {
            List<Object> out = new ArrayList<>();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
              out.add(value(schema.valueSchema()));
            }
            return out;
          }
        default:
          return primitiveValue(schema.type());
      }
    }
  }

  // ---- checking the committed files

  private void checkFiles(Model model) throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir.resolve("topics"))) {
      files = walk.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
    }
    // Files by partition and first offset; each model file's offsets are contiguous (no bad
    // records), so its name is the first and last of them.
    Map<String, Path> byName = new HashMap<>();
    for (Path f : files) {
      byName.put(f.getFileName().toString(), f);
    }
    List<String> expectedNames = new ArrayList<>();
    for (ModelFile m : model.files) {
      for (int i = 0; i < m.offsets.size(); i++) {
        assertEquals(m.start() + i, m.offsets.get(i), "model offsets of " + m);
      }
      expectedNames.add(
          String.format("evo+%d+%020d+%020d.parquet", m.partition, m.start(), m.end()));
    }
    List<String> missing = new ArrayList<>(expectedNames);
    missing.removeAll(byName.keySet());
    List<String> unexpected = new ArrayList<>(byName.keySet());
    unexpected.removeAll(expectedNames);
    unexpected.sort(null);
    assertTrue(
        missing.isEmpty() && unexpected.isEmpty() && files.size() == expectedNames.size(),
        "committed files: "
            + files.size()
            + ", the model's "
            + expectedNames.size()
            + "; missing "
            + missing
            + ", unexpected "
            + unexpected);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      for (int i = 0; i < model.files.size(); i++) {
        Path file = byName.get(expectedNames.get(i));
        Matcher m = NAME.matcher(file.getFileName().toString());
        assertTrue(m.matches(), file.toString());
        assertEquals(
            "partition=" + model.files.get(i).partition, file.getParent().getFileName().toString());
        checkFile(file, model.files.get(i), duck);
      }
    }
  }

  private void checkFile(Path file, ModelFile expected, Connection duck) throws Exception {
    String at = file.getFileName().toString() + " (v" + expected.schema.version() + ")";
    Schema schema = expected.schema;
    int columns = schema.fields().size();

    // The Connect schema the footer keeps: the one of the record that opened the file.
    MessageType ours;
    ParquetToConnect mapping;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      ours = reader.schema();
      mapping =
          ParquetToConnect.of(
              ours, ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
    }
    assertEquals(schema, mapping.valueSchema(), at + ": the file's Connect schema");

    // The Parquet schema as parquet-java reads it.
    org.apache.parquet.schema.MessageType pj;
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      pj = reader.getFileMetaData().getSchema();
    }
    assertEquals(columns + METADATA_COLUMNS.size(), pj.getFieldCount(), at + ": " + pj);
    for (int c = 0; c < columns; c++) {
      Field f = schema.fields().get(c);
      checkParquetType(f.schema(), f.name(), pj.getType(c), at + " " + f.name());
    }
    for (int c = 0; c < METADATA_COLUMNS.size(); c++) {
      assertEquals(METADATA_COLUMNS.get(c), pj.getType(columns + c).getName(), at);
    }

    List<Object> expectedRows = new ArrayList<>();
    for (Struct row : expected.rows) {
      assertEquals(schema, row.schema(), at);
      expectedRows.add(plain(schema, row));
    }

    // parquet-java's rows.
    List<Row> rows = ParquetJavaOracle.read(file, ours);
    assertEquals(expected.offsets.size(), rows.size(), at + ": rows (parquet-java)");
    for (int r = 0; r < rows.size(); r++) {
      String where = at + " row " + r + " (parquet-java, offset " + expected.offsets.get(r) + ")";
      assertEquals(expected.offsets.get(r), rows.get(r).get(columns + 2), where);
      Map<String, Object> actual = new LinkedHashMap<>();
      for (int c = 0; c < columns; c++) {
        Field f = schema.fields().get(c);
        actual.put(f.name(), fromRow(f.schema(), rows.get(r).get(c)));
      }
      assertEquals(expectedRows.get(r), actual, where);
    }

    // DuckDB's rows.
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
        assertEquals(expected.offsets.get(r), rs.getObject(columns + 3), where);
        Map<String, Object> actual = new LinkedHashMap<>();
        for (int c = 0; c < columns; c++) {
          Field f = schema.fields().get(c);
          actual.put(f.name(), fromDuck(f.schema(), rs.getObject(c + 1)));
        }
        assertEquals(expectedRows.get(r), actual, where);
        r++;
      }
      assertEquals(expected.offsets.size(), r, at + ": rows (DuckDB)");
    }

    // Our reader replays the projected records, with the file's schema.
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        ConnectRecordReader replay = new ConnectRecordReader(reader, mapping)) {
      int r = 0;
      while (replay.hasNext()) {
        replay.next();
        String where = at + " row " + r + " (replay, offset " + expected.offsets.get(r) + ")";
        assertEquals((long) expected.offsets.get(r), replay.offsetValue(), where);
        Struct value = (Struct) replay.value();
        assertEquals(schema, value.schema(), where);
        assertEquals(expectedRows.get(r), plain(schema, value), where);
        r++;
      }
      assertEquals(expected.offsets.size(), r, at + ": rows (replay)");
    }
  }

  /** ConnectToParquet's mapping of the few types here, checked on parquet-java's type. */
  private static void checkParquetType(Schema schema, String name, Type type, String at) {
    assertEquals(name, type.getName(), at);
    assertEquals(
        schema.isOptional() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED,
        type.getRepetition(),
        at + ": repetition");
    switch (schema.type()) {
      case STRUCT -> {
        assertTrue(!type.isPrimitive() && type.getLogicalTypeAnnotation() == null, at + " " + type);
        GroupType g = type.asGroupType();
        assertEquals(schema.fields().size(), g.getFieldCount(), at + " " + type);
        for (int i = 0; i < g.getFieldCount(); i++) {
          Field f = schema.fields().get(i);
          checkParquetType(f.schema(), f.name(), g.getType(i), at + "." + f.name());
        }
      }
      case ARRAY -> {
        assertEquals(LogicalTypeAnnotation.listType(), type.getLogicalTypeAnnotation(), at);
        GroupType list = type.asGroupType();
        assertEquals(1, list.getFieldCount(), at);
        GroupType repeated = list.getType(0).asGroupType();
        assertEquals("list", repeated.getName(), at);
        assertEquals(Type.Repetition.REPEATED, repeated.getRepetition(), at);
        assertEquals(1, repeated.getFieldCount(), at);
        checkParquetType(schema.valueSchema(), "element", repeated.getType(0), at + "[]");
      }
      default -> {
        assertTrue(type.isPrimitive(), at);
        PrimitiveTypeName physical =
            switch (schema.type()) {
              case INT32 -> PrimitiveTypeName.INT32;
              case INT64 -> PrimitiveTypeName.INT64;
              case FLOAT32 -> PrimitiveTypeName.FLOAT;
              case FLOAT64 -> PrimitiveTypeName.DOUBLE;
              case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
              case STRING -> PrimitiveTypeName.BINARY;
              default -> throw new AssertionError(schema.type());
            };
        assertEquals(physical, type.asPrimitiveType().getPrimitiveTypeName(), at);
        assertEquals(
            schema.type() == Schema.Type.STRING ? LogicalTypeAnnotation.stringType() : null,
            type.getLogicalTypeAnnotation(),
            at);
      }
    }
  }

  // ---- values in one plain form: maps of fields, lists, Integer/Long/Float/Double/...

  private static Object plain(Schema schema, Object v) {
    if (v == null) {
      return null;
    }
    switch (schema.type()) {
      case STRUCT:
        {
          Struct s = (Struct) v;
          Map<String, Object> out = new LinkedHashMap<>();
          for (Field f : schema.fields()) {
            out.put(f.name(), plain(f.schema(), s.getWithoutDefault(f.name())));
          }
          return out;
        }
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (Object e : (List<?>) v) {
            out.add(plain(schema.valueSchema(), e));
          }
          return out;
        }
      default:
        return typed(schema, v);
    }
  }

  /** {@code v} checked to be the Java type of its Connect type (an int64 is a Long, ...). */
  private static Object typed(Schema schema, Object v) {
    Class<?> expected =
        switch (schema.type()) {
          case INT32 -> Integer.class;
          case INT64 -> Long.class;
          case FLOAT32 -> Float.class;
          case FLOAT64 -> Double.class;
          case BOOLEAN -> Boolean.class;
          case STRING -> String.class;
          default -> throw new AssertionError(schema.type());
        };
    assertEquals(expected, v.getClass(), "the value " + v + " of a " + schema.type());
    return v;
  }

  private static Object fromRow(Schema schema, Object v) {
    if (v == null) {
      return null;
    }
    switch (schema.type()) {
      case STRUCT:
        {
          Row row = (Row) v;
          Map<String, Object> out = new LinkedHashMap<>();
          for (int i = 0; i < schema.fields().size(); i++) {
            Field f = schema.fields().get(i);
            out.put(f.name(), fromRow(f.schema(), row.get(i)));
          }
          return out;
        }
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (Object e : (List<?>) v) {
            out.add(fromRow(schema.valueSchema(), e));
          }
          return out;
        }
      case STRING:
        return new String((byte[]) v, StandardCharsets.UTF_8);
      default:
        return typed(schema, v);
    }
  }

  private static Object fromDuck(Schema schema, Object v) throws Exception {
    if (v == null) {
      return null;
    }
    switch (schema.type()) {
      case STRUCT:
        {
          Object[] attributes = ((java.sql.Struct) v).getAttributes();
          assertEquals(schema.fields().size(), attributes.length, "DuckDB struct " + v);
          Map<String, Object> out = new LinkedHashMap<>();
          for (int i = 0; i < attributes.length; i++) {
            Field f = schema.fields().get(i);
            out.put(f.name(), fromDuck(f.schema(), attributes[i]));
          }
          return out;
        }
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (Object e : (Object[]) ((Array) v).getArray()) {
            out.add(fromDuck(schema.valueSchema(), e));
          }
          return out;
        }
      default:
        return typed(schema, v);
    }
  }
}
