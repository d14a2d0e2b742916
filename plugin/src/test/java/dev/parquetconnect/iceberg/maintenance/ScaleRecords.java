package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.sink.ValueRecords;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The records of {@link IcebergCompactionScaleIT}: one value per logical type the sink maps
 * (decimal, int16, timestamp, date, a list, an optional string), a function of the Kafka partition
 * and offset; and each reader's rows in one canonical line, {@code
 * partition|offset|id|name|amount|price|qty|region|at-millis|day|tags|note}, whose first two fields
 * are the row's key.
 */
final class ScaleRecords {
  static final int KAFKA_PARTITIONS = 2;
  static final int PER_COMMIT = 3;
  private static final long EPOCH_MS = 1_700_000_000_000L;

  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("Click")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("price", Decimal.schema(2))
          .field("qty", Schema.INT16_SCHEMA)
          .field("region", Schema.STRING_SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("day", org.apache.kafka.connect.data.Date.SCHEMA)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .field("note", Schema.STRING_SCHEMA)
          .build();

  /** The rows as DuckDB reads them: append the file list and a closing parenthesis. */
  static final String DUCKDB_ROWS =
      "SELECT __kafka_partition, __kafka_offset, id, name, amount, CAST(price AS VARCHAR), qty,"
          + " region, epoch_ms(\"at\"), CAST(\"day\" AS VARCHAR), array_to_string(tags, ','), note"
          + " FROM read_parquet(";

  private ScaleRecords() {}

  /** Kafka partition {@code p}'s records at offsets {@code [from, to)}. */
  static List<SinkRecord> sinkRecords(String topic, int p, long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = from; o < to; o++) {
      long id = id(p, o);
      Struct value =
          new Struct(VALUE)
              .put("id", id)
              .put("name", name(id))
              .put("amount", id / 4.0)
              .put("price", price(id))
              .put("qty", (short) (id % 1000 - 500))
              .put("region", region(o))
              .put("at", new Date(EPOCH_MS + id * 1000))
              .put("day", new Date(day(id).toEpochDay() * 86_400_000L))
              .put("tags", tags(id))
              .put("note", note(id));
      records.add(ValueRecords.of(topic, p, VALUE, value, o, EPOCH_MS + id));
    }
    return records;
  }

  /** Every row of offsets {@code [0, next[p])} of each partition, by key. */
  static Map<String, String> expectedRows(long[] next) {
    Map<String, String> rows = new HashMap<>();
    for (int p = 0; p < next.length; p++) {
      for (long o = 0; o < next[p]; o++) {
        long id = id(p, o);
        List<String> tags = tags(id);
        String row =
            line(
                p,
                o,
                id,
                name(id),
                id / 4.0,
                price(id).toPlainString(),
                id % 1000 - 500,
                region(o),
                EPOCH_MS + id * 1000,
                day(id).toString(),
                tags == null ? null : String.join(",", tags),
                note(id));
        rows.put(p + "|" + o, row);
      }
    }
    return rows;
  }

  static String icebergRow(Record r) {
    @SuppressWarnings("unchecked")
    List<String> tags = (List<String>) r.getField("tags");
    return line(
        ((Number) r.getField("__kafka_partition")).longValue(),
        (Long) r.getField("__kafka_offset"),
        (Long) r.getField("id"),
        (String) r.getField("name"),
        (Double) r.getField("amount"),
        ((BigDecimal) r.getField("price")).toPlainString(),
        ((Number) r.getField("qty")).longValue(),
        (String) r.getField("region"),
        millis(r.getField("at")),
        r.getField("day").toString(),
        tags == null ? null : String.join(",", tags),
        (String) r.getField("note"));
  }

  static String duckRow(ResultSet r) throws SQLException {
    return line(
        r.getLong(1),
        r.getLong(2),
        r.getLong(3),
        r.getString(4),
        r.getDouble(5),
        r.getString(6),
        r.getLong(7),
        r.getString(8),
        r.getLong(9),
        r.getString(10),
        r.getString(11),
        r.getString(12));
  }

  private static String line(Object... fields) {
    StringBuilder b = new StringBuilder();
    for (Object f : fields) {
      if (b.length() > 0) {
        b.append('|');
      }
      b.append(f);
    }
    return b.toString();
  }

  private static long millis(Object timestamp) {
    if (timestamp instanceof OffsetDateTime t) {
      return t.toInstant().toEpochMilli();
    }
    return ((LocalDateTime) timestamp).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static long id(int p, long o) {
    return o * KAFKA_PARTITIONS + p;
  }

  private static String name(long id) {
    return id % 7 == 0 ? null : "name-" + id;
  }

  private static BigDecimal price(long id) {
    return BigDecimal.valueOf(id * 37 % 100_000, 2);
  }

  /** By offset, so each commit's rows go to both Iceberg partitions. */
  private static String region(long o) {
    return o % 2 == 0 ? "eu" : "us";
  }

  private static LocalDate day(long id) {
    return LocalDate.of(2023, 1, 1).plusDays(id % 700);
  }

  private static List<String> tags(long id) {
    return id % 5 == 0 ? null : List.of("t" + id % 3, "u" + id % 4);
  }

  /** 48 characters that compress little, so data outweighs the footers in compacted files. */
  private static String note(long id) {
    StringBuilder note = new StringBuilder();
    long x = id * 0x9E3779B97F4A7C15L + 1;
    while (note.length() < 48) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      note.append(Long.toHexString(x));
    }
    return note.substring(0, 48);
  }
}
