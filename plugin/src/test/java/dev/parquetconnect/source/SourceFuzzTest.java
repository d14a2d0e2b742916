package dev.parquetconnect.source;

import static dev.parquetconnect.format.read.FooterSurgery.footer;
import static dev.parquetconnect.format.read.FooterSurgery.withFooter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.DataPageHeader;
import dev.parquetconnect.format.meta.DataPageHeaderV2;
import dev.parquetconnect.format.meta.Decoded;
import dev.parquetconnect.format.meta.DictionaryPageHeader;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.read.MemoryInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.source.ParquetSourceConfig.PartitionMode;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded fuzzing of the path the source connector really reads: files the production sink task
 * writes (nested values, struct keys, headers, decimals, timestamps; zstd, snappy, gzip and
 * uncompressed; v1 and v2 pages; dictionary pages, plain pages and fallback in mid-chunk; several
 * row groups; with and without page CRCs) and a few foreign files of the parquet-testing corpus,
 * damaged byte by byte and structurally (truncations, footer length lies, footer fields such as
 * num_values, num_rows, types, encodings, codecs, page and dictionary offsets and huge declared
 * sizes, schema elements and the stored Connect schemas, page header fields, pages replaced by
 * other pages, empty files), then read:
 *
 * <ol>
 *   <li>through {@link ConnectRecordReader} with the mappings the source task uses ({@link
 *       ReplayRowMapper}, {@link GenericRowMapper}): only a {@link ParquetException} naming the
 *       file or a Connect {@link DataException} may come out, never another exception or an error;
 *       each read ends within {@link #SLOW_MILLIS} and allocates at most {@link #ALLOCATION_LIMIT}
 *       bytes;
 *   <li>through the real {@link ParquetSourceTask}, in replay and generic mode, polling a store
 *       holding the good files and damaged ones: with {@code errors.on.corrupt.file=skip} poll
 *       never throws, each unreadable file is reported once (file, row group, row, error),
 *       quarantined, and sends exactly the rows read before the damage; every record of the good
 *       files arrives exactly once and equal to the original; a restart sends nothing again. With
 *       {@code fail}, the only exception is a {@link ConnectException} naming file and position.
 * </ol>
 *
 * <p>Seeds are fixed. The reader fuzz runs for {@code -Dfuzz.millis} (default 1500) per sample set
 * and at least {@link #MIN_ITERATIONS} iterations; the task rounds are a fixed number.
 */
@Timeout(300)
final class SourceFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(SourceFuzzTest.class);

  private static final long MILLIS = Long.getLong("fuzz.millis", 1500);
  private static final int MIN_ITERATIONS = 150;

  /** One mutated file taking longer than this to read is treated as a hang. */
  private static final long SLOW_MILLIS = 10_000;

  /** Rows read per mutated file at most: a lie can describe billions of rows of nulls. */
  private static final int MAX_ROWS = 100_000;

  /**
   * Bytes one read of a damaged file may allocate in all (garbage included). The files are at most
   * a few hundred KiB and pages are capped at {@link #FUZZ_PAGE_LIMIT}; a lie that makes the reader
   * allocate more than this for such a file is a memory bug.
   */
  private static final long ALLOCATION_LIMIT = 512L << 20;

  private static final int FUZZ_PAGE_LIMIT = 16 << 20;

  /** CRCs off, so damaged pages reach the decoders; page size capped as a worker would. */
  private static final ReadOptions FUZZ_OPTIONS =
      ReadOptions.defaults().withVerifyChecksums(false).withMaxPageSize(FUZZ_PAGE_LIMIT);

  /** Rounds of the task tests, each over a fresh store with 3-6 damaged files. */
  private static final int TASK_ROUNDS = 6;

  private static final long SCHEDULE_MS = 3_600_000L;
  private static final Set<String> SINK_TOPICS = Set.of("fza", "fzb", "fzc", "fzd", "fze");

  /** A file to damage: its bytes, its path below {@code topics.dir}, whether our sink wrote it. */
  record Sample(String path, byte[] bytes, boolean sink) {
    String fileName() {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }

  private static final List<Sample> SINK = new ArrayList<>();
  private static final List<Sample> FOREIGN = new ArrayList<>();

  /** The records the sink archived, by {@code topic/partition/offset}. */
  private static final Map<String, SinkRecord> ORIGINALS = new TreeMap<>();

  private static final ExecutorService WATCHDOG =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "source-fuzz-read");
            t.setDaemon(true);
            return t;
          });

  @TempDir static Path dir;

  // ---- the samples

  static final Schema ITEM =
      SchemaBuilder.struct()
          .name("fz.Item")
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .field("price", Decimal.builder(2).parameter("connect.decimal.precision", "9").build())
          .build();
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("fz.Address")
          .optional()
          .field("street", Schema.STRING_SCHEMA)
          .field("zip", Schema.INT32_SCHEMA)
          .build();
  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("fz.Order")
          .version(2)
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("note", Schema.STRING_SCHEMA)
          .field("country", Schema.OPTIONAL_STRING_SCHEMA)
          .field("address", ADDRESS)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .field(
              "attrs",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA)
                  .optional()
                  .build())
          .field(
              "amount",
              Decimal.builder(2).optional().parameter("connect.decimal.precision", "12").build())
          .field("when", Timestamp.builder().optional().build())
          .field("day", Date.builder().optional().build())
          .field("flag", Schema.BOOLEAN_SCHEMA)
          .field("ratio", Schema.FLOAT64_SCHEMA)
          .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
          .build();
  static final Schema KEY =
      SchemaBuilder.struct()
          .name("fz.Key")
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("region", Schema.STRING_SCHEMA)
          .build();
  private static final String[] COUNTRIES = {"NL", "DE", "FR", "JP", "US", "BR", "IN"};

  static SinkRecord original(String topic, int partition, long offset) {
    long id = partition * 1_000_000L + offset;
    SplittableRandom r = new SplittableRandom(id * 31 + topic.hashCode());
    List<String> tags = new ArrayList<>();
    for (int t = 0; t < id % 4; t++) {
      tags.add("tag" + r.nextInt(6));
    }
    List<Struct> items = null;
    if (id % 9 != 0) {
      items = new ArrayList<>();
      for (int i = 0; i < r.nextInt(4); i++) {
        items.add(
            new Struct(ITEM)
                .put("sku", "sku-" + r.nextInt(40))
                .put("qty", r.nextInt(100))
                .put("price", BigDecimal.valueOf(r.nextInt(1_000_000), 2)));
      }
    }
    Map<String, Long> attrs = null;
    if (id % 5 != 0) {
      attrs = new LinkedHashMap<>();
      for (int i = 0; i < 1 + r.nextInt(3); i++) {
        attrs.put("a" + i, i == 2 ? null : r.nextLong());
      }
    }
    Struct value =
        new Struct(VALUE)
            .put("id", id)
            .put("name", "customer-" + id % 17)
            .put("note", "note " + id + " " + Long.toHexString(r.nextLong()) + "/" + offset)
            .put("country", id % 6 == 0 ? null : COUNTRIES[(int) (id % COUNTRIES.length)])
            .put("tags", tags)
            .put("items", items)
            .put("attrs", attrs)
            .put(
                "amount",
                id % 4 == 0 ? null : BigDecimal.valueOf(r.nextLong() % 10_000_000_000L, 2))
            .put("when", id % 3 == 0 ? null : new java.util.Date(1_700_000_000_000L + id * 1000))
            .put("day", id % 8 == 0 ? null : new java.util.Date(86_400_000L * (19_000 + id % 500)))
            .put("flag", r.nextBoolean())
            .put("ratio", r.nextDouble() * 100)
            .put("blob", id % 2 == 0 ? null : new byte[] {(byte) id, (byte) (id >> 8), 7});
    if (id % 10 != 0) {
      value.put(
          "address",
          new Struct(ADDRESS)
              .put("street", id + " Main Street")
              .put("zip", (int) (10_000 + id % 90_000)));
    }
    Struct key =
        id % 13 == 0
            ? null
            : new Struct(KEY).put("id", id).put("region", COUNTRIES[(int) (id % 3)]);
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString("source", "fuzz");
    headers.addLong("seq", id);
    if (id % 2 == 0) {
      headers.addString("trace", "t-" + Long.toHexString(r.nextLong()));
    }
    return new SinkRecord(
        topic,
        partition,
        KEY,
        key,
        VALUE,
        value,
        offset,
        1_600_000_000_000L + id,
        TimestampType.CREATE_TIME,
        headers);
  }

  @BeforeAll
  static void writeSamples() throws Exception {
    Path store = dir.resolve("samples");
    // The production sink task: three configurations of codec, page version and page layout.
    archiveWithSinkTask(store, "fza", 2, 1500, "zstd", "v1", Map.of());
    archiveWithSinkTask(
        store,
        "fzb",
        2,
        900,
        "snappy",
        "v2",
        Map.of(
            ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, "40",
            ParquetSinkConfig.PARQUET_DICTIONARY_BYTES_CONFIG, "1024"));
    archiveWithSinkTask(
        store,
        "fzc",
        1,
        700,
        "gzip",
        "v1",
        Map.of(
            ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, "25",
            ParquetSinkConfig.PARQUET_ENCODING_POLICY_CONFIG, "compatible"));
    // The sink's writer directly, for small row groups and files without page CRCs (so damaged
    // pages reach the decoders through the task too).
    archiveWithWriter(
        store,
        "fzd",
        0,
        150,
        WriterOptions.builder()
            .codec(CompressionCodec.UNCOMPRESSED)
            .pageVersion(PageVersion.V2)
            .rowGroupRowLimit(40)
            .pageRowLimit(16)
            .dictionaryByteLimit(2048)
            .pageChecksums(false)
            .build());
    archiveWithWriter(
        store,
        "fze",
        0,
        200,
        WriterOptions.builder()
            .codec(CompressionCodec.ZSTD)
            .pageVersion(PageVersion.V1)
            .rowGroupRowLimit(64)
            .dictionary(false)
            .pageChecksums(false)
            .build());
    Path topics = store.resolve("topics");
    try (Stream<Path> walk = Files.walk(topics)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        String rel = topics.relativize(p).toString().replace('\\', '/');
        if (rel.endsWith(".parquet") && !rel.contains("_markers")) {
          SINK.add(new Sample(rel, Files.readAllBytes(p), true));
        }
      }
    }
    Path corpus = Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing", "data");
    for (String name :
        List.of(
            "alltypes_dictionary.parquet",
            "nested_maps.snappy.parquet",
            "datapage_v2.snappy.parquet",
            "nested_lists.snappy.parquet",
            "fixed_length_decimal.parquet",
            "delta_length_byte_array.parquet",
            "old_list_structure.parquet",
            "nullable.impala.parquet")) {
      FOREIGN.add(new Sample("foreign/" + name, Files.readAllBytes(corpus.resolve(name)), false));
    }
    int rowGroups = 0;
    for (Sample s : SINK) {
      int n = footer(s.bytes).rowGroups().size();
      rowGroups = Math.max(rowGroups, n);
      LOG.info("sample {}: {} bytes, {} row groups", s.path, s.bytes.length, n);
    }
    assertTrue(SINK.size() >= 7, "sink files: " + SINK.size());
    assertTrue(rowGroups >= 3, "a sink file with several row groups");
  }

  @AfterAll
  static void stopWatchdog() {
    WATCHDOG.shutdownNow();
  }

  private static void archiveWithSinkTask(
      Path store,
      String topic,
      int partitions,
      int perPartition,
      String codec,
      String pageVersion,
      Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("name", "fuzz-archive");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "100000");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    props.put(ParquetSinkConfig.PARQUET_CODEC_CONFIG, codec);
    props.put(ParquetSinkConfig.PARQUET_PAGE_VERSION_CONFIG, pageVersion);
    props.put(ParquetSinkConfig.PARQUET_ROW_GROUP_BYTES_CONFIG, "65536");
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      tps.add(new TopicPartition(topic, p));
    }
    try (SinkTaskHarness sink = new SinkTaskHarness(props, tps)) {
      for (int at = 0; at < perPartition; at += 100) {
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
          for (long o = at; o < Math.min(perPartition, at + 100); o++) {
            SinkRecord r = original(topic, p, o);
            batch.add(r);
            ORIGINALS.put(topic + "/" + p + "/" + o, r);
          }
        }
        sink.put(batch);
      }
      sink.commitOpenFiles(SCHEDULE_MS + 1);
      for (TopicPartition tp : tps) {
        assertEquals((long) perPartition, sink.committed().get(tp), "committed " + tp);
      }
    }
  }

  private static void archiveWithWriter(
      Path store, String topic, int partition, int count, WriterOptions options) throws Exception {
    Path file =
        store.resolve(
            "topics/"
                + topic
                + "/partition="
                + partition
                + "/"
                + SinkArchive.fileName(topic, partition, 0, count - 1, 0));
    Files.createDirectories(file.getParent());
    FileLayout layout = FileLayout.of(KEY, VALUE, MappingOptions.fullFidelity());
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (long o = 0; o < count; o++) {
        SinkRecord r = original(topic, partition, o);
        ORIGINALS.put(topic + "/" + partition + "/" + o, r);
        writer.write(r);
      }
    }
  }

  // ---- (a): ConnectRecordReader as the source task uses it

  @Test
  void mutatedSinkFilesFailOnlyWithParquetOrDataExceptions() throws Exception {
    fuzzReads(SINK, 11);
  }

  @Test
  void mutatedForeignFilesFailOnlyWithParquetOrDataExceptions() throws Exception {
    fuzzReads(FOREIGN, 12);
  }

  private static void fuzzReads(List<Sample> samples, long seed) throws Exception {
    for (Sample s : samples) {
      for (boolean replay : s.sink ? new boolean[] {true, false} : new boolean[] {false}) {
        ReadResult pristine =
            guardedRead(
                s.bytes, s.fileName(), replay, ReadOptions.defaults(), -1, "pristine " + s.path);
        assertNotNull(pristine.rows, "pristine " + s.path + ": " + pristine.failure);
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    long deadline = System.nanoTime() + MILLIS * 1_000_000;
    int iterations = 0;
    int rejected = 0;
    long maxAllocated = 0;
    Map<String, Integer> kinds = new TreeMap<>();
    while (iterations < MIN_ITERATIONS || System.nanoTime() < deadline) {
      Sample s = samples.get(random.nextInt(samples.size()));
      long mutationSeed = random.nextLong();
      Mutated m = mutate(s.bytes, new SplittableRandom(mutationSeed));
      boolean replay = s.sink && random.nextBoolean();
      ReadOptions options =
          random.nextInt(4) == 0
              ? FUZZ_OPTIONS.withBatchSize(3)
              : random.nextInt(3) == 0 ? ReadOptions.defaults() : FUZZ_OPTIONS;
      int startRowGroup = random.nextInt(4) == 0 ? random.nextInt(3) : -1;
      String what =
          "mutation seed "
              + mutationSeed
              + " ("
              + m.kind
              + ") of "
              + s.path
              + ", "
              + (replay ? "replay" : "generic")
              + " mapping";
      ReadResult result = guardedRead(m.bytes, s.fileName(), replay, options, startRowGroup, what);
      maxAllocated = Math.max(maxAllocated, result.allocated);
      kinds.merge(m.kind + (result.failure == null ? "" : "!"), 1, Integer::sum);
      if (result.failure != null) {
        rejected++;
      }
      iterations++;
    }
    LOG.info(
        "source reader fuzz (seed {}): {} mutated files, {} rejected, at most {} KiB "
            + "allocated by one read; by kind (! = rejected): {}",
        seed,
        iterations,
        rejected,
        maxAllocated >> 10,
        kinds);
    assertTrue(rejected > iterations / 10, rejected + " of " + iterations + " rejected");
  }

  /**
   * Reproducer of the first finding: a footer declaring the header key column OPTIONAL (our sink
   * writes it REQUIRED) made a header key read as null, and Connect's {@code ConnectHeader} threw a
   * NullPointerException out of {@code ConnectRecordReader.next()}. Now a DataException.
   */
  @Test
  void aHeaderKeyDeclaredOptionalIsADataExceptionNotANullPointer() throws Exception {
    Sample s = SINK.stream().filter(x -> x.path.startsWith("fze/")).findFirst().orElseThrow();
    FileMetaData m = footer(s.bytes);
    List<SchemaElement> schema = new ArrayList<>(m.schema());
    int key = -1;
    for (int i = 0; i < schema.size(); i++) {
      if (schema.get(i).name().equals("key") && schema.get(i).numChildren() == null) {
        key = i; // the leaf of __kafka_headers.list.element, the last field named key
      }
    }
    SchemaElement e = schema.get(key);
    schema.set(
        key,
        new SchemaElement(
            e.type(),
            e.typeLength(),
            FieldRepetitionType.OPTIONAL,
            e.name(),
            e.numChildren(),
            e.convertedType(),
            e.scale(),
            e.precision(),
            e.fieldId(),
            e.logicalType()));
    byte[] edited =
        withFooter(
            s.bytes,
            new FileMetaData(
                m.version(),
                schema,
                m.numRows(),
                m.rowGroups(),
                m.keyValueMetadata(),
                m.createdBy(),
                m.columnOrders(),
                m.encryptionAlgorithm(),
                m.footerSigningKeyMetadata()));
    ReadResult result =
        guardedRead(edited, s.fileName(), true, FUZZ_OPTIONS, -1, "header key declared OPTIONAL");
    assertNotNull(result.failure, "read " + result.rows + " rows");
  }

  /**
   * Reproducer of the second finding: a stored value schema whose Decimal scale parameter is not an
   * integer ({@code "scale":"x"}, found by a byte damage of the footer) threw a
   * NumberFormatException from {@code ParquetToConnect.of}, which the replay task did not catch as
   * a corrupt file: poll threw it even with {@code errors.on.corrupt.file=skip}. Now a
   * DataException, and the file is skipped and reported.
   */
  @Test
  void aDecimalScaleThatIsNoNumberIsADataExceptionAndTheFileIsSkipped() throws Exception {
    Sample s = SINK.stream().filter(x -> x.path.startsWith("fzd/")).findFirst().orElseThrow();
    String text = new String(s.bytes, StandardCharsets.ISO_8859_1);
    int at = text.lastIndexOf("\"scale\":\"2\"");
    assertTrue(at > 0, "a stored decimal scale");
    byte[] edited = s.bytes.clone();
    edited[at + "\"scale\":\"".length()] = 'x';
    for (boolean replay : new boolean[] {true, false}) {
      ReadResult result =
          guardedRead(
              edited,
              s.fileName(),
              replay,
              FUZZ_OPTIONS,
              -1,
              "scale x, " + (replay ? "replay" : "generic"));
      assertEquals(
          replay,
          result.failure instanceof DataException,
          "replay: " + replay + ", " + result.failure); // generic mode ignores the stored schemas
    }
    Path root = dir.resolve("scale");
    String key = "topics/fzbad/" + SinkArchive.fileName("fzbad", 0, 0, 149, 0);
    write(root.resolve(key), edited);
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root, "errors.on.corrupt.file", "skip", "errors.topic", "bad-files"))
            .start();
    List<SourceRecord> got = drainGuarded(driver, "scale x through the task");
    assertEquals(List.of(key), got.stream().map(r -> (String) r.key()).toList());
    assertTrue(
        ((Struct) got.get(0).value()).getString("error").contains("scale"),
        got.get(0).value().toString());
  }

  /**
   * Every schema element of the small sink files given every other repetition and (leaves) every
   * other physical type, read with both mappings: the lies a footer can tell about the shape, tried
   * exhaustively rather than by chance.
   */
  @Test
  void everySchemaElementRetypedFailsOnlyWithParquetOrDataExceptions() throws Exception {
    int reads = 0;
    int rejected = 0;
    for (Sample s : SINK) {
      if (!s.path.startsWith("fzd/") && !s.path.startsWith("fze/")) {
        continue;
      }
      FileMetaData m = footer(s.bytes);
      for (int i = 1; i < m.schema().size(); i++) {
        SchemaElement e = m.schema().get(i);
        List<SchemaElement> variants = new ArrayList<>();
        for (FieldRepetitionType rep : FieldRepetitionType.values()) {
          if (rep != e.repetitionType()) {
            variants.add(
                new SchemaElement(
                    e.type(),
                    e.typeLength(),
                    rep,
                    e.name(),
                    e.numChildren(),
                    e.convertedType(),
                    e.scale(),
                    e.precision(),
                    e.fieldId(),
                    e.logicalType()));
          }
        }
        if (e.numChildren() == null) {
          for (PhysicalType t : PhysicalType.values()) {
            if (t != e.type()) {
              variants.add(
                  new SchemaElement(
                      t,
                      t == PhysicalType.FIXED_LEN_BYTE_ARRAY ? Integer.valueOf(4) : e.typeLength(),
                      e.repetitionType(),
                      e.name(),
                      null,
                      e.convertedType(),
                      e.scale(),
                      e.precision(),
                      e.fieldId(),
                      e.logicalType()));
            }
          }
        }
        for (SchemaElement v : variants) {
          List<SchemaElement> schema = new ArrayList<>(m.schema());
          schema.set(i, v);
          byte[] edited =
              withFooter(
                  s.bytes,
                  new FileMetaData(
                      m.version(),
                      schema,
                      m.numRows(),
                      m.rowGroups(),
                      m.keyValueMetadata(),
                      m.createdBy(),
                      m.columnOrders(),
                      m.encryptionAlgorithm(),
                      m.footerSigningKeyMetadata()));
          for (boolean replay : new boolean[] {true, false}) {
            ReadResult result =
                guardedRead(
                    edited,
                    s.fileName(),
                    replay,
                    FUZZ_OPTIONS,
                    -1,
                    s.path
                        + " with schema element "
                        + i
                        + " ("
                        + e.name()
                        + ") as "
                        + v.repetitionType()
                        + " "
                        + v.type()
                        + ", "
                        + (replay ? "replay" : "generic")
                        + " mapping");
            reads++;
            if (result.failure != null) {
              rejected++;
            }
          }
        }
      }
    }
    LOG.info("schema sweep: {} reads, {} rejected", reads, rejected);
    assertTrue(reads > 100 && rejected > reads / 2, rejected + " of " + reads + " rejected");
  }

  /** What one read gave: rows read before the end or the failure, and bytes allocated. */
  record ReadResult(Integer rows, int rowsBeforeFailure, Exception failure, long allocated) {}

  /**
   * Reads the file on the watchdog thread, failing the test on a hang, on too much allocation and
   * on any exception but a ParquetException naming the file or a DataException.
   */
  private static ReadResult guardedRead(
      byte[] bytes,
      String name,
      boolean replay,
      ReadOptions options,
      int startRowGroup,
      String what)
      throws Exception {
    Future<ReadResult> future =
        WATCHDOG.submit(
            () -> {
              com.sun.management.ThreadMXBean threads =
                  (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
              long before = threads.getCurrentThreadAllocatedBytes();
              int[] rows = new int[1];
              Exception failure = null;
              try {
                readThroughConnect(bytes, name, replay, options, startRowGroup, rows);
              } catch (ParquetException | DataException e) {
                failure = e;
              } catch (Throwable e) {
                throw new AssertionError(what + " of a " + bytes.length + "-byte file: " + e, e);
              }
              long allocated = threads.getCurrentThreadAllocatedBytes() - before;
              return new ReadResult(failure == null ? rows[0] : null, rows[0], failure, allocated);
            });
    ReadResult result;
    try {
      result = future.get(SLOW_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new AssertionError(what + " took more than " + SLOW_MILLIS + " ms: a near hang");
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof AssertionError a) {
        throw a;
      }
      throw e;
    }
    if (result.failure instanceof ParquetException p && p.file() == null) {
      fail(what + ": no file named in " + p, p);
    }
    if (result.allocated > ALLOCATION_LIMIT) {
      fail(
          what
              + " allocated "
              + (result.allocated >> 20)
              + " MiB reading a "
              + bytes.length
              + "-byte file");
    }
    return result;
  }

  /**
   * Opens the file and reads every row into records as the task does ({@link FileCursor}: the
   * mapping, {@link ConnectRecordReader}, optionally from a later row group; {@link
   * PartitionReplay}/{@link FileReplay}: the Kafka offset and the record), bounded in rows. Every
   * Struct made must be valid.
   */
  static void readThroughConnect(
      byte[] bytes, String name, boolean replay, ReadOptions options, int startRowGroup, int[] rows)
      throws IOException, ParquetException {
    PartitionChooser partitions =
        new PartitionChooser(replay ? PartitionMode.ORIGINAL : PartitionMode.DEFAULT, 0);
    try (ParquetFileReader file = ParquetFileReader.open(new MemoryInput(bytes, name), options)) {
      ReplayRowMapper replayMapper = null;
      GenericRowMapper genericMapper = null;
      ParquetToConnect mapping;
      if (replay) {
        replayMapper =
            ReplayRowMapper.of(
                file.schema(),
                ParquetToConnect.keyValueMap(file.metadata().keyValueMetadata()),
                "fallback",
                partitions);
        mapping = replayMapper.mapping();
      } else {
        genericMapper = GenericRowMapper.of(file.schema(), "rows", List.of(), "", 0L, partitions);
        mapping = genericMapper.mapping();
      }
      try (ConnectRecordReader reader = new ConnectRecordReader(file, mapping)) {
        if (startRowGroup >= 0) {
          reader.startAtRowGroup(Math.min(startRowGroup, file.rowGroups().size()));
        }
        Map<String, Object> partition = Map.of("file", name);
        while (rows[0] < MAX_ROWS && reader.hasNext()) {
          reader.next();
          SourceRecord record;
          if (replay) {
            long offset = replayMapper.kafkaOffset(reader);
            record = replayMapper.toRecord(reader, partition, Map.of("offset", offset));
          } else {
            record = genericMapper.toRecord(reader, partition, Map.of("row", rows[0]));
          }
          if (record.value() instanceof Struct s) {
            s.validate();
          }
          if (record.key() instanceof Struct k) {
            k.validate();
          }
          rows[0]++;
        }
      }
    }
  }

  // ---- (b): the real source task over a store of good and damaged files

  @Test
  void replayTaskSkipsDamagedFilesAndDeliversEveryGoodRecordOnce() throws Exception {
    SplittableRandom random = new SplittableRandom(21);
    for (int round = 0; round < TASK_ROUNDS; round++) {
      taskRound(random, round, true);
    }
  }

  @Test
  void genericTaskSkipsDamagedFilesAndDeliversEveryGoodRowOnce() throws Exception {
    SplittableRandom random = new SplittableRandom(22);
    for (int round = 0; round < TASK_ROUNDS; round++) {
      taskRound(random, round, false);
    }
  }

  @Test
  void aFailingTaskNamesTheDamagedFileAndPosition() throws Exception {
    SplittableRandom random = new SplittableRandom(23);
    for (int round = 0; round < 4; round++) {
      failRound(random, round, round % 2 == 0);
    }
  }

  /** A damaged file placed in the store, and what reading it as the task does gives. */
  record Placed(String key, long mutationSeed, String kind, ReadResult expected) {}

  private void taskRound(SplittableRandom random, int round, boolean replay) throws Exception {
    Path root = dir.resolve((replay ? "replay" : "generic") + round);
    String topicsDir = replay ? "topics" : "data";
    Map<String, Sample> goodByKey = new LinkedHashMap<>();
    for (Sample s : SINK) {
      if (replay || random.nextInt(3) == 0) {
        goodByKey.put(topicsDir + "/" + s.path, s);
      }
    }
    if (!replay) {
      for (Sample s : FOREIGN) {
        if (random.nextBoolean()) {
          goodByKey.put(topicsDir + "/" + s.path, s);
        }
      }
    }
    for (Map.Entry<String, Sample> e : goodByKey.entrySet()) {
      write(root.resolve(e.getKey()), e.getValue().bytes);
    }
    Map<String, Placed> damaged = new LinkedHashMap<>();
    int count = 3 + random.nextInt(4);
    for (int i = 0; i < count; i++) {
      Placed p = placeDamaged(random, root, topicsDir, round * 100 + i, replay);
      damaged.put(p.key, p);
    }
    int batchSize = 1 + random.nextInt(random.nextBoolean() ? 50 : 700);
    Map<String, String> props =
        ReplayModeTest.props(
            root,
            "topics.dir",
            topicsDir,
            "errors.on.corrupt.file",
            "skip",
            "errors.topic",
            "bad-files",
            "errors.quarantine.prefix",
            "quarantine",
            "batch.size",
            Integer.toString(batchSize));
    if (!replay) {
      props.put("mode", "generic");
      props.put("topic", "rows");
    }
    String what =
        (replay ? "replay" : "generic")
            + " round "
            + round
            + " (batch "
            + batchSize
            + ", damaged "
            + damaged.values()
            + ")";
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> got = drainGuarded(driver, what);

    // Reports: one per unreadable file, with file and position; none for a readable one.
    Map<String, List<SourceRecord>> byFile = new HashMap<>();
    Map<String, SourceRecord> reports = new HashMap<>();
    for (SourceRecord r : got) {
      if (r.topic().equals("bad-files")) {
        String file = (String) r.key();
        assertTrue(reports.put(file, r) == null, what + ": " + file + " reported twice");
        Struct report = (Struct) r.value();
        report.validate();
        assertEquals(file, report.getString("file"), what);
        assertTrue(report.getInt32("row_group") >= 0 && report.getInt64("row") >= 0, what);
        assertFalse(report.getString("error").isBlank(), what);
        assertTrue(
            Boolean.TRUE.equals(r.sourceOffset().get("skipped")),
            what + ": the report's offset marks the file skipped: " + r.sourceOffset());
        continue;
      }
      String file =
          replay ? (String) r.sourceOffset().get("file") : (String) r.sourcePartition().get("file");
      byFile.computeIfAbsent(file, k -> new ArrayList<>()).add(r);
    }
    for (Placed p : damaged.values()) {
      String where = what + ", " + p.key + " (seed " + p.mutationSeed + ", " + p.kind + ")";
      int sent = byFile.getOrDefault(p.key, List.of()).size();
      if (p.expected.failure != null) {
        assertTrue(
            reports.containsKey(p.key),
            where + ": not reported, though unreadable: " + p.expected.failure);
        assertFalse(Files.exists(root.resolve(p.key)), where + ": not quarantined");
        String below = p.key.substring(topicsDir.length() + 1);
        assertTrue(Files.exists(root.resolve("quarantine/" + below)), where + ": quarantined");
        if (replay) {
          assertTrue(sent <= p.expected.rowsBeforeFailure, where + ": " + sent + " sent");
        } else {
          assertEquals(p.expected.rowsBeforeFailure, sent, where + ": the rows before the damage");
        }
      } else {
        assertFalse(
            reports.containsKey(p.key),
            where
                + ": reported, though readable: "
                + (reports.containsKey(p.key) ? reports.get(p.key).value() : ""));
        if (!replay) {
          assertEquals(p.expected.rows, sent, where + ": every row of a readable file");
        }
      }
    }
    assertTrue(
        damaged.keySet().containsAll(reports.keySet()),
        what + ": only damaged files reported: " + reports.keySet());

    // The good files: every record exactly once.
    for (Map.Entry<String, Sample> e : goodByKey.entrySet()) {
      List<SourceRecord> records = byFile.getOrDefault(e.getKey(), List.of());
      if (replay) {
        continue; // checked below by original offset, across the files of a partition
      }
      ReadResult pristine =
          guardedRead(
              e.getValue().bytes,
              e.getValue().fileName(),
              false,
              ReadOptions.defaults(),
              -1,
              "pristine " + e.getKey());
      assertEquals(pristine.rows, records.size(), what + ": rows of " + e.getKey());
      Set<String> positions = new java.util.HashSet<>();
      for (SourceRecord r : records) {
        assertTrue(
            positions.add(r.sourceOffset().get("rowGroup") + "/" + r.sourceOffset().get("row")),
            what + ": a row of " + e.getKey() + " sent twice");
      }
      if (e.getValue().sink) {
        for (SourceRecord r : records) {
          Struct v = (Struct) r.value();
          SinkRecord o =
              ORIGINALS.get(
                  v.getString("__kafka_topic")
                      + "/"
                      + v.getInt32("__kafka_partition")
                      + "/"
                      + v.getInt64("__kafka_offset"));
          assertNotNull(o, what + ": an original for " + v);
          assertEquals(((Struct) o.value()).getString("note"), v.getString("note"), what);
        }
      }
    }
    if (replay) {
      Map<String, SourceRecord> delivered = new TreeMap<>();
      for (SourceRecord r : got) {
        Object topic = r.sourcePartition().get("topic");
        if (r.topic().equals("bad-files") || !SINK_TOPICS.contains(topic)) {
          continue;
        }
        String id =
            topic
                + "/"
                + r.sourcePartition().get("partition")
                + "/"
                + r.sourceOffset().get("offset");
        assertTrue(delivered.put(id, r) == null, what + ": " + id + " delivered twice");
      }
      assertEquals(ORIGINALS.keySet(), delivered.keySet(), what + ": every good record once");
      for (Map.Entry<String, SourceRecord> e : delivered.entrySet()) {
        assertSameRecord(ORIGINALS.get(e.getKey()), e.getValue(), what + ": " + e.getKey());
      }
    }

    long unreadable = damaged.values().stream().filter(p -> p.expected.failure != null).count();
    LOG.info(
        "{}: {} records, {} of {} damaged files unreadable and reported",
        what.substring(0, what.indexOf(" (")),
        got.size(),
        unreadable,
        damaged.size());

    // A restart reads nothing again: good files are finished, skipped ones are marked skipped.
    driver = driver.restart();
    List<SourceRecord> again = drainGuarded(driver, what + ", after a restart");
    assertEquals(
        List.of(),
        again.stream().map(r -> r.sourcePartition() + "@" + r.sourceOffset()).toList(),
        what + ": sent again after a restart");
  }

  private void failRound(SplittableRandom random, int round, boolean replay) throws Exception {
    Path root = dir.resolve((replay ? "failreplay" : "failgeneric") + round);
    String topicsDir = replay ? "topics" : "data";
    for (Sample s : SINK.subList(0, 2)) {
      write(root.resolve(topicsDir + "/" + s.path), s.bytes);
    }
    Placed p;
    do {
      p = placeDamaged(random, root, topicsDir, round, replay);
      if (p.expected.failure == null) {
        Files.delete(root.resolve(p.key));
      }
    } while (p.expected.failure == null);
    Map<String, String> props = ReplayModeTest.props(root, "topics.dir", topicsDir);
    if (!replay) {
      props.put("mode", "generic");
      props.put("topic", "rows");
    }
    String what =
        (replay ? "replay" : "generic")
            + " fail round "
            + round
            + ", "
            + p.key
            + " (seed "
            + p.mutationSeed
            + ", "
            + p.kind
            + "): "
            + p.expected.failure;
    TaskDriver driver = new TaskDriver(props).start();
    Throwable thrown = null;
    Future<?> future =
        WATCHDOG.submit(
            () -> {
              for (int polls = 0; polls < 10_000; polls++) {
                driver.poll(true);
              }
              return null;
            });
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      fail(what + ": the task polled for 30 s without failing");
    } catch (java.util.concurrent.ExecutionException e) {
      thrown = e.getCause();
    } finally {
      driver.stop();
    }
    assertNotNull(thrown, what + ": the task never failed");
    if (!(thrown instanceof ConnectException) || thrown instanceof DataException) {
      throw new AssertionError(what + ": poll threw " + thrown, thrown);
    }
    assertTrue(
        thrown.getMessage().contains(p.key) && thrown.getMessage().contains("row group"),
        what + ": " + thrown.getMessage());
  }

  /**
   * Writes a damaged copy of a sample into the store: in replay mode under a sink name of its own
   * topic-partition {@code fzbad-<n>} (so no good partition depends on it), in generic mode under
   * {@code fzbad/}. Reads it first as the task will (default options), for the expectation.
   */
  private static Placed placeDamaged(
      SplittableRandom random, Path root, String topicsDir, int n, boolean replay)
      throws Exception {
    List<Sample> from = replay && random.nextInt(6) != 0 || random.nextBoolean() ? SINK : FOREIGN;
    Sample s = from.get(random.nextInt(from.size()));
    long seed = random.nextLong();
    Mutated m = mutate(s.bytes, new SplittableRandom(seed));
    String name =
        replay
            ? SinkArchive.fileName("fzbad", n, 0, 1000, 0)
            : String.format(Locale.ROOT, "bad-%03d-%s", n, s.fileName());
    String key = topicsDir + "/fzbad/" + name;
    write(root.resolve(key), m.bytes);
    ReadResult expected =
        guardedRead(
            m.bytes,
            key,
            replay,
            ReadOptions.defaults(),
            -1,
            "seed " + seed + " (" + m.kind + ") of " + s.path);
    return new Placed(key, seed, m.kind, expected);
  }

  /** Polls, acknowledging, until three polls in a row bring nothing; poll must never throw. */
  private static List<SourceRecord> drainGuarded(TaskDriver driver, String what) throws Exception {
    Future<List<SourceRecord>> future =
        WATCHDOG.submit(
            () -> {
              try {
                return driver.drain(3);
              } catch (Throwable e) {
                throw new AssertionError(what + ": poll threw " + e, e);
              }
            });
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new AssertionError(what + ": the task did not settle within 60 s");
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof AssertionError a) {
        throw a;
      }
      throw e;
    } finally {
      driver.stop();
    }
  }

  private static void assertSameRecord(SinkRecord o, SourceRecord r, String what) {
    assertEquals(o.topic(), r.topic(), what);
    assertEquals(o.kafkaPartition(), r.kafkaPartition(), what);
    assertEquals(o.timestamp(), r.timestamp(), what);
    assertEquals(o.key(), r.key(), what);
    assertEquals(o.valueSchema(), r.valueSchema(), what);
    Struct want = (Struct) o.value();
    Struct have = (Struct) r.value();
    for (org.apache.kafka.connect.data.Field f : VALUE.fields()) {
      Object a = want.get(f.name());
      Object b = have.get(f.name());
      assertTrue(
          java.util.Objects.deepEquals(a, b), what + ": field " + f.name() + ": " + a + " != " + b);
    }
    assertEquals(headers(o.headers()), headers(r.headers()), what);
  }

  private static List<String> headers(Iterable<Header> headers) {
    List<String> out = new ArrayList<>();
    for (Header h : headers) {
      out.add(h.key() + ":" + h.schema() + "=" + h.value());
    }
    return out;
  }

  private static void write(Path file, byte[] bytes) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  // ---- mutations

  /** Damaged bytes and what was done to them. */
  record Mutated(byte[] bytes, String kind) {}

  static Mutated mutate(byte[] original, SplittableRandom r) {
    int choice = r.nextInt(22);
    try {
      if (choice >= 20) {
        return textEdit(original, r);
      }
      if (choice < 6) {
        return new Mutated(bytesDamage(original, r), "bytes");
      } else if (choice < 7) {
        return truncate(original, r);
      } else if (choice < 8) {
        return footerLengthLie(original, r);
      } else if (choice < 13) {
        return footerEdit(original, r);
      } else if (choice < 17) {
        return pageHeaderEdit(original, r);
      } else if (choice < 19) {
        return replacePage(original, r);
      } else {
        return tinyFile(r);
      }
    } catch (ParquetException | RuntimeException e) {
      // A structure not found where expected: damage bytes instead.
      return new Mutated(bytesDamage(original, r), "bytes");
    }
  }

  /**
   * Same-length token swaps in the file's text: the Connect schemas stored in the footer (which
   * stays valid Thrift, lengths unchanged) and, in uncompressed pages, the header schemas and
   * strings. Types, optional flags, decimal scales and precisions, logical type names and field
   * names change while the JSON stays well-formed: the file is then described by a schema that does
   * not fit its columns or values.
   */
  static Mutated textEdit(byte[] original, SplittableRandom r) {
    String text = new String(original, StandardCharsets.ISO_8859_1);
    List<int[]> found = new ArrayList<>(); // {pattern, start, end} of group 1
    for (int i = 0; i < TEXT_PATTERNS.length; i++) {
      java.util.regex.Matcher m = TEXT_PATTERNS[i].matcher(text);
      while (m.find()) {
        found.add(new int[] {i, m.start(1), m.end(1)});
      }
    }
    if (found.isEmpty()) {
      throw new IllegalStateException("no text to edit");
    }
    int[] at = found.get(r.nextInt(found.size()));
    String[] swaps = TEXT_SWAPS[at[0]];
    String old = text.substring(at[1], at[2]);
    String replacement = swaps[r.nextInt(swaps.length)];
    if (replacement.length() < old.length()) {
      replacement = replacement + " ".repeat(old.length() - replacement.length());
    }
    replacement = replacement.substring(0, old.length());
    byte[] b = original.clone();
    byte[] with = replacement.getBytes(StandardCharsets.ISO_8859_1);
    System.arraycopy(with, 0, b, at[1], with.length);
    return new Mutated(b, "text " + old + "->" + replacement.strip());
  }

  private static final java.util.regex.Pattern[] TEXT_PATTERNS = {
    java.util.regex.Pattern.compile("\"(int64|int32|int16|bytes|array)\""),
    java.util.regex.Pattern.compile("\"(string|struct)\""),
    java.util.regex.Pattern.compile("\"(float32|float64|boolean)\""),
    java.util.regex.Pattern.compile("\"optional\":(true|false)"),
    java.util.regex.Pattern.compile("\"scale\":\"(\\d+)\""),
    java.util.regex.Pattern.compile("precision\":\"(\\d+)\""),
    java.util.regex.Pattern.compile("connect\\.data\\.(Date|Time)\""),
    java.util.regex.Pattern.compile("\"name\":\"(note|name|flag|blob|tags|seq\"|when|day\")"),
    java.util.regex.Pattern.compile("\"version\":(\\d+)"),
    java.util.regex.Pattern.compile("\"(map|int8)\""),
  };
  private static final String[][] TEXT_SWAPS = {
    {"int64", "int32", "int16", "bytes", "array"},
    {"string", "struct"},
    {"float32", "float64", "boolean"},
    {"true", "false", "null"},
    {"x", "-", "9", "0", "99", "2147483648"},
    {"x", "0", "-", "1", "99", "9999999999"},
    {"Date", "Time"},
    {"note", "name", "flag", "blob", "tags", "seq\"", "when", "day\""},
    {"x", "-", "0"},
    {"map", "int8"},
  };

  /** One to four damages: flipped bits, set bytes, zeroed or copied runs, half near the end. */
  static byte[] bytesDamage(byte[] original, SplittableRandom r) {
    byte[] b = original.clone();
    int damages = 1 + r.nextInt(4);
    for (int d = 0; d < damages; d++) {
      int at =
          r.nextBoolean()
              ? r.nextInt(b.length)
              : Math.max(0, b.length - 1 - r.nextInt(Math.min(2048, b.length)));
      switch (r.nextInt(6)) {
        case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
        case 1 -> b[at] = (byte) r.nextInt(256);
        case 2 -> b[at] = (byte) (r.nextBoolean() ? 0 : 0xFF);
        case 3 ->
            Arrays.fill(
                b,
                at,
                at + Math.min(b.length - at, 1 + r.nextInt(64)),
                (byte) (r.nextBoolean() ? 0 : r.nextInt(256)));
        case 4 -> {
          int from = r.nextInt(b.length);
          int length = Math.min(Math.min(b.length - at, b.length - from), 1 + r.nextInt(128));
          System.arraycopy(b, from, b, at, length);
        }
        default -> {
          int length = Math.min(b.length - at, 1 + r.nextInt(32));
          for (int i = at; i < at + length; i++) {
            b[i] = (byte) r.nextInt(256);
          }
        }
      }
    }
    return b;
  }

  private static Mutated truncate(byte[] b, SplittableRandom r) {
    int length =
        switch (r.nextInt(4)) {
          case 0 -> r.nextInt(b.length);
          case 1 -> b.length - 1 - r.nextInt(Math.min(64, b.length - 1));
          case 2 -> r.nextInt(16);
          default -> b.length - 8; // the trailer gone, the footer's end now looks like one
        };
    return new Mutated(Arrays.copyOf(b, Math.max(0, length)), "truncate");
  }

  private static Mutated footerLengthLie(byte[] original, SplittableRandom r) {
    byte[] b = original.clone();
    int real =
        (b[b.length - 8] & 0xFF)
            | (b[b.length - 7] & 0xFF) << 8
            | (b[b.length - 6] & 0xFF) << 16
            | (b[b.length - 5] & 0xFF) << 24;
    int lie =
        switch (r.nextInt(7)) {
          case 0 -> 0;
          case 1 -> real + 1 + r.nextInt(8);
          case 2 -> real - 1 - r.nextInt(Math.max(1, Math.min(real, 64)));
          case 3 -> b.length - 8;
          case 4 -> b.length;
          case 5 -> Integer.MAX_VALUE - r.nextInt(16);
          default -> -1 - r.nextInt(1000);
        };
    b[b.length - 8] = (byte) lie;
    b[b.length - 7] = (byte) (lie >> 8);
    b[b.length - 6] = (byte) (lie >> 16);
    b[b.length - 5] = (byte) (lie >> 24);
    return new Mutated(b, "footer-length");
  }

  private static Mutated tinyFile(SplittableRandom r) {
    byte[] magic = "PAR1".getBytes(StandardCharsets.US_ASCII);
    return switch (r.nextInt(4)) {
      case 0 -> new Mutated(new byte[0], "empty");
      case 1 -> new Mutated(magic, "magic-only");
      case 2 -> {
        byte[] b = new byte[12];
        System.arraycopy(magic, 0, b, 0, 4);
        System.arraycopy(magic, 0, b, 8, 4);
        yield new Mutated(b, "empty-footer");
      }
      default -> {
        byte[] b = new byte[1 + r.nextInt(64)];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) r.nextInt(256);
        }
        yield new Mutated(b, "noise");
      }
    };
  }

  /** A number near {@code v} or a lie: off by one, doubled, zero, negative, huge. */
  static long lie(long v, SplittableRandom r) {
    return switch (r.nextInt(9)) {
      case 0 -> v + 1;
      case 1 -> v - 1;
      case 2 -> v * 2 + 1;
      case 3 -> 0;
      case 4 -> -1 - r.nextInt(100);
      case 5 -> v / 2;
      case 6 -> (long) Integer.MAX_VALUE - r.nextInt(16);
      case 7 -> 1L << (32 + r.nextInt(30));
      default -> v + r.nextInt(4096) - 2048;
    };
  }

  static int lie(int v, SplittableRandom r) {
    long l = lie((long) v, r);
    return l > Integer.MAX_VALUE || l < Integer.MIN_VALUE
        ? Integer.MAX_VALUE - r.nextInt(16)
        : (int) l;
  }

  static <E extends Enum<E>> E other(E[] values, SplittableRandom r) {
    return values[r.nextInt(values.length)];
  }

  private static Mutated footerEdit(byte[] file, SplittableRandom r) throws ParquetException {
    FileMetaData m = footer(file);
    List<RowGroup> groups = new ArrayList<>(m.rowGroups());
    List<SchemaElement> schema = new ArrayList<>(m.schema());
    List<KeyValue> kv = m.keyValueMetadata() == null ? null : new ArrayList<>(m.keyValueMetadata());
    long numRows = m.numRows();
    String kind;
    int what = r.nextInt(10);
    if (groups.isEmpty() && what < 6) {
      what = 6;
    }
    int g = groups.isEmpty() ? 0 : r.nextInt(groups.size());
    RowGroup group = groups.isEmpty() ? null : groups.get(g);
    int c = group == null ? 0 : r.nextInt(group.columns().size());
    switch (what) {
      case 0, 1, 2, 3 -> {
        ColumnChunk chunk = group.columns().get(c);
        ColumnMetaData cm = chunk.metaData();
        PhysicalType type = cm.type();
        List<Encoding> encodings = cm.encodings();
        CompressionCodec codec = cm.codec();
        long numValues = cm.numValues();
        long uncompressed = cm.totalUncompressedSize();
        long compressed = cm.totalCompressedSize();
        long dataOffset = cm.dataPageOffset();
        Long dictOffset = cm.dictionaryPageOffset();
        var statistics = cm.statistics();
        switch (r.nextInt(10)) {
          case 0 -> {
            numValues = lie(numValues, r);
            kind = "num_values";
          }
          case 1 -> {
            type = other(PhysicalType.values(), r);
            kind = "chunk type";
          }
          case 2 -> {
            encodings = List.of(other(Encoding.values(), r));
            kind = "encodings";
          }
          case 3 -> {
            codec = other(CompressionCodec.values(), r);
            kind = "codec";
          }
          case 4 -> {
            dataOffset = r.nextBoolean() ? lie(dataOffset, r) : dictOffset != null ? dictOffset : 4;
            kind = "data_page_offset";
          }
          case 5 -> {
            dictOffset =
                switch (r.nextInt(4)) {
                  case 0 -> null;
                  case 1 -> 0L;
                  case 2 -> dataOffset;
                  default ->
                      dictOffset == null ? Long.valueOf(4) : Long.valueOf(lie(dictOffset, r));
                };
            kind = "dictionary_page_offset";
          }
          case 6 -> {
            compressed = lie(compressed, r);
            kind = "total_compressed_size";
          }
          case 7 -> {
            uncompressed = lie(uncompressed, r);
            kind = "total_uncompressed_size";
          }
          case 8 -> {
            statistics = null;
            numValues = 1L << 40;
            compressed = 1L << 40;
            uncompressed = 1L << 41;
            kind = "huge sizes";
          }
          default -> {
            numValues = numValues * (2 + r.nextInt(1000));
            kind = "num_values multiplied";
          }
        }
        ColumnMetaData edited =
            new ColumnMetaData(
                type,
                encodings,
                cm.pathInSchema(),
                codec,
                numValues,
                uncompressed,
                compressed,
                cm.keyValueMetadata(),
                dataOffset,
                cm.indexPageOffset(),
                dictOffset,
                statistics,
                cm.encodingStats(),
                cm.bloomFilterOffset(),
                cm.bloomFilterLength(),
                cm.sizeStatistics(),
                cm.geospatialStatistics());
        List<ColumnChunk> chunks = new ArrayList<>(group.columns());
        chunks.set(
            c,
            new ColumnChunk(
                chunk.filePath(),
                chunk.fileOffset(),
                edited,
                chunk.offsetIndexOffset(),
                chunk.offsetIndexLength(),
                chunk.columnIndexOffset(),
                chunk.columnIndexLength(),
                chunk.cryptoMetadata(),
                chunk.encryptedColumnMetadata()));
        groups.set(
            g,
            new RowGroup(
                chunks,
                group.totalByteSize(),
                group.numRows(),
                group.sortingColumns(),
                group.fileOffset(),
                group.totalCompressedSize(),
                group.ordinal()));
      }
      case 4 -> {
        long rows = r.nextInt(3) == 0 ? 1L << (31 + r.nextInt(30)) : lie(group.numRows(), r);
        groups.set(
            g,
            new RowGroup(
                group.columns(),
                group.totalByteSize(),
                rows,
                group.sortingColumns(),
                group.fileOffset(),
                group.totalCompressedSize(),
                group.ordinal()));
        kind = "row group num_rows";
      }
      case 5 -> {
        if (r.nextBoolean()) {
          groups.remove(g);
          kind = "row group dropped";
        } else {
          groups.add(r.nextInt(groups.size() + 1), group);
          kind = "row group repeated";
        }
      }
      case 6 -> {
        numRows = lie(numRows, r);
        kind = "file num_rows";
      }
      case 7, 8 -> {
        int i = r.nextInt(schema.size());
        SchemaElement e = schema.get(i);
        PhysicalType type = e.type();
        Integer typeLength = e.typeLength();
        FieldRepetitionType repetition = e.repetitionType();
        Integer children = e.numChildren();
        var converted = e.convertedType();
        var logical = e.logicalType();
        Integer scale = e.scale();
        Integer precision = e.precision();
        switch (r.nextInt(7)) {
          case 0 ->
              type =
                  e.numChildren() != null && r.nextBoolean()
                      ? null
                      : other(PhysicalType.values(), r);
          case 1 -> typeLength = typeLength == null ? 1 + r.nextInt(20) : lie(typeLength, r);
          case 2 -> repetition = other(FieldRepetitionType.values(), r);
          case 3 -> children = children == null ? 1 : lie(children, r);
          case 4 -> {
            converted = null;
            logical = null;
          }
          case 5 -> {
            SchemaElement donor = schema.get(r.nextInt(schema.size()));
            converted = donor.convertedType();
            logical = donor.logicalType();
            scale = donor.scale();
            precision = donor.precision();
          }
          default -> {
            scale = scale == null ? 3 : lie(scale, r);
            precision = precision == null ? 40 : lie(precision, r);
          }
        }
        schema.set(
            i,
            new SchemaElement(
                type,
                typeLength,
                repetition,
                e.name(),
                children,
                converted,
                scale,
                precision,
                e.fieldId(),
                logical));
        kind = "schema element";
      }
      default -> {
        if (kv == null || kv.isEmpty()) {
          throw new IllegalStateException("no key/value metadata");
        }
        int i = r.nextInt(kv.size());
        KeyValue e = kv.get(i);
        String v = e.value() == null ? "" : e.value();
        switch (r.nextInt(4)) {
          case 0 -> v = v.substring(0, r.nextInt(v.length() + 1));
          case 1 -> {
            KeyValue donor = kv.get(r.nextInt(kv.size()));
            v = donor.value();
          }
          case 2 ->
              v =
                  v.replace("\"int64\"", "\"string\"")
                      .replace("\"INT64\"", "\"STRING\"")
                      .replace("\"optional\":false", "\"optional\":true");
          default -> {
            if (!v.isEmpty()) {
              char[] chars = v.toCharArray();
              chars[r.nextInt(chars.length)] = "{}[]\",:0a".charAt(r.nextInt(9));
              v = new String(chars);
            }
          }
        }
        kv.set(i, new KeyValue(e.key(), v));
        kind = "key/value metadata";
      }
    }
    FileMetaData edited =
        new FileMetaData(
            m.version(),
            schema,
            numRows,
            groups,
            kv,
            m.createdBy(),
            m.columnOrders(),
            m.encryptionAlgorithm(),
            m.footerSigningKeyMetadata());
    return new Mutated(withFooter(file, edited), "footer " + kind);
  }

  /** A page in the file: where its header starts, the header's length, the body's length. */
  record Page(int offset, int headerLength, int bodyLength, PageHeader header) {
    int end() {
      return offset + headerLength + bodyLength;
    }
  }

  /** Every page of every chunk, found by walking each chunk's headers. */
  static List<Page> pages(byte[] file) throws ParquetException {
    List<Page> pages = new ArrayList<>();
    for (RowGroup g : footer(file).rowGroups()) {
      for (ColumnChunk c : g.columns()) {
        ColumnMetaData m = c.metaData();
        long start =
            m.dictionaryPageOffset() != null && m.dictionaryPageOffset() > 0
                ? Math.min(m.dictionaryPageOffset(), m.dataPageOffset())
                : m.dataPageOffset();
        long end = start + m.totalCompressedSize();
        long at = start;
        while (at < end && end <= file.length) {
          Decoded<PageHeader> h = MetadataCodec.readPageHeader(file, (int) at, (int) (end - at));
          int body = h.value().compressedPageSize();
          pages.add(new Page((int) at, h.length(), body, h.value()));
          at += h.length() + (long) body;
        }
      }
    }
    if (pages.isEmpty()) {
      throw new IllegalStateException("no pages");
    }
    return pages;
  }

  private static Mutated pageHeaderEdit(byte[] file, SplittableRandom r) throws ParquetException {
    List<Page> pages = pages(file);
    Page p = pages.get(r.nextInt(pages.size()));
    PageHeader h = p.header;
    PageType type = h.type();
    int uncompressed = h.uncompressedPageSize();
    int compressed = h.compressedPageSize();
    Integer crc = h.crc();
    DataPageHeader v1 = h.dataPageHeader();
    DataPageHeaderV2 v2 = h.dataPageHeaderV2();
    DictionaryPageHeader dict = h.dictionaryPageHeader();
    String kind;
    switch (r.nextInt(8)) {
      case 0 -> {
        uncompressed = lie(uncompressed, r);
        kind = "uncompressed_page_size";
      }
      case 1 -> {
        compressed = lie(compressed, r);
        kind = "compressed_page_size";
      }
      case 2 -> {
        type = other(PageType.values(), r);
        kind = "page type";
      }
      case 3 -> {
        crc = crc == null ? Integer.valueOf(r.nextInt()) : null;
        kind = "crc";
      }
      default -> {
        if (v1 != null) {
          int n = v1.numValues();
          Encoding e = v1.encoding();
          Encoding d = v1.definitionLevelEncoding();
          Encoding rep = v1.repetitionLevelEncoding();
          switch (r.nextInt(4)) {
            case 0, 1 -> n = lie(n, r);
            case 2 -> e = other(Encoding.values(), r);
            default -> {
              d = other(Encoding.values(), r);
              rep = other(Encoding.values(), r);
            }
          }
          v1 = new DataPageHeader(n, e, d, rep, v1.statistics());
          kind = "v1 header";
        } else if (v2 != null) {
          int n = v2.numValues();
          int nulls = v2.numNulls();
          int rows = v2.numRows();
          Encoding e = v2.encoding();
          int defLength = v2.definitionLevelsByteLength();
          int repLength = v2.repetitionLevelsByteLength();
          Boolean isCompressed = v2.isCompressed();
          switch (r.nextInt(7)) {
            case 0 -> n = lie(n, r);
            case 1 -> nulls = lie(nulls, r);
            case 2 -> rows = lie(rows, r);
            case 3 -> e = other(Encoding.values(), r);
            case 4 -> defLength = lie(defLength, r);
            case 5 -> repLength = lie(repLength, r);
            default -> isCompressed = isCompressed == null ? Boolean.FALSE : !isCompressed;
          }
          v2 =
              new DataPageHeaderV2(
                  n, nulls, rows, e, defLength, repLength, isCompressed, v2.statistics());
          kind = "v2 header";
        } else if (dict != null) {
          dict =
              r.nextBoolean()
                  ? new DictionaryPageHeader(
                      lie(dict.numValues(), r), dict.encoding(), dict.isSorted())
                  : new DictionaryPageHeader(
                      dict.numValues(), other(Encoding.values(), r), dict.isSorted());
          kind = "dictionary header";
        } else {
          throw new IllegalStateException("an index page");
        }
      }
    }
    PageHeader edited =
        new PageHeader(type, uncompressed, compressed, crc, v1, h.indexPageHeader(), dict, v2);
    GrowableBuffer header = new GrowableBuffer(64);
    MetadataCodec.write(edited, header);
    // Spliced in place of the old header; a header of another length shifts what follows,
    // which the footer's offsets then contradict.
    GrowableBuffer out = new GrowableBuffer(file.length + 64);
    out.write(file, 0, p.offset);
    out.write(header);
    out.write(file, p.offset + p.headerLength, file.length - p.offset - p.headerLength);
    return new Mutated(
        out.toByteArray(), "page " + kind + (header.size() == p.headerLength ? "" : " (shifted)"));
  }

  private static Mutated replacePage(byte[] file, SplittableRandom r) throws ParquetException {
    List<Page> pages = pages(file);
    Page target = pages.get(r.nextInt(pages.size()));
    Page donor = pages.get(r.nextInt(pages.size()));
    int donorLength = donor.end() - donor.offset;
    int targetLength = target.end() - target.offset;
    if (r.nextBoolean() || donorLength == targetLength) {
      // Spliced: the page of another column or row group in its place.
      GrowableBuffer out = new GrowableBuffer(file.length + donorLength);
      out.write(file, 0, target.offset);
      out.write(file, donor.offset, donorLength);
      out.write(file, target.end(), file.length - target.end());
      return new Mutated(out.toByteArray(), "page replaced");
    }
    // Overwritten in place as far as the target page reaches: the footer's offsets hold.
    byte[] b = file.clone();
    System.arraycopy(file, donor.offset, b, target.offset, Math.min(donorLength, targetLength));
    return new Mutated(b, "page overwritten");
  }
}
