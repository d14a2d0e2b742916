package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.format=json} against Kafka's JsonConverter + {@code input.format=connect}, over
 * 120,000 seeded random documents (schemaless under both conflict policies, envelopes of drifting
 * schemas, envelopes of schemas whose records the raw path writes from staged rows straight into
 * the columns, and schemaless documents of repeated, growing shapes that it stages by the layout it
 * learns, the last two with keys, headers and the metadata columns stored), a tenth of them mutated
 * (truncated, a byte changed, inserted or dropped).
 *
 * <ol>
 *   <li>Record by record: JsonConverter refuses a document exactly when our reader does, and
 *       otherwise both give equal Connect schemas and values (doubles bit for bit, bytes by
 *       content). Documents whose mutation left invalid UTF-8 are left out of this comparison:
 *       Jackson decodes some invalid UTF-8 into garbage text where our reader refuses it
 *       (docs/json-input.md); {@link JsonReaderTest} pins that case.
 *   <li>File by file: the real sink task writes each stream twice, once from JsonConverter's values
 *       (the documents it refuses never reach the task, as on a worker whose converter failed) and
 *       once from the raw bytes, committed every 3,000 offsets; the committed files are equal byte
 *       for byte, file by file in offset order (a file's name, its commit's offset range, may also
 *       cover records JsonConverter refused at its edges), and the raw path's bad records are the
 *       connect path's plus the documents JsonConverter refused, with the connect path's errors.
 * </ol>
 */
final class JsonInputDifferentialTest {
  private static final Logger LOG = LoggerFactory.getLogger(JsonInputDifferentialTest.class);
  private static final String TOPIC = "diff";
  private static final long SEED = 0x15_0000_1234L;

  /** Offsets per commit (by the schedule, so that records refused early do not count). */
  private static final int CHUNK = 3_000;

  private static final String MUTATIONS = " {}[],:\"\\-0123456789.eEtrufalsn\u0001x";

  @TempDir Path dir;

  @Test
  void bothPathsWriteTheSameFilesAndRefuseTheSameRecords() throws Exception {
    LOG.info("seed {}", SEED);
    Random random = new Random(SEED);
    long started = System.nanoTime();
    int total = 0;
    total += stream("schemaless-string", false, false, "string", 30_000, random);
    total += stream("schemaless-fail", false, false, "fail", 15_000, random);
    total += stream("envelopes", true, false, "string", 35_000, random);
    total += stream("staged", true, true, "string", 20_000, random);
    total += stream("staged-json-keys", true, true, "string", 10_000, random);
    total += stream("schemaless-staged", false, true, "string", 20_000, random);
    LOG.info("{} documents compared in {} ms", total, (System.nanoTime() - started) / 1_000_000);
    assertTrue(total >= 100_000);
  }

