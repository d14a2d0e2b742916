package dev.parquetconnect.bench.worker;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;

/**
 * The records {@code bin/bench worker} produces, each once per run, as the UTF-8 JSON text a
 * producer writes: every record carries a field {@code id} counting from 0, by which the read-back
 * checks that each record is there exactly once.
 *
 * <ul>
 *   <li>{@link #NESTED}: an order of ten fields, one of them a nested optional struct, in
 *       JsonConverter's {@code {"schema": ..., "payload": ...}} envelope (Timestamp logical type,
 *       optional fields with nulls).
 *   <li>{@link #SCHEMALESS}: the same orders as plain JSON objects (no schema; times as epoch
 *       milliseconds).
 *   <li>{@link #WIDE}: sixty required columns (longs, doubles, strings, booleans) in the envelope.
 * </ul>
 */
public enum BenchDataset implements WorkerBenchOptions.Named {
  NESTED(true) {
    @Override
    void appendPayload(StringBuilder json, long id, Random random) {
      appendOrder(json, id, random, true);
    }

    @Override
    String schemaJson() {
      return ORDER_SCHEMA;
    }
  },
  SCHEMALESS(false) {
    @Override
    void appendPayload(StringBuilder json, long id, Random random) {
      appendOrder(json, id, random, false);
    }

    @Override
    String schemaJson() {
      throw new UnsupportedOperationException("schemaless JSON has no schema");
    }
  },
  WIDE(true) {
    @Override
    void appendPayload(StringBuilder json, long id, Random random) {
      json.append("{\"id\":").append(id);
      for (int i = 1; i < WIDE_LONGS; i++) {
        json.append(",\"l").append(twoDigits(i)).append("\":").append(random.nextInt(1_000_000));
      }
      for (int i = 0; i < WIDE_DOUBLES; i++) {
        json.append(",\"d")
            .append(twoDigits(i))
            .append("\":")
            .append(Math.round(random.nextDouble() * 100_000) / 100.0);
      }
      for (int i = 0; i < WIDE_STRINGS; i++) {
        json.append(",\"s")
            .append(twoDigits(i))
            .append("\":\"")
            .append(WORDS[random.nextInt(WORDS.length)])
            .append('-')
            .append(random.nextInt(100 * (i + 1)))
            .append('"');
      }
      for (int i = 0; i < WIDE_BOOLEANS; i++) {
        json.append(",\"b").append(twoDigits(i)).append("\":").append(random.nextBoolean());
      }
      json.append('}');
    }

    @Override
    String schemaJson() {
      return WIDE_SCHEMA;
    }
  };

  private static final int WIDE_LONGS = 20;
  private static final int WIDE_DOUBLES = 20;
  private static final int WIDE_STRINGS = 10;
  private static final int WIDE_BOOLEANS = 10;

  private static final String[] COUNTRIES = {
    "DE", "FR", "US", "GB", "NL", "IT", "ES", "PL", "SE", "AT", "BE", "CH", "JP", "CA"
  };
  private static final String[] STATUSES = {"created", "paid", "paid", "shipped", "delivered"};
  private static final String[] CITIES = {
    "Berlin", "München", "Paris", "Lyon", "London", "Leeds", "Utrecht", "Kraków", "Malmö", "Wien"
  };
  private static final String[] WORDS = {
    "please", "leave", "at", "the", "door", "call", "before", "delivery", "ring", "twice"
  };

  /** The order's schema in JsonConverter's notation (see {@link #appendOrder}). */
  private static final String ORDER_SCHEMA =
      "{\"type\":\"struct\",\"name\":\"bench.Order\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"customer\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"country\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"status\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"amount\",\"type\":\"double\",\"optional\":false},"
          + "{\"field\":\"quantity\",\"type\":\"int32\",\"optional\":false},"
          + "{\"field\":\"paid\",\"type\":\"boolean\",\"optional\":false},"
          + "{\"field\":\"created_at\",\"type\":\"int64\",\"optional\":false,"
          + "\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"version\":1},"
          + "{\"field\":\"note\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"shipping\",\"type\":\"struct\",\"name\":\"bench.Address\","
          + "\"optional\":true,\"fields\":["
          + "{\"field\":\"street\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"city\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"zip\",\"type\":\"int32\",\"optional\":false}]}]}";

