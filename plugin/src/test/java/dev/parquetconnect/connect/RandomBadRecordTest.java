package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.connect.RandomRoundTripTest.Generator;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link BadRecordTest} generalised: random Connect schemas ({@link RandomRoundTripTest}'s
 * generator) and good records interleaved with bad ones, each bad record an otherwise valid record
 * with ONE place deep inside its value or key corrupted after Connect validated it (a list, map or
 * struct changed after {@code put}, a required field never set, a leaf of the wrong class, a null
 * element of a list of required elements, a null map key, a decimal of the wrong scale or with too
 * many digits, a Date not at midnight, a Time outside the day, a timestamp that overflows in
 * microseconds, a nested struct of another schema, a header that is no value of its schema), at
 * random places: the record's last leaf, anywhere, and after a few good elements appended to a list
 * or map. Under random writer options (tiny pages by bytes and by rows, small row groups, page
 * versions, codecs, dictionaries) and mapping options (metadata, key, headers, tombstones,
 * timestamp unit):
 *
 * <ol>
 *   <li>every bad record is refused with a {@link DataException} whose message is exactly "topic T
 *       partition P offset N: field PATH: WHAT", PATH the corrupted place as the shredder names it
 *       ({@code a.b[2]{key}.c}, {@code m{key K}}, {@code __kafka_key...}, {@code
 *       __kafka_headers[i]});
 *   <li>a refused record leaves {@code recordCount()} as it was;
 *   <li>the file written with the refused records interleaved is byte for byte the file of the good
 *       records alone, written with the same options;
 *   <li>the good records read back equal (parquet-java, our reader, DuckDB).
 * </ol>
 *
 * <p>Where Connect's own API cannot put the bad value (a null in a required field, a value of the
 * wrong class or a Struct of another schema straight in a Struct field: {@code Struct.put}
 * validates), the test sets the Struct's slot by reflection, as a converter or transformation that
 * builds Structs without validating them would leave it; everywhere else it uses the public API
 * after validation (list {@code set}/{@code add}, map {@code put}, {@code Struct.put} of a value
 * Connect accepts, a Struct that was never validated).
 *
 * <p>Seeded: a failure names its round and seed; {@code -Drandombad.seed=S -Drandombad.rounds=1}
 * replays one round.
 */
class RandomBadRecordTest {
  private static final Logger LOG = LoggerFactory.getLogger(RandomBadRecordTest.class);

  private static final int ROUNDS = Integer.getInteger("randombad.rounds", 150);
  private static final long SEED = Long.getLong("randombad.seed", 20261121L);
  private static final int GOOD_RECORDS = 20;
  private static final String WHERE_PREFIX =
      "topic " + ConnectTestData.TOPIC + " partition " + ConnectTestData.PARTITION + " offset ";
  private static final Schema WRONG_SCHEMA =
      SchemaBuilder.struct().name("com.example.Wrong").field("x", Schema.INT32_SCHEMA).build();
  private static final java.lang.reflect.Field STRUCT_VALUES;