  /**
   * One stream of {@code count} documents; {@code staged}: envelopes of the schemas the staged path
   * reads straight into the columns (most of them written that way, the rest after a fall back to
   * the Struct path), with keys, headers and the Kafka metadata columns stored.
   */
  private int stream(
      String name, boolean envelopes, boolean staged, String policy, int count, Random random)
      throws Exception {
    long started = System.nanoTime();
    RandomJson gen = new RandomJson(random);
    // The shapes from a seed of their own: the stream does not depend on the streams before it.
    SchemalessShapes shapes =
        !envelopes && staged ? new SchemalessShapes(new Random(SEED + count)) : null;
    gen.shortDoubles(staged);
    // Keys of raw JSON envelopes too (input.json.key), against JsonConverter's key path.
    boolean jsonKeys = name.endsWith("json-keys");
    JsonConverter keyConverter = new JsonConverter();
    keyConverter.configure(Map.of("schemas.enable", "true"), true);
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", Boolean.toString(envelopes)), false);
    JsonConverter base64 = new JsonConverter();
    base64.configure(Map.of("schemas.enable", "true"), false);
    JsonConverter numeric = new JsonConverter();
    numeric.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
    List<Schema> schemas = new ArrayList<>();
    JsonRecordDecoder decoder = new JsonRecordDecoder(envelopes, false);
    // Reads the stream as the task does (a row where it can, else the record), to count the
    // records staged per type family their schema has.
    JsonRecordDecoder stager = new JsonRecordDecoder(envelopes, false);
    Map<String, Integer> stagedByFamily = new TreeMap<>();

    List<SinkRecord> connectRecords = new ArrayList<>();
    List<SinkRecord> rawRecords = new ArrayList<>();
    List<Long> refused = new ArrayList<>();
    int compared = 0;
    int mutated = 0;
    for (int offset = 0; offset < count; offset++) {
      byte[] doc;
      if (envelopes) {
        // A topic's schema changes now and then, sometimes back to an older version.
        if (schemas.isEmpty() || random.nextInt(1000) == 0) {
          schemas.add(0, staged ? gen.stageableSchema(0) : gen.schema(0));
        } else if (schemas.size() > 1 && random.nextInt(2000) == 0) {
          schemas.add(0, schemas.remove(1));
        }
        doc = gen.envelope(schemas.get(0), base64, numeric);
        if (staged && random.nextInt(20) == 0) {
          doc = spacedPayload(doc);
        }
        if (staged && random.nextInt(10) == 0) {
          doc = nullMember(doc, "f" + random.nextInt(10)); // a default's or a null's turn
        }
      } else if (shapes != null) {
        doc = shapes.document();
      } else {
        doc = gen.document().getBytes(StandardCharsets.UTF_8);
      }
      // A commit's first and last offsets are ones JsonConverter accepts, so both paths name
      // their files alike (a refused record never reaches the connect path's task).
      boolean edge = offset % CHUNK == 0 || (offset + 1) % CHUNK == 0 || offset == count - 1;
      if (!edge && random.nextInt(10) == 0) {
        doc = mutate(doc, random);
        mutated++;
      }
      SchemaAndValue expected = null;
      RuntimeException converterError = null;
      try {
        expected = converter.toConnectData(TOPIC, doc);
      } catch (RuntimeException e) {
        if (edge) {
          offset--;
          continue; // another document for the edge
        }
        converterError = e;
      }
      if (shapes != null && expected != null && !(expected.value() instanceof Map<?, ?>)) {
        // A mutation JsonConverter reads as text or another non-object (the opening brace deleted:
        // the first key is a string and Jackson ignores the rest) conflicts with the objects at the
        // top, and under the string policy the topic's learned value schema becomes STRING for this
        // file and every later one: from then on no row can be staged on either path, and the
        // staged count would measure only how early the random stream made one. Objects only here.
        offset--;
        continue;
      }
      SchemaAndValue actual = null;
      DataException ourError = null;
      try {
        actual = decoder.decode(doc, "value");
      } catch (DataException e) {
        ourError = e;
      }
      if (staged) {
        dev.parquetconnect.connect.StagedRow row = stager.stage(doc);
        if (row != null) {
          families(row.schema(), stagedByFamily);
        } else {
          try {
            stager.decode(doc, "value");
          } catch (DataException e) {
            // a bad record: the task's decoder reads on
          }
        }
      }
      String what = name + " offset " + offset + ": " + printable(doc);
      if (!validUtf8(doc)) {
        // Jackson lets some invalid UTF-8 through; ours refuses it (see the class comment).
        if (converterError == null && ourError == null) {
          assertSame(expected, actual, what);
        }
      } else if (converterError != null) {
        if (ourError == null) {
          fail("JsonConverter refuses but ours accepts " + what + ": " + converterError);
        }
      } else {
        if (ourError != null) {
          fail("ours refuses but JsonConverter accepts " + what + ": " + ourError.getMessage());
        }
        assertSame(expected, actual, what);
        if (actual.value() instanceof Struct struct) {
          struct.validate(); // the directed path stores values without Struct.put's validation
        }
        compared++;
      }
      String key = staged && offset % 5 > 0 ? "k" + offset % 7 : null;
      Schema keySchema = key == null ? null : Schema.OPTIONAL_STRING_SCHEMA;
      Schema rawKeySchema = keySchema;
      Object rawKey = key;
      Object connectKey = key;
      if (jsonKeys && key != null) {
        byte[] keyDoc = jsonKey(offset, random);
        SchemaAndValue k = keyConverter.toConnectData(TOPIC, keyDoc);
        keySchema = k.schema();
        connectKey = k.value();
        rawKeySchema = Schema.OPTIONAL_BYTES_SCHEMA;
        rawKey = keyDoc;
      }
      if (converterError == null) {
        connectRecords.add(
            record(offset, keySchema, connectKey, expected.schema(), expected.value()));
      } else {
        refused.add((long) offset);
      }
      rawRecords.add(record(offset, rawKeySchema, rawKey, Schema.OPTIONAL_BYTES_SCHEMA, doc));
    }
    LOG.info(
        "{}: {} documents, {} mutated, {} refused by JsonConverter, {} values compared, {} read"
            + " from a known envelope prefix by schema",
        name,
        count,
        mutated,
        refused.size(),
        compared,
        decoder.directRecords());
    if (envelopes) {
      // Most envelopes repeat the previous one's schema: the directed path must carry them.
      assertTrue(decoder.directRecords() > count / 2, name + ": " + decoder.directRecords());
    }

    Path connectDir = dir.resolve(name + "-connect");
    Path jsonDir = dir.resolve(name + "-json");
    Run connect =
        run(connectDir, policy, "connect", envelopes, staged, false, connectRecords, count, random);
    Run json = run(jsonDir, policy, "json", envelopes, staged, jsonKeys, rawRecords, count, random);
    LOG.info("{}: {} records written from rows staged from their JSON", name, json.staged);
    if (staged) {
      LOG.info(
          "{}: records read into staged rows, by type family of their schema: {}",
          name,
          stagedByFamily);
      // The envelope stream without keys is the one long enough to declare every type family.
      if (envelopes && !jsonKeys) {
        for (String family : FAMILIES) {
          assertTrue(
              stagedByFamily.getOrDefault(family, 0) > 0, name + ": none staged of " + family);
        }
      }
      // The staged path must carry most of them: the files' equality is then its evidence.
      // Schemaless objects of repeated shapes: all but the mutated, the reordered and the first of
      // each new shape.
      int least = envelopes ? count / 2 : count * 7 / 10;
      assertTrue(
          json.staged >= least, name + ": " + json.staged + " staged, " + least + " expected");
    }
    List<Map.Entry<long[], byte[]>> connectFiles = files(connectDir);
    List<Map.Entry<long[], byte[]>> jsonFiles = files(jsonDir);
    assertEquals(connectFiles.size(), jsonFiles.size(), name + ": the same number of files");
    for (int f = 0; f < connectFiles.size(); f++) {
      long[] c = connectFiles.get(f).getKey();
      long[] j = jsonFiles.get(f).getKey();
      String which = name + " file " + Arrays.toString(c) + " / " + Arrays.toString(j);
      assertArrayEquals(connectFiles.get(f).getValue(), jsonFiles.get(f).getValue(), which);
      // A file's name is its commit's offset range, which on the raw path also covers the
      // records JsonConverter refused at its edges (the connect path's task never saw them).
      for (long o = j[0]; o <= j[1]; o++) {
        if (o < c[0] || o > c[1]) {
          assertTrue(refused.contains(o), which + ": offset " + o + " only on the raw path");
        }
      }
      assertTrue(j[0] <= c[0] && c[1] <= j[1], which);
    }
    List<Long> expectedBad = new ArrayList<>(connect.deadLettered);
    expectedBad.addAll(refused);
    expectedBad.sort(null);
    assertEquals(expectedBad, json.deadLettered, name + ": bad records");
    Map<Long, String> connectErrors = connect.errors;
    for (Map.Entry<Long, String> e : connectErrors.entrySet()) {
      assertTrue(
          json.errors.get(e.getKey()).endsWith(e.getValue()),
          name
              + " offset "
              + e.getKey()
              + ": "
              + json.errors.get(e.getKey())
              + " vs "
              + e.getValue());
    }
    for (long offset : refused) {
      assertTrue(json.errors.get(offset).contains("the value"), json.errors.get(offset));
    }
    LOG.info(
        "{}: {} files equal byte for byte, {} bad records in both paths ({} ms in all)",
        name,
        connectFiles.size(),
        connect.deadLettered.size(),
        (System.nanoTime() - started) / 1_000_000);
    return count;
  }

