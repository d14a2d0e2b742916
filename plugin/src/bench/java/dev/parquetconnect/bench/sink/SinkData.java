package dev.parquetconnect.bench.sink;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The sink benchmark's records: orders of a web shop as an Avro or Protobuf converter would hand
 * them to a sink (a string key, a nested struct value), one topic partition, offsets from 0. Fixed
 * seed, so every fork builds the same records.
 *
 * <p>The value mixes what real topics carry: an id counting up, strings of high (customer, note),
 * middle (city, sku) and low cardinality (country, status, currency), ints, longs, a double, a
 * boolean, optional fields with 10-80% nulls, a decimal with the precision parameter converters
 * set, a Timestamp, a nested optional struct, an array of strings, an array of structs and a map of
 * strings.
 */
public final class SinkData {
  public static final String TOPIC = "orders";

  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("shop.Address")
          .optional()
          .field("street", Schema.STRING_SCHEMA)
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.INT32_SCHEMA)
          .build();
  static final Schema ITEM =
      SchemaBuilder.struct()
          .name("shop.Item")
          .field("sku", Schema.STRING_SCHEMA)
          .field("quantity", Schema.INT32_SCHEMA)
          .field("unit_price", Schema.FLOAT64_SCHEMA)
          .build();
  static final Schema AMOUNT =
      Decimal.builder(2).parameter("connect.decimal.precision", "12").build();
  public static final Schema VALUE =
      SchemaBuilder.struct()
          .name("shop.Order")
          .field("order_id", Schema.INT64_SCHEMA)
          .field("customer_id", Schema.STRING_SCHEMA)
          .field("country", Schema.STRING_SCHEMA)
          .field("status", Schema.STRING_SCHEMA)
          .field("currency", Schema.STRING_SCHEMA)
          .field("item_count", Schema.INT32_SCHEMA)
          .field("total", Schema.FLOAT64_SCHEMA)
          .field("amount", AMOUNT)
          .field("paid", Schema.BOOLEAN_SCHEMA)
          .field("created_at", Timestamp.SCHEMA)
          .field("discount", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("coupon", Schema.OPTIONAL_STRING_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("loyalty_points", Schema.OPTIONAL_INT64_SCHEMA)
          .field("shipping", ADDRESS)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
          .field("items", SchemaBuilder.array(ITEM).build())
          .field(
              "attributes", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).build())
          .build();

  private static final String[] COUNTRIES = {
    "DE", "FR", "US", "GB", "NL", "IT", "ES", "PL", "SE", "AT", "BE", "CH", "DK", "IE", "PT", "CZ",
    "NO", "FI", "JP", "CA"
  };
  private static final String[] STATUSES = {
    "created", "created", "paid", "paid", "paid", "shipped", "delivered", "cancelled"
  };
  private static final String[] CURRENCIES = {"EUR", "EUR", "EUR", "USD", "GBP", "CHF"};
  private static final String[] COUPONS = {"WELCOME10", "SPRING5", "VIP20", "FREESHIP"};
  private static final String[] TAGS = {
    "gift",
    "express",
    "fragile",
    "b2b",
    "repeat",
    "newsletter",
    "mobile",
    "web",
    "marketplace",
    "promo"
  };
  private static final String[] STREETS = {
    "Main Street",
    "High Street",
    "Station Road",
    "Church Lane",
    "Mill Road",
    "Park Avenue",
    "Elm Street",
    "Lake View",
    "Bahnhofstrasse",
    "Rue de la Paix"
  };
  private static final String[] WORDS = {
    "please",
    "leave",
    "at",
    "the",
    "door",
    "call",
    "before",
    "delivery",
    "ring",
    "twice",
    "back",
    "entrance",
    "neighbour",
    "office",
    "hours",
    "weekend"
  };

  private SinkData() {}

  /** {@code count} records of partition 0 of {@link #TOPIC}, offsets 0 to count - 1. */
  public static List<SinkRecord> records(int count) {
    Random random = new Random(20261121L);
    String[] cities = new String[500];
    for (int i = 0; i < cities.length; i++) {
      cities[i] = "City-" + Integer.toString(i * 7919 % 100_000, 36) + (i % 3 == 0 ? " Nord" : "");
    }
    String[] skus = new String[5_000];
    for (int i = 0; i < skus.length; i++) {
      skus[i] = String.format("SKU-%05d-%s", i, Integer.toString(i * 31 + 7, 36).toUpperCase());
    }
    long baseMillis = 1_795_000_000_000L;
    List<SinkRecord> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long time = baseMillis + i * 37L + random.nextInt(20);
      String customer =
          "cust-"
              + Integer.toString(random.nextInt(60_000), 36)
              + "-"
              + (1000 + random.nextInt(9000));
      int itemCount = 1 + random.nextInt(4);
      List<Struct> items = new ArrayList<>(itemCount);
      double total = 0;
      for (int k = 0; k < itemCount; k++) {
        // Skewed: popular products come back often.
        double u = random.nextDouble();
        String sku = skus[(int) (u * u * u * skus.length)];
        int quantity = 1 + random.nextInt(3);
        double unitPrice = Math.round((2 + random.nextDouble() * 200) * 100) / 100.0;
        total += quantity * unitPrice;
        items.add(
            new Struct(ITEM)
                .put("sku", sku)
                .put("quantity", quantity)
                .put("unit_price", unitPrice));
      }
      total = Math.round(total * 100) / 100.0;
      List<String> tags = new ArrayList<>(3);
      for (int k = random.nextInt(4); k > 0; k--) {
        tags.add(TAGS[random.nextInt(TAGS.length)]);
      }
      Map<String, String> attributes = new LinkedHashMap<>();
      attributes.put("channel", random.nextBoolean() ? "web" : "app");
      if (random.nextInt(3) == 0) {
        attributes.put("campaign", "cmp-" + random.nextInt(40));
      }
      if (random.nextInt(5) == 0) {
        attributes.put("ab_test", random.nextBoolean() ? "A" : "B");
      }
      String note = null;
      if (random.nextInt(2) == 0) {
        StringBuilder text = new StringBuilder();
        for (int w = 2 + random.nextInt(6); w > 0; w--) {
          text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        note = text.append(random.nextInt(1000)).toString();
      }
      Struct shipping =
          random.nextInt(10) == 0
              ? null
              : new Struct(ADDRESS)
                  .put(
                      "street",
                      (1 + random.nextInt(200)) + " " + STREETS[random.nextInt(STREETS.length)])
                  .put("city", cities[random.nextInt(cities.length)])
                  .put("zip", 10_000 + random.nextInt(90_000));
      Struct value =
          new Struct(VALUE)
              .put("order_id", 500_000_000L + i)
              .put("customer_id", customer)
              .put("country", COUNTRIES[random.nextInt(COUNTRIES.length)])
              .put("status", STATUSES[random.nextInt(STATUSES.length)])
              .put("currency", CURRENCIES[random.nextInt(CURRENCIES.length)])
              .put("item_count", itemCount)
              .put("total", total)
              .put("amount", BigDecimal.valueOf(Math.round(total * 100), 2))
              .put("paid", random.nextInt(5) != 0)
              .put("created_at", new Date(time))
              .put("discount", random.nextInt(10) < 3 ? Math.round(total * 10) / 100.0 : null)
              .put(
                  "coupon", random.nextInt(5) == 0 ? COUPONS[random.nextInt(COUPONS.length)] : null)
              .put("note", note)
              .put("loyalty_points", random.nextInt(10) < 6 ? (long) random.nextInt(50_000) : null)
              .put("shipping", shipping)
              .put("tags", tags)
              .put("items", items)
              .put("attributes", attributes);
      value.validate();
      records.add(
          new SinkRecord(
              TOPIC,
              0,
              Schema.STRING_SCHEMA,
              customer,
              VALUE,
              value,
              i,
              time,
              TimestampType.CREATE_TIME));
    }
    return records;
  }

  /**
   * New records equal to {@code batch}, every object of their keys and values built anew (new
   * Structs, lists, maps, strings with their own bytes, boxes, decimals, dates), as a converter
   * builds a batch from the consumer's bytes just before Connect hands it to {@code put}. So the
   * sink reads records that were just written to memory, as in a worker, not ones built long before
   * and long evicted from every cache.
   */
  public static List<SinkRecord> fresh(List<SinkRecord> batch) {
    List<SinkRecord> out = new ArrayList<>(batch.size());
    for (SinkRecord r : batch) {
      out.add(
          new SinkRecord(
              r.topic(),
              r.kafkaPartition(),
              r.keySchema(),
              copy(r.keySchema(), r.key()),
              r.valueSchema(),
              copy(r.valueSchema(), r.value()),
              r.kafkaOffset(),
              r.timestamp(),
              r.timestampType()));
    }
    return out;
  }

  private static Object copy(Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    switch (schema.type()) {
      case STRUCT:
        {
          Struct from = (Struct) value;
          Struct to = new Struct(schema);
          for (Field field : schema.fields()) {
            to.put(field, copy(field.schema(), from.get(field)));
          }
          return to;
        }
      case ARRAY:
        {
          List<?> from = (List<?>) value;
          List<Object> to = new ArrayList<>(from.size());
          for (Object element : from) {
            to.add(copy(schema.valueSchema(), element));
          }
          return to;
        }
      case MAP:
        {
          Map<?, ?> from = (Map<?, ?>) value;
          Map<Object, Object> to = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : from.entrySet()) {
            to.put(copy(schema.keySchema(), e.getKey()), copy(schema.valueSchema(), e.getValue()));
          }
          return to;
        }
      case STRING:
        return new String(
            ((String) value).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      case INT64:
        return value instanceof Date date ? new Date(date.getTime()) : copyLong((Long) value);
      case INT32:
        return copyInt((Integer) value);
      case FLOAT64:
        return copyDouble((Double) value);
      case BYTES:
        if (value instanceof BigDecimal decimal) {
          return new BigDecimal(decimal.unscaledValue(), decimal.scale());
        }
        return ((byte[]) value).clone();
      default:
        return value; // BOOLEAN: Boolean.TRUE/FALSE, as converters return them
    }
  }

  // Boxed as converters box (valueOf: small values from the JDK's caches, the rest new).
  private static Long copyLong(long v) {
    return Long.valueOf(v);
  }

  private static Integer copyInt(int v) {
    return Integer.valueOf(v);
  }

  private static Double copyDouble(double v) {
    return Double.valueOf(v);
  }
}
