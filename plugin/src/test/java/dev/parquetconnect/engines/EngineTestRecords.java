package dev.parquetconnect.engines;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Seeded records of every Connect type, for the engine tests of the sink's output: integers of each
 * width at their extremes, FLOAT32 and FLOAT64 with NaN, -0.0, +0.0 and the infinities, decimals
 * (bounded, wide and unbounded), dates, times, timestamps, bytes, nulls at every level, arrays,
 * maps (string, int and struct keys) and structs three deep.
 */
final class EngineTestRecords {
  private static final float[] SPECIAL_FLOATS = {
    Float.NaN,
    -0.0f,
    0.0f,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.MIN_VALUE,
    -Float.MAX_VALUE,
    Float.MAX_VALUE,
    1.5f
  };
  private static final double[] SPECIAL_DOUBLES = {
    Double.NaN,
    -0.0,
    0.0,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MIN_VALUE,
    -Double.MAX_VALUE,
    Double.MAX_VALUE,
    0.1
  };

  static final Schema POINT =
      SchemaBuilder.struct()
          .name("Point")
          .field("x", Schema.INT32_SCHEMA)
          .field("label", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  static final Schema INNER =
      SchemaBuilder.struct()
          .name("Inner")
          .optional()
          .field("leaf", Schema.OPTIONAL_STRING_SCHEMA)
          .field("points", SchemaBuilder.array(POINT).optional().build())
          .field(
              "tags",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA)
                  .optional()
                  .build())
          .build();
  static final Schema OUTER =
      SchemaBuilder.struct()
          .name("Outer")
          .optional()
          .field("depth", Schema.INT8_SCHEMA)
          .field("inner", INNER)
          .field("when", Timestamp.builder().optional().build())
          .build();

  private EngineTestRecords() {}

  static Schema decimal(int scale, Integer precision, boolean optional) {
    SchemaBuilder b = Decimal.builder(scale);
    if (precision != null) {
      b.parameter("connect.decimal.precision", precision.toString());
    }
    return optional ? b.optional().build() : b.build();
  }