  private static final List<String> FAMILIES =
      List.of(
          "string",
          "int8/int16",
          "int32/int64",
          "float32",
          "float64",
          "boolean",
          "bytes",
          "decimal",
          "decimal with precision",
          "date/time",
          "timestamp",
          "default",
          "nested struct",
          "array");

  /** Adds one to each type family the struct schema's leaves (at any depth) have. */
  private static void families(Schema struct, Map<String, Integer> counts) {
    java.util.Set<String> found = new java.util.TreeSet<>();
    families(struct, found);
    for (String family : found) {
      counts.merge(family, 1, Integer::sum);
    }
  }

  private static void families(Schema struct, java.util.Set<String> found) {
    for (Field f : struct.fields()) {
      Schema s = f.schema();
      if (s.defaultValue() != null) {
        found.add("default");
      }
      String logical = s.name() == null ? "" : s.name();
      String family =
          switch (logical) {
            case org.apache.kafka.connect.data.Decimal.LOGICAL_NAME ->
                s.parameters().containsKey("connect.decimal.precision")
                    ? "decimal with precision"
                    : "decimal";
            case org.apache.kafka.connect.data.Date.LOGICAL_NAME,
                org.apache.kafka.connect.data.Time.LOGICAL_NAME ->
                "date/time";
            case org.apache.kafka.connect.data.Timestamp.LOGICAL_NAME -> "timestamp";
            default ->
                switch (s.type()) {
                  case INT8, INT16 -> "int8/int16";
                  case INT32, INT64 -> "int32/int64";
                  case FLOAT32 -> "float32";
                  case FLOAT64 -> "float64";
                  case BOOLEAN -> "boolean";
                  case BYTES -> "bytes";
                  case STRING -> "string";
                  case STRUCT -> "nested struct";
                  default -> s.type().getName();
                };
          };
      found.add(family);
      if (s.type() == Schema.Type.STRUCT) {
        families(s, found);
      }
    }
  }