  static {
    try {
      STRUCT_VALUES = Struct.class.getDeclaredField("values");
      STRUCT_VALUES.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @TempDir Path dir;

  /** How often each kind of corruption and each way of planting it ran, for the log. */
  private final Map<String, Integer> tally = new TreeMap<>();

  /** The round's layout and options, for a failure's message. */
  private String context = "";

  @Test
  void oneBadPlaceAnywhereInARecordIsRefusedByNameAndLeavesTheFileAsTheGoodRecordsAlone()
      throws Exception {
    Random seeds = new Random(SEED);
    int rounds = ROUNDS;
    for (int round = 0; round < rounds; round++) {
      long seed =
          rounds == 1 && System.getProperty("randombad.seed") != null ? SEED : seeds.nextLong();
      try {
        runRound(round, seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "round "
                + round
                + " (-Drandombad.seed="
                + seed
                + " -Drandombad.rounds=1): "
                + e
                + "\n"
                + context,
            e);
      }
    }
    LOG.info("RandomBadRecordTest: {}", tally);
  }

  private void runRound(int round, long seed) throws Exception {
    Random random = new Random(seed);
    Generator g = new Generator(random);
    // A struct value (its fields top-level columns) mostly; else any other type (one column).
    Schema valueSchema =
        random.nextInt(4) != 0 ? g.struct(0, false, "Value" + round) : nonStruct(g);
    Schema keySchema = random.nextBoolean() ? g.schema(3, true) : null;
    MappingOptions options =
        new MappingOptions(
            random.nextBoolean(),
            keySchema != null,
            random.nextBoolean(),
            random.nextBoolean() ? TimeUnit.MILLIS : TimeUnit.MICROS,
            random.nextBoolean());
    FileLayout layout = FileLayout.of(keySchema, valueSchema, options);
    StringBuilder chosen = new StringBuilder();
    WriterOptions writerOptions = writerOptions(random, layout, chosen);
    context = options + "\nwriter options:" + chosen + "\n" + layout.parquetSchema();
    Corrupter corrupter = new Corrupter(random, g, options, valueSchema, keySchema);

    Path mixed = dir.resolve("mixed-" + round + ".parquet");
    List<SinkRecord> written = new ArrayList<>();
    boolean endWithBad = random.nextBoolean();
    long offset = 0;
    try (OutputStream out = Files.newOutputStream(mixed);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, writerOptions)) {
      for (int i = 0; i < GOOD_RECORDS || endWithBad && i == GOOD_RECORDS; i++) {
        int bad = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(random.nextInt(4) == 0 ? 4 : 1);
        if (i == GOOD_RECORDS) {
          bad = Math.max(bad, 1);
        }
        for (int b = 0; b < bad; b++) {
          Bad badRecord = corrupter.badRecord(offset++);
          long before = writer.recordCount();
          DataException e =
              assertThrows(
                  DataException.class,
                  () -> writer.write(badRecord.record()),
                  badRecord.expected());
          assertEquals(badRecord.expected(), e.getMessage(), "the bad record's message");
          assertEquals(before, writer.recordCount(), "the refused record left a row");
          assertEquals(written.size(), writer.recordCount());
        }
        if (i == GOOD_RECORDS) {
          break; // ends with refused records
        }
        Object v =
            options.tombstones() && random.nextInt(10) == 0
                ? null
                : inOtherForms(random, g.value(valueSchema), valueSchema);
        Object k = keySchema == null ? null : inOtherForms(random, g.value(keySchema), keySchema);
        SinkRecord ok = ConnectTestData.record(keySchema, k, valueSchema, v, offset++);
        writer.write(ok);
        written.add(ok);
        assertEquals(written.size(), writer.recordCount());
      }
    }

    Path goodOnly = dir.resolve("good-" + round + ".parquet");
    ConnectFiles.write(goodOnly, layout, written, writerOptions);
    assertArrayEquals(
        Files.readAllBytes(goodOnly),
        Files.readAllBytes(mixed),
        "the file with refused records is not the file of the good ones alone");
    ConnectFiles.assertReadBackEqual(mixed, layout, written);
  }

  private static Schema nonStruct(Generator g) {
    while (true) {
      Schema s = g.schema(1, false);
      if (s.type() != Schema.Type.STRUCT) {
        return s;
      }
    }
  }

  /**
   * {@code value}, in a third of the calls in other Java forms Connect allows (outside map keys):
   * lists as LinkedLists, which the shredder walks by iterator rather than by index, and byte
   * arrays as ByteBuffers (a slice of a larger heap array, or a direct buffer).
   */
  private static Object inOtherForms(Random random, Object value, Schema schema) {
    return random.nextInt(3) == 0 ? varied(random, value, schema) : value;
  }

  private static Object varied(Random random, Object value, Schema schema) {
    if (value == null) {
      return null;
    }
    switch (ConnectTypes.kind(schema)) {
      case STRUCT -> {
        Struct struct = (Struct) value;
        for (Field f : schema.fields()) {
          Object v = struct.getWithoutDefault(f.name());
          if (v != null) {
            struct.put(f, varied(random, v, f.schema()));
          }
        }
        return struct;
      }
      case ARRAY -> {
        List<Object> out = new LinkedList<>();
        for (Object e : (List<?>) value) {
          out.add(varied(random, e, schema.valueSchema()));
        }
        return out;
      }
      case MAP -> {
        @SuppressWarnings("unchecked")
        Map<Object, Object> map = (Map<Object, Object>) value;
        map.replaceAll((k, v) -> varied(random, v, schema.valueSchema()));
        return map;
      }
      case BYTES -> {
        byte[] bytes = (byte[]) value;
        if (random.nextBoolean()) {
          byte[] larger = new byte[bytes.length + 3];
          System.arraycopy(bytes, 0, larger, 2, bytes.length);
          return ByteBuffer.wrap(larger, 1, bytes.length + 1).slice().position(1);
        }
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
      }
      default -> {
        return value;
      }
    }
  }

  /** Random writer options, described into {@code chosen}. */
  private static WriterOptions writerOptions(
      Random random, FileLayout layout, StringBuilder chosen) {
    WriterOptions.Builder b = WriterOptions.builder();
    if (random.nextInt(3) == 0) {
      int limit = 1 + random.nextInt(64);
      b.dictionaryByteLimit(limit); // dictionaries fall back part way
      chosen.append(" dictionaryByteLimit=").append(limit);
    }
    if (random.nextInt(3) == 0) {
      var columns =
          layout.parquetSchema().columns().stream()
              .filter(c -> c.primitive().type() != PhysicalType.BOOLEAN)
              .toList();
      if (!columns.isEmpty()) {
        String column = columns.get(random.nextInt(columns.size())).dottedPath();
        b.bloomFilter(column, 100, 0.01);
        chosen.append(" bloomFilter=").append(column);
      }
    }
    int pageBytes =
        switch (random.nextInt(4)) {
          case 0 -> 64;
          case 1 -> 16 + random.nextInt(400);
          case 2 -> 1 + random.nextInt(64);
          default -> 0; // the default, 1 MiB
        };
    if (pageBytes > 0) {
      b.pageByteLimit(pageBytes);
      chosen.append(" pageByteLimit=").append(pageBytes);
    }
    if (random.nextBoolean()) {
      int rows = 1 + random.nextInt(8);
      b.pageRowLimit(rows);
      chosen.append(" pageRowLimit=").append(rows);
    }
    if (random.nextInt(3) == 0) {
      int rows = 1 + random.nextInt(12);
      b.rowGroupRowLimit(rows);
      chosen.append(" rowGroupRowLimit=").append(rows);
    }
    if (random.nextBoolean()) {
      b.pageVersion(PageVersion.V2);
      chosen.append(" V2");
    }
    if (random.nextInt(4) == 0) {
      b.dictionary(false);
      chosen.append(" dictionary=false");
    }
    CompressionCodec codec =
        switch (random.nextInt(4)) {
          case 0 -> CompressionCodec.SNAPPY;
          case 1 -> CompressionCodec.ZSTD;
          case 2 -> CompressionCodec.GZIP;
          default -> CompressionCodec.UNCOMPRESSED;
        };
    b.codec(codec);
    chosen.append(' ').append(codec);
    return b.build();
  }

  /** A bad record and the exact message it must be refused with. */
  private record Bad(SinkRecord record, String expected) {}

  // ---- places in a value: steps from the root

  private sealed interface Step
      permits FieldStep,
          ElementStep,
          KeyStep,
          EntryValueStep,
          AppendElement,
          AppendKey,
          AppendValue {}

  private record FieldStep(Field field) implements Step {}

  private record ElementStep(int index) implements Step {}

  /** The key of a map's {@code index}-th entry (iteration order). */
  private record KeyStep(int index) implements Step {}

  /** The value of a map's {@code index}-th entry. */
  private record EntryValueStep(int index) implements Step {}

  /** A new element after a few good ones appended to a list. */
  private record AppendElement() implements Step {}

  /** A new entry, after a few good ones, whose key is the bad value. */
  private record AppendKey() implements Step {}

  /** A new entry, after a few good ones, whose value is the bad value. */
  private record AppendValue() implements Step {}

  /**
   * A place a value can be put, of {@code schema}; in the key when {@code inKey} (no steps: the key
   * itself).
   */
  private record Place(boolean inKey, List<Step> steps, Schema schema) {
    Step last() {
      return steps.get(steps.size() - 1);
    }

    boolean inRepeated() {
      return steps.stream().anyMatch(s -> !(s instanceof FieldStep));
    }

    boolean appends() {
      return !steps.isEmpty()
          && (last() instanceof AppendElement
              || last() instanceof AppendKey
              || last() instanceof AppendValue);
    }
  }

  /** A bad value, what the shredder says of it, and a field below it that it names. */
  private record Corruption(String kind, Object bad, String what, String below) {}

  /** Makes bad records of one layout. */
  private final class Corrupter {
    private final Random random;
    private final Generator g;
    private final MappingOptions options;
    private final Schema valueSchema;
    private final Schema keySchema;

    Corrupter(
        Random random, Generator g, MappingOptions options, Schema valueSchema, Schema keySchema) {
      this.random = random;
      this.g = g;
      this.options = options;
      this.valueSchema = valueSchema;
      this.keySchema = keySchema;
    }

    Bad badRecord(long offset) {
      if (options.kafkaHeaders() && random.nextInt(15) == 0) {
        return badHeader(offset);
      }
      boolean tombstone = keySchema != null && options.tombstones() && random.nextInt(8) == 0;
      Object[] value = {tombstone ? null : inOtherForms(random, g.value(valueSchema), valueSchema)};
      Object[] key = {
        keySchema == null ? null : inOtherForms(random, g.value(keySchema), keySchema)
      };
      List<Place> valuePlaces = new ArrayList<>();
      if (valueSchema.type() != Schema.Type.STRUCT && !tombstone) {
        // The value itself (a struct value is checked before any column sees it).
        valuePlaces.add(new Place(false, List.of(), valueSchema));
      }
      if (value[0] != null) {
        walk(value[0], valueSchema, false, List.of(), valuePlaces);
      }
      List<Place> keyPlaces = new ArrayList<>();
      if (keySchema != null) {
        keyPlaces.add(new Place(true, List.of(), keySchema));
        walk(key[0], keySchema, true, List.of(), keyPlaces);
      }
      Place place;
      int pick = random.nextInt(8);
      if (pick < 2 && !valuePlaces.isEmpty()) {
        place = lastLeaf(valuePlaces); // the value's last leaf
      } else if (pick == 2 && !keyPlaces.isEmpty()) {
        place = lastLeaf(keyPlaces); // the record's last leaf
      } else {
        List<Place> all = new ArrayList<>(valuePlaces);
        all.addAll(keyPlaces);
        List<Place> repeated = all.stream().filter(Place::inRepeated).toList();
        // Half of the rest inside a list or map, where a column holds several entries of the
        // record when the bad value comes.
        List<Place> from = pick < 5 && !repeated.isEmpty() ? repeated : all;
        place = from.get(random.nextInt(from.size()));
      }
      Corruption c = corruption(place);
      List<Step> resolved = plant(place.inKey() ? key : value, place, c.bad());
      String path =
          path(place.inKey(), place.inKey() ? key[0] : value[0], resolved)
              + (c.below() == null ? "" : "." + c.below());
      tally.merge(c.kind(), 1, Integer::sum);
      SinkRecord record = ConnectTestData.record(keySchema, key[0], valueSchema, value[0], offset);
      return new Bad(record, WHERE_PREFIX + offset + ": field " + path + ": " + c.what());
    }

    /** A record whose headers hold, at a random position, one that is no value of its schema. */
    private Bad badHeader(long offset) {
      SinkRecord good =
          ConnectTestData.record(
              keySchema,
              keySchema == null ? null : g.value(keySchema),
              valueSchema,
              g.value(valueSchema),
              offset);
      List<Header> headers = new ArrayList<>();
      good.headers().forEach(headers::add);
      int at = random.nextInt(headers.size() + 1);
      headers.add(at, new BadRecordTest.BadHeader());
      tally.merge("bad header", 1, Integer::sum);
      SinkRecord record =
          new SinkRecord(
              good.topic(),
              good.kafkaPartition(),
              good.keySchema(),
              good.key(),
              good.valueSchema(),
              good.value(),
              offset,
              good.timestamp(),
              good.timestampType(),
              headers);
      return new Bad(
          record,
          WHERE_PREFIX
              + offset
              + ": field __kafka_headers["
              + at
              + "]: header h: a java.lang.String is no value of int32");
    }

    /** The last place that is not an append (in the write order: depth first). */
    private Place lastLeaf(List<Place> places) {
      for (int i = places.size() - 1; ; i--) {
        if (!places.get(i).appends()) {
          return places.get(i);
        }
      }
    }

    /** Every place beneath {@code v} (of schema {@code s}), depth first in the write order. */
    private void walk(Object v, Schema s, boolean inKey, List<Step> steps, List<Place> out) {
      if (v == null) {
        return;
      }
      switch (ConnectTypes.kind(s)) {
        case STRUCT -> {
          Struct struct = (Struct) v;
          for (Field f : s.fields()) {
            List<Step> at = with(steps, new FieldStep(f));
            out.add(new Place(inKey, at, f.schema()));
            walk(struct.get(f), f.schema(), inKey, at, out);
          }
        }
        case ARRAY -> {
          List<?> list = (List<?>) v;
          for (int i = 0; i < list.size(); i++) {
            List<Step> at = with(steps, new ElementStep(i));
            out.add(new Place(inKey, at, s.valueSchema()));
            walk(list.get(i), s.valueSchema(), inKey, at, out);
          }
          out.add(new Place(inKey, with(steps, new AppendElement()), s.valueSchema()));
        }
        case MAP -> {
          int i = 0;
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            List<Step> atKey = with(steps, new KeyStep(i));
            out.add(new Place(inKey, atKey, s.keySchema()));
            walk(e.getKey(), s.keySchema(), inKey, atKey, out);
            List<Step> atValue = with(steps, new EntryValueStep(i));
            out.add(new Place(inKey, atValue, s.valueSchema()));
            walk(e.getValue(), s.valueSchema(), inKey, atValue, out);
            i++;
          }
          out.add(new Place(inKey, with(steps, new AppendKey()), s.keySchema()));
          out.add(new Place(inKey, with(steps, new AppendValue()), s.valueSchema()));
        }
        default -> {}
      }
    }

    /** A random corruption that makes a value of {@code place} bad. */
    private Corruption corruption(Place place) {
      Schema s = place.schema();
      List<Corruption> choices = new ArrayList<>();
      // A null key is no error, a null value a tombstone: refused, if at all, by the record.
      boolean root = place.steps().isEmpty();
      if (!root && !s.isOptional() && s.defaultValue() == null) {
        choices.add(new Corruption(nullKind(place), null, "null in a required field", null));
      }
      ConnectTypes.Kind kind = ConnectTypes.kind(s);
      Object wrong = kind == ConnectTypes.Kind.STRING ? (Object) 7 : "oops";
      String expected =
          switch (kind) {
            case ARRAY -> "a List";
            case MAP -> "a Map";
            default -> ConnectTypes.describe(s);
          };
      choices.add(
          new Corruption(
              "wrong class " + kind,
              wrong,
              "expected " + expected + ", got a " + wrong.getClass().getName(),
              null));
      switch (kind) {
        case STRUCT -> {
          choices.add(
              new Corruption(
                  "struct of another schema",
                  new Struct(WRONG_SCHEMA).put("x", 1),
                  "a Struct of schema "
                      + ConnectTypes.describe(WRONG_SCHEMA)
                      + " where the file has "
                      + ConnectTypes.describe(s),
                  null));
          List<Field> required =
              s.fields().stream()
                  .filter(f -> !f.schema().isOptional() && f.schema().defaultValue() == null)
                  .toList();
          if (!required.isEmpty()) {
            Field unset = required.get(random.nextInt(required.size()));
            Struct struct = new Struct(s);
            for (Field f : s.fields()) {
              if (f != unset) {
                struct.put(f, g.value(f.schema()));
              }
            }
            choices.add(
                new Corruption(
                    "required field never set", struct, "null in a required field", unset.name()));
          }
        }
        case DECIMAL -> {
          DecimalLayout d = DecimalLayout.of(s);
          BigDecimal scale =
              new BigDecimal(
                  BigInteger.valueOf(10L * random.nextInt(1000) + 1 + random.nextInt(9)),
                  d.scale() + 1);
          choices.add(
              new Corruption(
                  "decimal scale",
                  scale,
                  "decimal "
                      + scale.toPlainString()
                      + " has scale "
                      + scale.scale()
                      + ", the column "
                      + d.scale(),
                  null));
          BigInteger big =
              BigInteger.TEN
                  .pow(d.precision()) // precision + 1 digits
                  .add(BigInteger.valueOf(random.nextInt(10)));
          BigDecimal digits = new BigDecimal(random.nextBoolean() ? big : big.negate(), d.scale());
          choices.add(
              new Corruption(
                  "decimal digits",
                  digits,
                  "decimal "
                      + digits.toPlainString()
                      + " has "
                      + (d.precision() + 1)
                      + " digits, the column holds "
                      + d.precision(),
                  null));
        }
        case DATE -> {
          long millis =
              (random.nextInt(200_000) - 100_000) * 86_400_000L + 1 + random.nextInt(86_399_999);
          choices.add(
              new Corruption(
                  "date not midnight",
                  new java.util.Date(millis),
                  "a Date must be midnight UTC, got epoch millisecond " + millis,
                  null));
        }
        case TIME -> {
          long millis =
              random.nextBoolean() ? -1 - random.nextInt(1000) : 86_400_000L + random.nextInt(1000);
          choices.add(
              new Corruption(
                  "time outside the day",
                  new java.util.Date(millis),
                  "a Time must be within one day, got millisecond " + millis,
                  null));
        }
        case TIMESTAMP -> {
          if (options.timestampUnit() == TimeUnit.MICROS) {
            long millis =
                random.nextBoolean()
                    ? Long.MAX_VALUE / 1000 + 1 + random.nextInt(1000)
                    : Long.MIN_VALUE / 1000 - 1 - random.nextInt(1000);
            choices.add(
                new Corruption(
                    "timestamp overflow",
                    new java.util.Date(millis),
                    "the Timestamp " + millis + " overflows in microseconds",
                    null));
          }
        }
        default -> {}
      }
      return choices.get(random.nextInt(choices.size()));
    }

    private String nullKind(Place place) {
      Step last = place.last();
      return last instanceof ElementStep || last instanceof AppendElement
          ? "null list element"
          : last instanceof KeyStep || last instanceof AppendKey
              ? "null map key"
              : last instanceof FieldStep ? "null in a required struct field" : "null map value";
    }

    /**
     * Puts {@code bad} at {@code place} of {@code root[0]}; returns the place's steps with an
     * append resolved to the element or entry it added.
     */
    private List<Step> plant(Object[] root, Place place, Object bad) {
      List<Step> steps = place.steps();
      if (steps.isEmpty()) {
        root[0] = bad;
        tally.merge("planted as the key or value itself", 1, Integer::sum);
        return steps;
      }
      Object parent = root[0];
      for (Step s : steps.subList(0, steps.size() - 1)) {
        parent = child(parent, s);
      }
      Step last = place.last();
      Step resolved = last;
      if (last instanceof FieldStep f) {
        Struct struct = (Struct) parent;
        try {
          struct.put(f.field(), bad); // Connect takes bad decimals, dates, times, timestamps
          tally.merge("planted by Struct.put", 1, Integer::sum);
        } catch (DataException refused) {
          setUnvalidated(struct, f.field(), bad);
          tally.merge("planted in a Struct by reflection", 1, Integer::sum);
        }
      } else if (last instanceof ElementStep e) {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) parent;
        list.set(e.index(), bad);
        tally.merge("planted by List.set", 1, Integer::sum);
      } else if (last instanceof AppendElement) {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) parent;
        Schema es = place.schema();
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
          list.add(goodValue(es));
        }
        list.add(bad);
        resolved = new ElementStep(list.size() - 1);
        tally.merge("planted by List.add after good elements", 1, Integer::sum);
      } else {
        @SuppressWarnings("unchecked")
        Map<Object, Object> map = (Map<Object, Object>) parent;
        if (last instanceof EntryValueStep e) {
          map.put(entry(map, e.index()).getKey(), bad); // keeps the entry's position
          tally.merge("planted by Map.put", 1, Integer::sum);
        } else if (last instanceof KeyStep k) {
          // A key replaced in place: the entries again in their order.
          List<Map.Entry<Object, Object>> entries = new ArrayList<>();
          for (Map.Entry<Object, Object> e : map.entrySet()) {
            entries.add(
                Map.entry(
                    Objects.requireNonNullElse(e.getKey(), NULL),
                    Objects.requireNonNullElse(e.getValue(), NULL)));
          }
          map.clear();
          for (int i = 0; i < entries.size(); i++) {
            Object value = unwrap(entries.get(i).getValue());
            map.put(i == k.index() ? bad : unwrap(entries.get(i).getKey()), value);
          }
          if (map.size() != entries.size()) {
            throw new IllegalStateException("the bad key equals another");
          }
          tally.merge("planted by rebuilding a Map", 1, Integer::sum);
        } else {
          Schema mapSchema = mapSchemaOf(place);
          for (int n = 1 + random.nextInt(4); n > 0; n--) {
            Object k = g.value(mapSchema.keySchema());
            if (k != null) {
              map.put(k, goodValue(mapSchema.valueSchema()));
            }
          }
          if (last instanceof AppendKey) {
            map.put(bad, goodValue(mapSchema.valueSchema()));
            resolved = new KeyStep(indexOf(map, bad));
          } else {
            Object k;
            do {
              k = g.value(mapSchema.keySchema());
            } while (k == null);
            map.put(k, bad);
            resolved = new EntryValueStep(indexOf(map, k));
          }
          tally.merge("planted by Map.put after good entries", 1, Integer::sum);
        }
      }
      List<Step> out = new ArrayList<>(steps.subList(0, steps.size() - 1));
      out.add(resolved);
      return out;
    }

    /** The schema of the map a place appends to: from the root's schema along its steps. */
    private Schema mapSchemaOf(Place place) {
      Schema s = place.inKey() ? keySchema : valueSchema;
      for (Step step : place.steps().subList(0, place.steps().size() - 1)) {
        if (step instanceof FieldStep f) {
          s = f.field().schema();
        } else if (step instanceof KeyStep) {
          s = s.keySchema();
        } else {
          s = s.valueSchema(); // an element or an entry's value
        }
      }
      return s;
    }

    /** A valid value; a null only where the schema allows one without a default. */
    private Object goodValue(Schema s) {
      return g.value(s);
    }
  }

  private static final Object NULL = new Object();

  private static Object unwrap(Object o) {
    return o == NULL ? null : o;
  }

  private static void setUnvalidated(Struct struct, Field field, Object value) {
    try {
      ((Object[]) STRUCT_VALUES.get(struct))[field.index()] = value;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object child(Object parent, Step step) {
    if (step instanceof FieldStep f) {
      return ((Struct) parent).get(f.field());
    } else if (step instanceof ElementStep e) {
      return ((List<?>) parent).get(e.index());
    } else if (step instanceof KeyStep k) {
      return entry((Map<?, ?>) parent, k.index()).getKey();
    } else if (step instanceof EntryValueStep v) {
      return entry((Map<?, ?>) parent, v.index()).getValue();
    }
    throw new IllegalStateException("an append is the last step");
  }

  private static <K, V> Map.Entry<K, V> entry(Map<K, V> map, int index) {
    Iterator<Map.Entry<K, V>> it = map.entrySet().iterator();
    for (int i = 0; i < index; i++) {
      it.next();
    }
    return it.next();
  }

  private static int indexOf(Map<?, ?> map, Object key) {
    int i = 0;
    for (Object k : map.keySet()) {
      if (Objects.equals(k, key)) {
        return i;
      }
      i++;
    }
    throw new IllegalStateException("no key " + key);
  }

  /**
   * The place's name as the shredder builds it: struct fields joined by dots, {@code [i]} for a
   * list element, {@code {K}} for the value of key K and {@code {key K}} for the key itself (K as
   * {@code String.valueOf} prints it), under {@code __kafka_key} for the key; computed after the
   * corruption, which may change a key's text.
   */
  private static String path(boolean inKey, Object root, List<Step> steps) {
    StringBuilder out =
        new StringBuilder(
            inKey ? FileLayout.KEY_COLUMN : root instanceof Struct ? "" : FileLayout.VALUE_COLUMN);
    Object at = root;
    for (Step step : steps) {
      if (step instanceof FieldStep f) {
        if (!out.isEmpty()) {
          out.append('.');
        }
        out.append(f.field().name());
      } else if (step instanceof ElementStep e) {
        out.append('[').append(e.index()).append(']');
      } else if (step instanceof KeyStep k) {
        out.append("{key ").append(entry((Map<?, ?>) at, k.index()).getKey()).append('}');
      } else if (step instanceof EntryValueStep v) {
        out.append('{').append(entry((Map<?, ?>) at, v.index()).getKey()).append('}');
      } else {
        throw new IllegalStateException("unresolved " + step);
      }
      at = child(at, step);
    }
    return out.toString();
  }

  private static <T> List<T> with(List<T> list, T next) {
    List<T> out = new ArrayList<>(list);
    out.add(next);
    return List.copyOf(out);
  }
}