  /** The value schema; {@code withTime} adds Connect Time fields. */
  static Schema everyType(boolean withTime) {
    SchemaBuilder b =
        SchemaBuilder.struct()
            .name("EveryType")
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.INT16_SCHEMA)
            .field("i32", Schema.INT32_SCHEMA)
            .field("i64", Schema.INT64_SCHEMA)
            .field("f32", Schema.FLOAT32_SCHEMA)
            .field("f64", Schema.FLOAT64_SCHEMA)
            .field("bool", Schema.BOOLEAN_SCHEMA)
            .field("str", Schema.STRING_SCHEMA)
            .field("bytes", Schema.BYTES_SCHEMA)
            .field("dec9", decimal(2, 9, false))
            .field("dec18", decimal(4, 18, false))
            .field("dec30", decimal(6, 30, false))
            .field("dec_unbounded", decimal(3, null, true))
            .field("date", Date.SCHEMA)
            .field("ts", Timestamp.SCHEMA)
            .field("opt_i32", Schema.OPTIONAL_INT32_SCHEMA)
            .field("opt_i64", Schema.OPTIONAL_INT64_SCHEMA)
            .field("opt_f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("opt_f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("opt_bool", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("opt_str", Schema.OPTIONAL_STRING_SCHEMA)
            .field("opt_bytes", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("opt_dec", decimal(2, 9, true))
            .field("opt_date", Date.builder().optional().build())
            .field("opt_ts", Timestamp.builder().optional().build());
    if (withTime) {
      b.field("time", Time.SCHEMA).field("opt_time", Time.builder().optional().build());
    }
    return b.field("ints", SchemaBuilder.array(Schema.INT32_SCHEMA).build())
        .field("opt_strings", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
        .field("doubles", SchemaBuilder.array(Schema.OPTIONAL_FLOAT64_SCHEMA).optional().build())
        .field("string_map", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).build())
        .field(
            "int_map",
            SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
                .optional()
                .build())
        .field(
            "struct_key_map",
            SchemaBuilder.map(POINT, Schema.OPTIONAL_FLOAT64_SCHEMA).optional().build())
        .field("nested", OUTER)
        .field(
            "list_of_lists",
            SchemaBuilder.array(
                    SchemaBuilder.array(Schema.OPTIONAL_INT64_SCHEMA).optional().build())
                .optional()
                .build())
        .build();
  }

  static List<SinkRecord> everyType(
      String topic, int partitions, int count, boolean withTime, long seed) {
    Random random = new Random(seed);
    Schema schema = everyType(withTime);
    List<SinkRecord> out = new ArrayList<>();
    long[] offsets = new long[partitions];
    for (int i = 0; i < count; i++) {
      int partition = random.nextInt(partitions);
      Struct v =
          new Struct(schema)
              .put("i8", (byte) pick(random, Byte.MIN_VALUE, Byte.MAX_VALUE, random.nextInt()))
              .put("i16", (short) pick(random, Short.MIN_VALUE, Short.MAX_VALUE, random.nextInt()))
              .put(
                  "i32", (int) pick(random, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt()))
              .put("i64", pick(random, Long.MIN_VALUE, Long.MAX_VALUE, random.nextLong()))
              .put("f32", float32(random))
              .put("f64", float64(random))
              .put("bool", random.nextBoolean())
              .put("str", string(random))
              .put("bytes", bytes(random))
              .put(
                  "dec9",
                  new BigDecimal(
                      BigInteger.valueOf(random.nextInt(1_999_999_999) - 999_999_999L), 2))
              .put(
                  "dec18",
                  new BigDecimal(
                      BigInteger.valueOf(random.nextLong() % 999_999_999_999_999_999L), 4))
              .put(
                  "dec30",
                  new BigDecimal(
                      new BigInteger(96, random).subtract(BigInteger.ONE.shiftLeft(95)), 6))
              .put(
                  "dec_unbounded",
                  random.nextInt(5) == 0
                      ? null
                      : new BigDecimal(new BigInteger(1 + random.nextInt(100), random), 3))
              .put("date", new java.util.Date((random.nextInt(200_000) - 100_000) * 86_400_000L))
              .put("ts", new java.util.Date(timestampMillis(random)))
              .put("opt_i32", nullOr(random, random.nextInt()))
              .put("opt_i64", nullOr(random, random.nextLong()))
              .put("opt_f32", nullOr(random, float32(random)))
              .put("opt_f64", nullOr(random, float64(random)))
              .put("opt_bool", nullOr(random, random.nextBoolean()))
              .put("opt_str", nullOr(random, string(random)))
              .put("opt_bytes", nullOr(random, bytes(random)))
              .put(
                  "opt_dec",
                  nullOr(
                      random,
                      new BigDecimal(
                          BigInteger.valueOf(random.nextInt(1_999_999_999) - 999_999_999L), 2)))
              .put(
                  "opt_date",
                  nullOr(random, new java.util.Date(random.nextInt(30_000) * 86_400_000L)))
              .put(
                  "opt_ts",
                  nullOr(
                      random, new java.util.Date(random.nextInt() * 1000L + random.nextInt(1000))));
      if (withTime) {
        v.put("time", new java.util.Date(random.nextInt(86_400_000)));
        v.put("opt_time", nullOr(random, new java.util.Date(random.nextInt(86_400_000))));
      }
      List<Integer> ints = new ArrayList<>();
      for (int k = random.nextInt(4); k > 0; k--) {
        ints.add(random.nextInt());
      }
      v.put("ints", ints);
      v.put(
          "opt_strings",
          random.nextInt(4) == 0
              ? null
              : Arrays.asList(string(random), null, random.nextBoolean() ? "" : string(random)));
      v.put(
          "doubles",
          random.nextInt(4) == 0 ? null : Arrays.asList(float64(random), null, float64(random)));
      Map<String, Long> stringMap = new LinkedHashMap<>();
      for (int k = random.nextInt(4); k > 0; k--) {
        stringMap.put("k" + random.nextInt(10), random.nextLong());
      }
      v.put("string_map", stringMap);
      Map<Integer, String> intMap = new LinkedHashMap<>();
      intMap.put(random.nextInt(100), random.nextBoolean() ? null : string(random));
      v.put("int_map", random.nextInt(4) == 0 ? null : intMap);
      Map<Struct, Double> structKeys = new LinkedHashMap<>();
      structKeys.put(
          new Struct(POINT).put("x", random.nextInt(9)).put("label", "p"),
          random.nextBoolean() ? null : float64(random));
      v.put("struct_key_map", random.nextInt(4) == 0 ? null : structKeys);
      v.put("nested", random.nextInt(5) == 0 ? null : outer(random));
      v.put(
          "list_of_lists",
          random.nextInt(4) == 0
              ? null
              : Arrays.asList(Arrays.asList(random.nextLong(), null), null, List.of()));
      ConnectHeaders headers = new ConnectHeaders();
      headers.addString("source", "engine-test");
      headers.addInt("n", i);
      long offset = offsets[partition]++;
      out.add(
          new SinkRecord(
              topic,
              partition,
              Schema.OPTIONAL_STRING_SCHEMA,
              i % 7 == 0 ? null : "key-" + i,
              schema,
              v,
              offset,
              1_700_000_000_000L + i,
              TimestampType.CREATE_TIME,
              headers));
    }
    return out;
  }

  /**
   * Records of random distinct FLOAT32 and FLOAT64 values, enough of them that a FLOAT64 dictionary
   * passes the default 1 MiB and the writer falls back to its non-dictionary encoding: the case
   * lakes with real measurements hit.
   */
  static List<SinkRecord> manyDistinctFloats(String topic, int count, long seed) {
    Random random = new Random(seed);
    Schema schema =
        SchemaBuilder.struct()
            .name("Measurement")
            .field("id", Schema.INT64_SCHEMA)
            .field("f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .build();
    List<SinkRecord> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Struct v =
          new Struct(schema)
              .put("id", (long) i)
              .put("f32", i % 97 == 0 ? null : i % 89 == 0 ? Float.NaN : random.nextFloat() * 1e6f)
              .put(
                  "f64",
                  i % 97 == 0
                      ? null
                      : i % 89 == 0
                          ? Double.NaN
                          : i % 83 == 0 ? -0.0 : random.nextGaussian() * 1e9);
      out.add(new SinkRecord(topic, 0, null, null, schema, v, i));
    }
    return out;
  }

  private static Struct outer(Random random) {
    Struct inner =
        new Struct(INNER)
            .put("leaf", random.nextBoolean() ? null : string(random))
            .put(
                "points",
                random.nextInt(3) == 0
                    ? null
                    : List.of(
                        new Struct(POINT).put("x", random.nextInt()).put("label", null),
                        new Struct(POINT).put("x", 1).put("label", string(random))))
            .put("tags", random.nextInt(3) == 0 ? null : Map.of("a", 1L));
    return new Struct(OUTER)
        .put("depth", (byte) random.nextInt(100))
        .put("inner", random.nextInt(4) == 0 ? null : inner)
        .put("when", random.nextBoolean() ? null : new java.util.Date(random.nextInt() * 1000L));
  }

  /**
   * 1900 to 2300: Spark 3.5 refuses (READ_ANCIENT_DATETIME) timestamps before 1900 and dates before
   * 1582 from any writer but Spark unless spark.sql.parquet.datetimeRebaseModeInRead is set
   * (docs/compatibility.md).
   */
  static long timestampMillis(Random random) {
    long from = -2_208_988_800_000L;
    long to = 10_413_792_000_000L;
    return from + Math.floorMod(random.nextLong(), to - from);
  }

  private static long pick(Random random, long min, long max, long any) {
    int r = random.nextInt(10);
    return r == 0 ? min : r == 1 ? max : r == 2 ? 0 : any;
  }

  static float float32(Random random) {
    return random.nextInt(3) == 0
        ? SPECIAL_FLOATS[random.nextInt(SPECIAL_FLOATS.length)]
        : (random.nextFloat() - 0.5f) * 1e4f;
  }

  static double float64(Random random) {
    return random.nextInt(3) == 0
        ? SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)]
        : random.nextGaussian() * 1e6;
  }

  static String string(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> "";
      case 1 -> "ünïcødé \u20ac " + random.nextInt(100);
      case 2 -> "quote\" back\\slash\ttab";
      default -> "s" + random.nextInt(1000);
    };
  }

  static byte[] bytes(Random random) {
    byte[] b = new byte[random.nextInt(6)];
    random.nextBytes(b);
    return b;
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(4) == 0 ? null : value;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