  /** The envelope with the payload's member {@code key} (if any) made null. */
  private static byte[] nullMember(byte[] doc, String key) {
    String text = new String(doc, StandardCharsets.UTF_8);
    int at = text.indexOf("\"payload\":");
    if (at < 0) {
      return doc;
    }
    String payload =
        text.substring(at)
            .replaceFirst(
                "\"" + key + "\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}\\]\\[{\"]+)",
                "\"" + key + "\":null");
    return (text.substring(0, at) + payload).getBytes(StandardCharsets.UTF_8);
  }

  private record Run(List<Long> deadLettered, Map<Long, String> errors, long staged) {}

  private static Run run(
      Path store,
      String policy,
      String format,
      boolean envelopes,
      boolean parts,
      boolean jsonKeys,
      List<SinkRecord> records,
      int count,
      Random random) {
    TopicPartition tp = new TopicPartition(TOPIC, 0);
    Map<String, String> props = new HashMap<>();
    props.put("name", "diff-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(count * 2));
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    props.put(ParquetSinkConfig.SCHEMALESS_TYPE_CONFLICT_CONFIG, policy);
    props.put(ParquetSinkConfig.SCHEMA_COMPATIBILITY_CONFIG, "BACKWARD");
    props.put(JsonInputConfig.INPUT_FORMAT_CONFIG, format);
    props.put(JsonInputConfig.INPUT_JSON_SCHEMAS_ENABLE_CONFIG, Boolean.toString(envelopes));
    if (parts) {
      props.put(ParquetSinkConfig.STORE_KAFKA_METADATA_CONFIG, "true");
      props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
      props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    }
    props.put(JsonInputConfig.INPUT_JSON_KEY_CONFIG, Boolean.toString(jsonKeys));
    try (SinkTaskHarness sink = new SinkTaskHarness(props, List.of(tp), true)) {
      // Commits by the schedule after every CHUNK offsets, at the same offsets in both paths.
      Random batches = new Random(7);
      int from = 0;
      while (from < records.size()) {
        long chunk = records.get(from).kafkaOffset() / CHUNK;
        int to = from;
        while (to < records.size() && records.get(to).kafkaOffset() / CHUNK == chunk) {
          to++;
        }
        sink.putInRandomBatches(records.subList(from, to), batches, 500);
        sink.commitOpenFiles(120_000);
        from = to;
      }
      assertEquals((long) count, sink.committed().get(tp), "every offset committed");
      List<Long> bad = new ArrayList<>();
      Map<Long, String> errors = new HashMap<>();
      List<SinkRecord> dead = sink.deadLettered();
      List<Throwable> why = sink.deadLetterErrors();
      for (int i = 0; i < dead.size(); i++) {
        bad.add(dead.get(i).kafkaOffset());
        errors.put(dead.get(i).kafkaOffset(), why.get(i).getMessage());
      }
      bad.sort(null);
      return new Run(bad, errors, sink.jsonRecordsStaged());
    }
  }

  /**
   * A key envelope of one of the shapes producers send most (a string, a number, a small flat
   * struct) in the run of one schema per few hundred offsets, now and then an odd one: a number
   * where a string is declared (JsonConverter's null), members out of order, a null key payload.
   */
  private static byte[] jsonKey(int offset, Random random) {
    String schema;
    String payload;
    switch (offset / 300 % 3) {
      case 0 -> {
        schema = "{\"type\":\"string\",\"optional\":true}";
        payload = random.nextInt(50) == 0 ? "7" : "\"k\u00e9" + offset % 7 + "\"";
      }
      case 1 -> {
        schema = "{\"type\":\"int64\",\"optional\":false}";
        payload = Long.toString(random.nextLong() >> random.nextInt(64));
      }
      default -> {
        schema =
            "{\"type\":\"struct\",\"fields\":[{\"field\":\"region\",\"type\":\"string\"},"
                + "{\"field\":\"shard\",\"type\":\"int32\",\"optional\":true}],"
                + "\"optional\":false,\"name\":\"Key\"}";
        payload =
            random.nextInt(50) == 0
                ? "{\"shard\":1,\"region\":\"r\"}"
                : "{\"region\":\"r"
                    + offset % 3
                    + "\",\"shard\":"
                    + (offset % 4 == 0 ? "null" : offset % 5)
                    + "}";
      }
    }
    if (offset / 300 % 3 == 0 && random.nextInt(100) == 0) {
      payload = "null"; // a null key of an optional schema
    }
    return ("{\"schema\":" + schema + ",\"payload\":" + payload + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A record with a key of {@code keySchema}; with a key schema, also a header or two (whether the
   * key decodes to null or not, so that both paths have the same headers).
   */
  private static SinkRecord record(
      long offset, Schema keySchema, Object key, Schema schema, Object value) {
    ConnectHeaders headers = new ConnectHeaders();
    if (keySchema != null) {
      headers.addString("h", "v" + offset % 3);
      if (offset % 2 == 0) {
        headers.addLong("n", offset);
      }
    }
    return new SinkRecord(
        TOPIC,
        0,
        keySchema,
        key,
        schema,
        value,
        offset,
        1_700_000_000_000L + offset,
        TimestampType.CREATE_TIME,
        headers);
  }

  /** The envelope with white space after the payload's ',' and ':' (its prefix unchanged). */
  private static byte[] spacedPayload(byte[] doc) {
    String text = new String(doc, StandardCharsets.UTF_8);
    int at = text.indexOf("\"payload\":");
    if (at < 0) {
      return doc;
    }
    at += "\"payload\":".length();
    String payload = text.substring(at).replace(",\"", ", \"").replace("\":", "\" :\n ");
    return (text.substring(0, at) + payload).getBytes(StandardCharsets.UTF_8);
  }

  /** The committed files by first offset: {first, last} offset of the commit, and the bytes. */
  private static List<Map.Entry<long[], byte[]>> files(Path root) throws Exception {
    TreeMap<Long, Map.Entry<long[], byte[]>> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String file = p.getFileName().toString();
        if (file.endsWith(".parquet")) {
          String[] parts = file.substring(0, file.length() - ".parquet".length()).split("\\+");
          long[] range = {Long.parseLong(parts[2]), Long.parseLong(parts[3])};
          out.put(range[0], Map.entry(range, Files.readAllBytes(p)));
        }
      }
    }
    return new ArrayList<>(out.values());
  }

  static byte[] mutate(byte[] doc, Random random) {
    if (doc.length == 0) {
      return new byte[] {(byte) random.nextInt(256)};
    }
    int at = random.nextInt(doc.length);
    return switch (random.nextInt(4)) {
      case 0 -> Arrays.copyOf(doc, at);
      case 1 -> {
        byte[] out = doc.clone();
        out[at] = (byte) MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
        yield out;
      }
      case 2 -> {
        byte[] out = new byte[doc.length + 1];
        System.arraycopy(doc, 0, out, 0, at);
        out[at] = (byte) random.nextInt(256);
        System.arraycopy(doc, at, out, at + 1, doc.length - at);
        yield out;
      }
      default -> {
        byte[] out = new byte[doc.length - 1];
        System.arraycopy(doc, 0, out, 0, at);
        System.arraycopy(doc, at + 1, out, at, doc.length - at - 1);
        yield out;
      }
    };
  }

  private static boolean validUtf8(byte[] doc) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(doc));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static String printable(byte[] doc) {
    StringBuilder out = new StringBuilder();
    for (byte b : doc) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F) {
        out.append((char) c);
      } else {
        out.append(String.format("\\x%02x", c));
      }
    }
    return out.toString();
  }

  static void assertSame(SchemaAndValue expected, SchemaAndValue actual, String what) {
    assertEquals(expected.schema(), actual.schema(), "schema of " + what);
    if (!deepEquals(expected.value(), actual.value())) {
      fail("value of " + what + ": " + expected.value() + " vs " + actual.value());
    }
  }

  static boolean deepEquals(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof ByteBuffer x && b instanceof byte[] y) {
      return x.equals(ByteBuffer.wrap(y));
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (!x.keySet().equals(y.keySet()) || !x.getClass().equals(y.getClass())) {
        return false;
      }
      for (Object k : x.keySet()) {
        if (!deepEquals(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Struct x && b instanceof Struct y) {
      if (!x.schema().equals(y.schema())) {
        return false;
      }
      for (Field f : x.schema().fields()) {
        if (!deepEquals(x.get(f), y.get(f))) {
          return false;
        }
      }
      return true;
    }
    return a.getClass().equals(b.getClass()) && a.equals(b);
  }
}