  private static final String WIDE_SCHEMA = wideSchema();

  private final boolean schemas;

  BenchDataset(boolean schemas) {
    this.schemas = schemas;
  }

  /**
   * Whether the records carry JsonConverter's schema envelope ({@code schemas.enable=true} for
   * JsonConverter, {@code input.json.schemas.enable=true} for {@code input.format=json}).
   */
  boolean schemas() {
    return schemas;
  }

  @Override
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The topic the dataset is produced to once per run. */
  String topic() {
    return "bench-" + cliName();
  }

  /** The value of the record with this {@code id}, the next one {@code random} gives. */
  byte[] value(long id, Random random, StringBuilder scratch) {
    scratch.setLength(0);
    if (schemas) {
      scratch.append("{\"schema\":").append(schemaJson()).append(",\"payload\":");
      appendPayload(scratch, id, random);
      scratch.append('}');
    } else {
      appendPayload(scratch, id, random);
    }
    return scratch.toString().getBytes(StandardCharsets.UTF_8);
  }

  abstract void appendPayload(StringBuilder json, long id, Random random);

  abstract String schemaJson();

  private static void appendOrder(StringBuilder json, long id, Random random, boolean schemas) {
    json.append("{\"id\":").append(id);
    json.append(",\"customer\":\"cust-")
        .append(Integer.toString(random.nextInt(60_000), 36))
        .append('"');
    json.append(",\"country\":\"").append(COUNTRIES[random.nextInt(COUNTRIES.length)]).append('"');
    json.append(",\"status\":\"").append(STATUSES[random.nextInt(STATUSES.length)]).append('"');
    json.append(",\"amount\":").append(Math.round(random.nextDouble() * 50_000) / 100.0);
    json.append(",\"quantity\":").append(1 + random.nextInt(9));
    json.append(",\"paid\":").append(random.nextBoolean());
    // JsonConverter reads a Timestamp as epoch milliseconds either way; only the schema names it.
    json.append(",\"created_at\":").append(1_795_000_000_000L + id * 37 + random.nextInt(20));
    json.append(",\"note\":");
    if (random.nextBoolean()) {
      json.append('"');
      for (int w = 2 + random.nextInt(4); w > 0; w--) {
        json.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      json.append(random.nextInt(1000)).append('"');
    } else {
      json.append("null");
    }
    if (random.nextInt(10) == 0) {
      // A schemaless record simply leaves the key out; the envelope's payload says null.
      if (schemas) {
        json.append(",\"shipping\":null");
      }
    } else {
      json.append(",\"shipping\":{\"street\":\"")
          .append(1 + random.nextInt(200))
          .append(" Main Street\",\"city\":\"")
          .append(CITIES[random.nextInt(CITIES.length)])
          .append("\",\"zip\":")
          .append(10_000 + random.nextInt(90_000))
          .append('}');
    }
    json.append('}');
  }

  private static String wideSchema() {
    StringBuilder schema =
        new StringBuilder(
            "{\"type\":\"struct\",\"name\":\"bench.Wide\",\"optional\":false,\"fields\":["
                + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false}");
    for (int i = 1; i < WIDE_LONGS; i++) {
      wideField(schema, "l" + twoDigits(i), "int64");
    }
    for (int i = 0; i < WIDE_DOUBLES; i++) {
      wideField(schema, "d" + twoDigits(i), "double");
    }
    for (int i = 0; i < WIDE_STRINGS; i++) {
      wideField(schema, "s" + twoDigits(i), "string");
    }
    for (int i = 0; i < WIDE_BOOLEANS; i++) {
      wideField(schema, "b" + twoDigits(i), "boolean");
    }
    return schema.append("]}").toString();
  }

  private static void wideField(StringBuilder schema, String name, String type) {
    schema
        .append(",{\"field\":\"")
        .append(name)
        .append("\",\"type\":\"")
        .append(type)
        .append("\",\"optional\":false}");
  }

  private static String twoDigits(int i) {
    return i < 10 ? "0" + i : Integer.toString(i);
  }
}
