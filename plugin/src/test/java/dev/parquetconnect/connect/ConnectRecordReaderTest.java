package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of the source's fast path: files read by {@link ConnectRecordReader} give
 * exactly the records the generic path gives (the {@code Row} reader, then {@link
 * RowToConnect#convert}), value class for value class, and every Struct it builds passes {@code
 * validate()}. Seeded random Connect schemas and values written by our sink (nulls and empty
 * collections at every level, maps with struct keys, headers, tombstones), read in replay and in
 * generic mode; seeded random Parquet schemas of other writers' shapes written by our format writer
 * (legacy two-level lists, repeated fields outside lists, key-only maps, optional map values, every
 * annotation the mapping knows); and every readable file of the parquet-testing corpus. Each is
 * read with the default batch and with batches of a few entries, so records straddle batch
 * boundaries.
 */
class ConnectRecordReaderTest {
  private static final Path CORPUS = Path.of("/work/shared/parquet-testing/data");

  @TempDir Path dir;

  @Test
  void sinkFilesReadLikeTheRowPath() throws Exception {
    Random random = new Random(20261121);
    Random dictionaries = new Random(11);
    for (int round = 0; round < 40; round++) {
      RandomRoundTripTest.Generator g = new RandomRoundTripTest.Generator(random);
      Schema value = g.struct(0, false, "Value" + round);
      Schema key = random.nextBoolean() ? g.schema(3, true) : null;
      MappingOptions options =
          new MappingOptions(
              random.nextBoolean(),
              key != null,
              random.nextBoolean(),
              random.nextBoolean() ? TimeUnit.MILLIS : TimeUnit.MICROS,
              random.nextBoolean());
      FileLayout layout = FileLayout.of(key, value, options);
      List<SinkRecord> records = new ArrayList<>();
      int count = 1 + random.nextInt(60);
      for (int i = 0; i < count; i++) {
        Object v = options.tombstones() && random.nextInt(10) == 0 ? null : g.value(value);
        Object k = key == null ? null : g.value(key);
        records.add(ConnectTestData.record(key, k, value, v, i));
      }
      Path file = dir.resolve("sink-" + round + ".parquet");
      WriterOptions writerOptions =
          dictionaryOptions(dictionaries).pageRowLimit(1 + random.nextInt(16)).build();
      ConnectFiles.write(file, layout, records, writerOptions);
      assertTrue(assertSameRecords(file, true, "sink file " + round + " (" + value + ")"));
      assertTrue(assertSameRecords(file, false, "sink file " + round + " in generic mode"));
    }
  }

  @Test
  void otherWritersShapesReadLikeTheRowPath() throws Exception {
    Random random = new Random(42);
    // Writer options from their own generator, so that the shapes stay the seed's.
    Random dictionaries = new Random(7);
    int read = 0;
    for (int round = 0; round < 60; round++) {
      ForeignGenerator g = new ForeignGenerator(random);
      List<SchemaNode> fields = new ArrayList<>();
      int n = 1 + random.nextInt(5);
      for (int i = 0; i < n; i++) {
        fields.add(g.node("f" + i, 0));
      }
      MessageType schema = new MessageType("foreign", fields);
      Path file = dir.resolve("foreign-" + round + ".parquet");
      int rows = 1 + random.nextInt(50);
      try (OutputStream out = Files.newOutputStream(file);
          ParquetFileWriter writer =
              new ParquetFileWriter(
                  out,
                  schema,
                  dictionaryOptions(dictionaries).pageRowLimit(1 + random.nextInt(8)).build())) {
        for (int r = 0; r < rows; r++) {
          writer.write(g.row(schema.root()));
        }
      }
      if (assertSameRecords(file, false, "foreign file " + round + " " + schema)) {
        read++;
      }
    }
    // A few shapes fail on both paths alike (a null map key the mapping cannot convert).
    assertTrue(read >= 50, "only " + read + " of 60 files were readable");
  }

  /**
   * Binary columns in every form the reader meets: dictionary-encoded throughout, falling back to
   * plain mid-chunk (a dictionary limit of a few hundred bytes), and plain only; strings, bytes,
   * decimals, lists and maps of strings, string headers; batches that straddle the fallback.
   */
  @Test
  void dictionaryAndFallbackColumnsReadLikeTheRowPath() throws Exception {
    Schema value =
        org.apache.kafka.connect.data.SchemaBuilder.struct()
            .name("Dict")
            .field("status", Schema.STRING_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("amount", ConnectTestData.optionalDecimal(2, 20))
            .field(
                "tags",
                org.apache.kafka.connect.data.SchemaBuilder.array(Schema.STRING_SCHEMA)
                    .optional()
                    .build())
            .field(
                "labels",
                org.apache.kafka.connect.data.SchemaBuilder.map(
                        Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
                    .optional()
                    .build())
            .build();
    Random random = new Random(6);
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      Struct v =
          new Struct(value)
              .put("status", "status-value-" + (char) ('A' + i % 5))
              .put(
                  "name",
                  i % 7 == 0 ? null : "customer name number " + random.nextInt(i < 300 ? 20 : 400))
              .put("blob", i % 5 == 0 ? null : blob(i < 300 ? i % 3 : random.nextInt()))
              .put(
                  "amount",
                  i % 6 == 0
                      ? null
                      : java.math.BigDecimal.valueOf(random.nextInt(i < 300 ? 9 : 100_000), 2))
              .put("tags", i % 4 == 0 ? null : List.of("tag-" + i % 3, "tag-" + i % 13))
              .put("labels", i % 3 == 0 ? null : Map.of("region", "region-" + i % 4));
      // Header values repeat in the first half, then one of them changes on every record.
      org.apache.kafka.connect.header.ConnectHeaders headers =
          new org.apache.kafka.connect.header.ConnectHeaders();
      headers.addString("environment", "production-environment");
      headers.addString("trace", i < 300 ? "trace-" + i % 3 : "trace-" + random.nextLong());
      headers.addBytes("raw", blob(i % 2));
      headers.addInt("count", i % 4);
      records.add(
          new SinkRecord(
              ConnectTestData.TOPIC,
              ConnectTestData.PARTITION,
              Schema.OPTIONAL_STRING_SCHEMA,
              "key-" + i % 9,
              value,
              v,
              i,
              1_700_000_000_000L + i,
              org.apache.kafka.common.record.TimestampType.CREATE_TIME,
              headers));
    }
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            value,
            new MappingOptions(true, true, true, TimeUnit.MILLIS, false));
    Map<String, WriterOptions> variants = new LinkedHashMap<>();
    variants.put("dictionary", dictionaryEverywhere().pageRowLimit(64).build());
    variants.put(
        "fallback", dictionaryEverywhere().pageRowLimit(16).dictionaryByteLimit(300).build());
    variants.put("plain", WriterOptions.builder().pageRowLimit(64).dictionary(false).build());
    for (Map.Entry<String, WriterOptions> variant : variants.entrySet()) {
      Path file = dir.resolve("dict-" + variant.getKey() + ".parquet");
      ConnectFiles.write(file, layout, records, variant.getValue());
      int mixed = mixedColumns(file);
      if (variant.getKey().equals("fallback")) {
        // name, amount, blob and the header values
        assertTrue(mixed >= 4, "only " + mixed + " columns fall back mid-chunk");
      }
      assertTrue(assertSameRecords(file, true, variant.getKey() + " file"));
      assertTrue(assertSameRecords(file, false, variant.getKey() + " file in generic mode"));
    }
    // Dictionary-encoded text is the dictionary's string, shared by every row that has it (the
    // per-column decoder only remembers the previous long value, so this is the dictionary's).
    Path file = dir.resolve("dict-dictionary.parquet");
    try (ParquetFileReader reader = ParquetFileReader.open(input(file), ReadOptions.defaults());
        ConnectRecordReader rows = new ConnectRecordReader(reader, mapping(reader, true))) {
      rows.next();
      Object first = ((Struct) rows.value()).get("status");
      for (int i = 0; i < 5; i++) {
        rows.next();
      }
      assertTrue(first == ((Struct) rows.value()).get("status"), "status strings not shared");
    }
  }

  /** 20 bytes made from {@code seed}. */
  private static byte[] blob(int seed) {
    byte[] b = new byte[20];
    new Random(seed).nextBytes(b);
    return b;
  }

  /**
   * Dictionaries on for the columns the sink writes plain by default too (bytes, the headers'
   * schemas and values), as other writers may.
   */
  private static WriterOptions.Builder dictionaryEverywhere() {
    return WriterOptions.builder()
        .columnDictionary("blob", true)
        .columnDictionary(FileLayout.HEADERS_COLUMN + ".list.element.schema", true)
        .columnDictionary(FileLayout.HEADERS_COLUMN + ".list.element.value", true);
  }

  /** Column chunks with both dictionary-encoded and fallback (plain or delta) data pages. */
  private static int mixedColumns(Path file) throws Exception {
    int mixed = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(input(file), ReadOptions.defaults())) {
      for (var group : reader.metadata().rowGroups()) {
        for (var chunk : group.columns()) {
          var encodings = chunk.metaData().encodings();
          // RLE and BIT_PACKED are the levels' (and indices') encodings, any other one is the
          // values' fallback.
          if (encodings.stream().anyMatch(e -> e != null && e.usesDictionary())
              && encodings.stream()
                  .anyMatch(
                      e ->
                          e != null
                              && !e.usesDictionary()
                              && e != dev.parquetconnect.format.meta.Encoding.RLE
                              && e != dev.parquetconnect.format.meta.Encoding.BIT_PACKED)) {
            mixed++;
          }
        }
      }
    }
    return mixed;
  }

  /** Writer options with dictionaries on (small limits forcing fallbacks mid-chunk) or off. */
  private static WriterOptions.Builder dictionaryOptions(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> WriterOptions.builder();
      case 1 -> WriterOptions.builder().dictionary(false);
      default -> WriterOptions.builder().dictionaryByteLimit(8 + random.nextInt(120));
    };
  }

  @Test
  void corpusFilesReadLikeTheRowPath() throws Exception {
    List<Path> files;
    try (Stream<Path> list = Files.list(CORPUS)) {
      files = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
    int compared = 0;
    for (Path file : files) {
      Object old = readOld(file, false, ReadOptions.defaults());
      if (old instanceof Exception) {
        continue; // unreadable to the Row path too (encrypted, corrupt, unsupported)
      }
      assertSameRecords(file, false, "corpus file " + file.getFileName());
      compared++;
    }
    assertTrue(compared >= 30, "only " + compared + " corpus files compared");
  }

  @Test
  void structsAreFilledWithoutValidationWhereConnectAllows() {
    // The fast fill must be reachable on the Connect API the tests run with.
    assertTrue(StructValues.direct());
  }

  // ---- comparing the two paths

  /** Checks both paths read {@code file} alike; returns whether they read it at all. */
  private boolean assertSameRecords(Path file, boolean replay, String what) throws Exception {
    boolean read = false;
    for (int batchSize : new int[] {ReadOptions.DEFAULT_BATCH_SIZE, 3}) {
      ReadOptions options = ReadOptions.defaults().withBatchSize(batchSize);
      Object expected = readOld(file, replay, options);
      Object actual = readNew(file, replay, options);
      String at = what + " (batch " + batchSize + ")";
      if (expected instanceof Exception e) {
        assertTrue(
            actual instanceof Exception,
            at + ": the Row path fails (" + e + ") but the fast path does not");
        continue;
      }
      if (actual instanceof Exception e) {
        throw new AssertionError(at + ": the fast path fails", e);
      }
      List<?> x = (List<?>) expected;
      List<?> y = (List<?>) actual;
      assertEquals(x.size(), y.size(), at);
      for (int i = 0; i < x.size(); i++) {
        assertSameRecord((RestoredRecord) x.get(i), (RestoredRecord) y.get(i), at + " row " + i);
      }
      read = true;
    }
    return read;
  }

  private static ParquetToConnect mapping(ParquetFileReader reader, boolean replay) {
    return ParquetToConnect.of(
        reader.schema(),
        replay ? ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()) : Map.of());
  }

  /** The records of the Row path, or the exception it fails with. */
  private static Object readOld(Path file, boolean replay, ReadOptions options) {
    try (ParquetFileReader reader = ParquetFileReader.open(input(file), options)) {
      ParquetToConnect mapping = mapping(reader, replay);
      RowToConnect oracle = new RowToConnect(mapping);
      List<RestoredRecord> out = new ArrayList<>();
      try (RowReader rows = reader.rowReader()) {
        while (rows.hasNext()) {
          out.add(oracle.convert(rows.next()));
        }
      }
      return out;
    } catch (Exception e) {
      return e;
    }
  }

  /** The records of ConnectRecordReader, or the exception it fails with. */
  private static Object readNew(Path file, boolean replay, ReadOptions options) {
    try (ParquetFileReader reader = ParquetFileReader.open(input(file), options)) {
      ParquetToConnect mapping = mapping(reader, replay);
      List<RestoredRecord> out = new ArrayList<>();
      try (ConnectRecordReader records = new ConnectRecordReader(reader, mapping)) {
        while (records.hasNext()) {
          records.next();
          out.add(
              new RestoredRecord(
                  records.topic(),
                  records.partition(),
                  records.offset(),
                  records.timestamp(),
                  mapping.keySchema(),
                  records.key(),
                  mapping.valueSchema(),
                  records.value(),
                  records.headers()));
        }
      }
      return out;
    } catch (Exception e) {
      return e;
    }
  }

  private static SeekableInput input(Path file) throws java.io.IOException {
    return dev.parquetconnect.storage.Stores.open(file.getParent().toUri().toString(), Map.of())
        .open(file.getFileName().toString());
  }

  private static void assertSameRecord(RestoredRecord x, RestoredRecord y, String at) {
    assertEquals(x.topic(), y.topic(), at + " topic");
    assertEquals(x.partition(), y.partition(), at + " partition");
    assertEquals(x.offset(), y.offset(), at + " offset");
    assertEquals(x.timestamp(), y.timestamp(), at + " timestamp");
    assertEquals(x.keySchema(), y.keySchema(), at + " key schema");
    assertEquals(x.valueSchema(), y.valueSchema(), at + " value schema");
    assertSameValue(x.key(), y.key(), at + " key");
    assertSameValue(x.value(), y.value(), at + " value");
    Iterator<Header> e = x.headers().iterator();
    Iterator<Header> a = y.headers().iterator();
    while (e.hasNext()) {
      assertTrue(a.hasNext(), at + ": a header is missing");
      Header h = e.next();
      Header k = a.next();
      assertEquals(h.key(), k.key(), at + " header");
      assertEquals(h.schema(), k.schema(), at + " header " + h.key());
      assertSameValue(h.value(), k.value(), at + " header " + h.key());
    }
    assertFalse(a.hasNext(), at + ": an extra header");
    validateStructs(y.value(), at);
    validateStructs(y.key(), at);
  }

  /** Equal values of the same classes; byte arrays by content; maps in the same order. */
  private static void assertSameValue(Object x, Object y, String at) {
    if (x == null || y == null) {
      assertEquals(x, y, at);
      return;
    }
    assertEquals(x.getClass(), y.getClass(), at);
    if (x instanceof byte[] b) {
      assertTrue(Arrays.equals(b, (byte[]) y), at);
    } else if (x instanceof Struct s) {
      Struct t = (Struct) y;
      assertEquals(s.schema(), t.schema(), at);
      for (Field f : s.schema().fields()) {
        assertSameValue(
            s.getWithoutDefault(f.name()), t.getWithoutDefault(f.name()), at + "." + f.name());
      }
    } else if (x instanceof List<?> l) {
      List<?> m = (List<?>) y;
      assertEquals(l.size(), m.size(), at);
      for (int i = 0; i < l.size(); i++) {
        assertSameValue(l.get(i), m.get(i), at + "[" + i + "]");
      }
    } else if (x instanceof Map<?, ?> p) {
      Map<?, ?> q = (Map<?, ?>) y;
      assertEquals(p.size(), q.size(), at);
      Iterator<? extends Map.Entry<?, ?>> i = p.entrySet().iterator();
      Iterator<? extends Map.Entry<?, ?>> j = q.entrySet().iterator();
      while (i.hasNext()) {
        Map.Entry<?, ?> u = i.next();
        Map.Entry<?, ?> v = j.next();
        assertSameValue(u.getKey(), v.getKey(), at + "{key}");
        assertSameValue(u.getValue(), v.getValue(), at + "{" + u.getKey() + "}");
      }
    } else {
      assertEquals(x, y, at);
    }
  }

  /** Every Struct inside {@code value} passes Connect's validation. */
  private static void validateStructs(Object value, String at) {
    if (value instanceof Struct s) {
      try {
        s.validate();
      } catch (RuntimeException e) {
        fail(at + ": an invalid Struct " + s + ": " + e);
      }
      for (Field f : s.schema().fields()) {
        validateStructs(s.getWithoutDefault(f.name()), at);
      }
    } else if (value instanceof List<?> l) {
      for (Object e : l) {
        validateStructs(e, at);
      }
    } else if (value instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        validateStructs(e.getKey(), at);
        validateStructs(e.getValue(), at);
      }
    }
  }

  // ---- other writers' shapes

  /** Random Parquet schemas in the shapes other writers use, and Rows of them. */
  private static final class ForeignGenerator {
    private final Random random;

    ForeignGenerator(Random random) {
      this.random = random;
    }

    private FieldRepetitionType repetition(boolean allowRepeated) {
      int r = random.nextInt(allowRepeated ? 5 : 4);
      return r < 2
          ? FieldRepetitionType.OPTIONAL
          : r < 4 ? FieldRepetitionType.REQUIRED : FieldRepetitionType.REPEATED;
    }

    SchemaNode node(String name, int depth) {
      int choice = random.nextInt(depth >= 3 ? 3 : 10);
      FieldRepetitionType rep = repetition(true);
      return switch (choice) {
        case 0, 1, 2 -> primitive(name, rep);
        case 3 ->
            NestedTypes.list(
                name,
                repetition(false),
                node("element", depth + 1).withRepetition(repetition(false)));
        case 4 -> twoLevelList(name, depth);
        case 5 ->
            NestedTypes.map(
                name,
                repetition(false),
                primitive("key", FieldRepetitionType.REQUIRED),
                node("value", depth + 1).withRepetition(repetition(false)));
        case 6 ->
            GroupNode.of(
                    name,
                    repetition(false),
                    List.of(
                        GroupNode.of(
                            "key_value",
                            FieldRepetitionType.REPEATED,
                            List.of(primitive("key", FieldRepetitionType.REQUIRED)))))
                .withLogicalType(LogicalType.MAP);
        default -> {
          List<SchemaNode> fields = new ArrayList<>();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            fields.add(node(name + "_" + i, depth + 1));
          }
          yield GroupNode.of(name, rep, fields);
        }
      };
    }

    /** The legacy layouts: a repeated primitive, a repeated struct, or an "array" group. */
    private SchemaNode twoLevelList(String name, int depth) {
      SchemaNode repeated =
          switch (random.nextInt(3)) {
            case 0 -> primitive("item", FieldRepetitionType.REPEATED);
            case 1 ->
                GroupNode.of(
                    "item",
                    FieldRepetitionType.REPEATED,
                    List.of(primitive("a", repetition(false)), primitive("b", repetition(false))));
            default ->
                GroupNode.of(
                    "array",
                    FieldRepetitionType.REPEATED,
                    List.of(node("only", depth + 1).withRepetition(repetition(false))));
          };
      return GroupNode.of(name, repetition(false), List.of(repeated))
          .withLogicalType(LogicalType.LIST);
    }

    private PrimitiveNode primitive(String name, FieldRepetitionType rep) {
      return switch (random.nextInt(20)) {
        case 0 -> PrimitiveNode.of(name, rep, PhysicalType.BOOLEAN);
        case 1 -> PrimitiveNode.of(name, rep, PhysicalType.INT32);
        case 2 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT32)
                .withLogicalType(new LogicalType.IntType((byte) 8, random.nextBoolean()));
        case 3 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT32)
                .withLogicalType(new LogicalType.IntType((byte) 32, false));
        case 4 -> PrimitiveNode.of(name, rep, PhysicalType.INT64);
        case 5 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT64)
                .withLogicalType(new LogicalType.IntType((byte) 64, false));
        case 6 -> PrimitiveNode.of(name, rep, PhysicalType.FLOAT);
        case 7 -> PrimitiveNode.of(name, rep, PhysicalType.DOUBLE);
        case 8 ->
            PrimitiveNode.of(name, rep, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING);
        case 9 -> PrimitiveNode.of(name, rep, PhysicalType.BYTE_ARRAY);
        case 10 -> PrimitiveNode.fixed(name, rep, 16).withLogicalType(new LogicalType.UuidType());
        case 11 -> PrimitiveNode.fixed(name, rep, 2).withLogicalType(new LogicalType.Float16Type());
        case 12 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(2, 9));
        case 13 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT64)
                .withLogicalType(new LogicalType.DecimalType(3, 18));
        case 14 ->
            PrimitiveNode.fixed(name, rep, 12).withLogicalType(new LogicalType.DecimalType(4, 28));
        case 15 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DateType());
        case 16 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT64)
                .withLogicalType(
                    new LogicalType.TimestampType(
                        random.nextBoolean(), TimeUnit.values()[random.nextInt(3)]));
        case 17 ->
            PrimitiveNode.of(name, rep, PhysicalType.INT64)
                .withLogicalType(new LogicalType.TimeType(true, TimeUnit.MICROS));
        case 18 -> PrimitiveNode.of(name, rep, PhysicalType.INT96);
        default ->
            PrimitiveNode.of(name, rep, PhysicalType.BYTE_ARRAY)
                .withLogicalType(new LogicalType.DecimalType(1, 30));
      };
    }

    Row row(GroupNode group) {
      Row row = new Row(group);
      for (int i = 0; i < group.fieldCount(); i++) {
        row.set(i, field(group.field(i)));
      }
      return row;
    }

    /** A value of a field of a present parent (Row model). */
    private Object field(SchemaNode node) {
      if (node.isRepeated()) {
        List<Object> list = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          list.add(instance(node));
        }
        return list;
      }
      if (node.isOptional() && random.nextInt(4) == 0) {
        return null;
      }
      return instance(node);
    }

    private Object instance(SchemaNode node) {
      if (node instanceof PrimitiveNode leaf) {
        return leafValue(leaf);
      }
      GroupNode group = (GroupNode) node;
      NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
      NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
      if (list != null) {
        List<Object> elements = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          elements.add(list.twoLevel() ? instance(list.repeated()) : field(list.element()));
        }
        return elements;
      }
      if (map != null) {
        Map<Object, Object> entries = new LinkedHashMap<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          entries.put(instance(map.key()), map.value() == null ? null : field(map.value()));
        }
        return entries;
      }
      return row(group);
    }

    private Object leafValue(PrimitiveNode leaf) {
      LogicalType t = leaf.logicalType();
      return switch (leaf.type()) {
        case BOOLEAN -> random.nextBoolean();
        case INT32 ->
            t instanceof LogicalType.DecimalType
                ? random.nextInt(2_000_000) - 1_000_000
                : t instanceof LogicalType.IntType i && i.bitWidth() == 8
                    ? random.nextInt(i.signed() ? 256 : 256) - (i.signed() ? 128 : 0)
                    : random.nextInt(5) == 0 ? random.nextInt() : random.nextInt(100);
        case INT64 -> random.nextInt(5) == 0 ? random.nextLong() : (long) random.nextInt(1000);
        case FLOAT -> random.nextFloat() * 100;
        case DOUBLE -> random.nextDouble() * 100;
        case INT96 -> bytes(12);
        case FIXED_LEN_BYTE_ARRAY ->
            t instanceof LogicalType.DecimalType
                ? signBytes(leaf.typeLength())
                : bytes(leaf.typeLength());
        case BYTE_ARRAY ->
            t instanceof LogicalType.StringType
                ? ("s" + random.nextInt(20)).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : t instanceof LogicalType.DecimalType
                    ? signBytes(1 + random.nextInt(13))
                    : bytes(random.nextInt(5));
      };
    }

    private byte[] bytes(int n) {
      byte[] b = new byte[n];
      random.nextBytes(b);
      return b;
    }

    /** Two's complement of random width: small values (sign bytes first) and large ones. */
    private byte[] signBytes(int n) {
      byte[] b = bytes(n);
      if (random.nextBoolean()) {
        byte sign = (byte) (random.nextBoolean() ? 0 : -1);
        for (int i = 0; i < n - 1 - random.nextInt(Math.min(n, 9)); i++) {
          b[i] = sign;
        }
      }
      return b;
    }
  }
}
