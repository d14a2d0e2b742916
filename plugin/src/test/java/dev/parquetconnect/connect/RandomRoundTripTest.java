package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.write.WriterOptions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random Connect schemas, nested up to five levels (structs, arrays, maps with primitive and struct
 * keys, every logical type, optional fields, defaults, empty structs) and random values with nulls
 * anywhere they are allowed: written by us, each file read back equal by parquet-java, by our
 * reader and by DuckDB, and converted back to the same records.
 */
public class RandomRoundTripTest {
  private static final int SCHEMAS = 30;
  private static final int RECORDS = 40;

  @TempDir Path dir;

  @Test
  void randomSchemasAndValuesReadBackEqual() throws Exception {
    Random random = new Random(20240607);
    for (int round = 0; round < SCHEMAS; round++) {
      Generator g = new Generator(random);
      Schema value = g.struct(0, false, "Value" + round);
      Schema key = random.nextBoolean() ? g.schema(3, true) : null;
      MappingOptions options =
          new MappingOptions(
              random.nextBoolean(),
              key != null,
              random.nextBoolean(),
              random.nextBoolean() ? TimeUnit.MILLIS : TimeUnit.MICROS,
              random.nextBoolean(),
              random.nextBoolean());
      FileLayout layout = FileLayout.of(key, value, options);
      List<SinkRecord> records = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        Object v = options.tombstones() && random.nextInt(10) == 0 ? null : g.value(value);
        Object k = key == null ? null : g.value(key);
        records.add(ConnectTestData.record(key, k, value, v, i));
      }
      Path file = dir.resolve("random-" + round + ".parquet");
      WriterOptions writerOptions =
          WriterOptions.builder().pageRowLimit(1 + random.nextInt(16)).build();
      ConnectFiles.write(file, layout, records, writerOptions);
      ConnectFiles.assertReadBackEqual(file, layout, records);
    }
  }

  /** Random schemas and values of them (public: source.RandomReplayRoundTripTest uses it too). */
  public static final class Generator {
    private final Random random;
    private int names;

    public Generator(Random random) {
      this.random = random;
    }

    public Schema schema(int depth, boolean asKey) {
      int choice = random.nextInt(depth >= 4 ? 13 : 17);
      SchemaBuilder b =
          switch (choice) {
            case 0 -> SchemaBuilder.int8();
            case 1 -> SchemaBuilder.int16();
            case 2 -> SchemaBuilder.int32();
            case 3 -> SchemaBuilder.int64();
            case 4 -> SchemaBuilder.float32();
            case 5 -> SchemaBuilder.float64();
            case 6 -> SchemaBuilder.bool();
            case 7 -> SchemaBuilder.string();
            case 8 -> asKey ? SchemaBuilder.string() : SchemaBuilder.bytes();
            case 9 -> decimal();
            case 10 -> Date.builder();
            case 11 -> Time.builder();
            case 12 -> Timestamp.builder();
            case 13 -> SchemaBuilder.array(schema(depth + 1, false));
            case 14 ->
                SchemaBuilder.map(
                    random.nextInt(4) == 0
                        ? structBuilder(depth + 1, "Key").build()
                        : primitiveKey(),
                    schema(depth + 1, false));
            default -> structBuilder(depth + 1, "S");
          };
      if (random.nextInt(3) == 0) {
        b.optional();
      }
      if (!asKey && choice <= 12 && random.nextInt(6) == 0) {
        b.defaultValue(value(b.build()));
      }
      return b.build();
    }

    private Schema primitiveKey() {
      return switch (random.nextInt(5)) {
        case 0 -> Schema.INT32_SCHEMA;
        case 1 -> Schema.INT64_SCHEMA;
        case 2 -> Date.SCHEMA;
        case 3 -> ConnectTestData.decimal(2, 10);
        default -> Schema.STRING_SCHEMA;
      };
    }

    private SchemaBuilder decimal() {
      int scale = random.nextInt(9) - 2;
      SchemaBuilder b = org.apache.kafka.connect.data.Decimal.builder(scale);
      // Without a precision a decimal gets 38 digits, and a negative scale -s adds s more
      // (DecimalLayout), which DuckDB reads as a double: a negative scale gets a precision.
      if (random.nextInt(4) != 0 || scale < 0) {
        // DuckDB reads decimals of up to 38 digits as decimals.
        int precision = Math.max(1, scale) + random.nextInt(30);
        b.parameter(ConnectTypes.DECIMAL_PRECISION, Integer.toString(precision));
      }
      return b;
    }

    public Schema struct(int depth, boolean optional, String name) {
      SchemaBuilder b = structBuilder(depth, name);
      if (optional) {
        b.optional();
      }
      return b.build();
    }

    private SchemaBuilder structBuilder(int depth, String name) {
      SchemaBuilder b = SchemaBuilder.struct().name("com.example." + name + names++);
      int fields = depth == 0 ? 1 + random.nextInt(6) : random.nextInt(4);
      for (int i = 0; i < fields; i++) {
        b.field("f" + i, schema(depth, false));
      }
      return b;
    }

    /** A value of {@code schema}, null in a tenth of optional places. */
    public Object value(Schema schema) {
      if (schema.isOptional() && random.nextInt(10) == 0) {
        return null;
      }
      switch (ConnectTypes.kind(schema)) {
        case INT8:
          return (byte) random.nextInt();
        case INT16:
          return (short) random.nextInt();
        case INT32:
          return random.nextInt();
        case INT64:
          return random.nextLong();
        case FLOAT32:
          return random.nextInt(20) == 0 ? Float.NaN : random.nextFloat() * 1e6f - 5e5f;
        case FLOAT64:
          return random.nextInt(20) == 0 ? Double.NEGATIVE_INFINITY : random.nextGaussian();
        case BOOLEAN:
          return random.nextBoolean();
        case STRING:
          return randomText();
        case BYTES:
          {
            byte[] b = new byte[random.nextInt(6)];
            random.nextBytes(b);
            return b;
          }
        case DECIMAL:
          {
            DecimalLayout d = DecimalLayout.of(schema);
            int digits = 1 + random.nextInt(d.precision());
            BigInteger unscaled =
                new BigInteger(digits * 3, random).mod(BigInteger.TEN.pow(digits));
            if (random.nextBoolean()) {
              unscaled = unscaled.negate();
            }
            BigDecimal atParquetScale = new BigDecimal(unscaled, d.scale());
            return atParquetScale.setScale(d.connectScale(), java.math.RoundingMode.DOWN);
          }
        case DATE:
          return ConnectTestData.date(random.nextInt(200_000) - 100_000);
        case TIME:
          return new java.util.Date(random.nextInt(86_400_000));
        case TIMESTAMP:
          return new java.util.Date(random.nextLong() % 10_000_000_000_000L);
        case ARRAY:
          {
            List<Object> list = new ArrayList<>();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
              list.add(value(schema.valueSchema()));
            }
            return list;
          }
        case MAP:
          {
            Map<Object, Object> map = new LinkedHashMap<>();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
              map.put(value(schema.keySchema()), value(schema.valueSchema()));
            }
            map.remove(null);
            return map;
          }
        default:
          {
            Struct s = new Struct(schema);
            for (org.apache.kafka.connect.data.Field f : schema.fields()) {
              Object v = value(f.schema());
              if (v != null || f.schema().isOptional()) {
                s.put(f, v);
              }
            }
            return s;
          }
      }
    }

    private String randomText() {
      StringBuilder out = new StringBuilder();
      int n = random.nextInt(8);
      for (int i = 0; i < n; i++) {
        switch (random.nextInt(4)) {
          case 0 -> out.append((char) ('a' + random.nextInt(26)));
          case 1 -> out.append('\u00e9');
          case 2 -> out.appendCodePoint(0x1F600 + random.nextInt(20));
          default -> out.append((char) (0x4e00 + random.nextInt(100)));
        }
      }
      return out.toString();
    }
  }
}
