package dev.parquetconnect.sink.partition;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads a (possibly nested, dotted) field of a record value, whether the value is a {@link Struct}
 * (a value with a schema) or a {@link Map} (schemaless JSON), and turns scalar values into the text
 * of a partition directory.
 */
public final class RecordFields {
  private RecordFields() {}

  /** A field's path, split once at configuration time. */
  public record FieldPath(String dotted, List<String> names) {
    public static FieldPath parse(String dotted) {
      String trimmed = dotted.trim();
      if (trimmed.isEmpty()
          || trimmed.startsWith(".")
          || trimmed.endsWith(".")
          || trimmed.contains("..")) {
        throw new IllegalArgumentException("'" + dotted + "' is not a field path (a.b.c)");
      }
      return new FieldPath(trimmed, List.of(trimmed.split("\\.")));
    }

    /** The last name: the partition column's name. */
    String leaf() {
      return names.get(names.size() - 1);
    }
  }

  /** A value found in a record and its schema (null for schemaless values). */
  record Found(Object value, Schema schema) {}

  /** The value at {@code path}, or a null value when a level on the way is null. */
  static Found find(Object value, FieldPath path) {
    Object current = value;
    Schema schema = null;
    for (String name : path.names()) {
      if (current == null) {
        return new Found(null, null);
      }
      if (current instanceof Struct struct) {
        Field field = struct.schema().field(name);
        if (field == null) {
          throw new DataException(
              "field '"
                  + path.dotted()
                  + "' not found: the value's schema "
                  + describe(struct.schema())
                  + " has no field '"
                  + name
                  + "'");
        }
        current = struct.get(field);
        schema = field.schema();
      } else if (current instanceof Map<?, ?> map) {
        schema = null;
        if (!map.containsKey(name)) {
          throw new DataException(
              "field '" + path.dotted() + "' not found: the value has no key '" + name + "'");
        }
        current = map.get(name);
      } else {
        throw new DataException(
            "field '"
                + path.dotted()
                + "' not found: '"
                + name
                + "' is looked up in a "
                + current.getClass().getSimpleName()
                + ", not in a struct or map");
      }
    }
    return new Found(current, schema);
  }

  /**
   * The text of a scalar for a directory name: numbers and booleans as Java prints them, decimals
   * without exponent, Connect dates, times and timestamps as ISO-8601 in UTC ({@code 2024-05-01},
   * {@code 13:45:00}, {@code 2024-05-01T13:45:00Z}), strings as they are. Structs, maps, lists and
   * bytes have no useful directory name and are refused.
   */
  static String text(Found found, String what) {
    Object value = found.value();
    if (value == null) {
      return null;
    }
    if (value instanceof Date date && found.schema() != null) {
      String logical = found.schema().name();
      if (org.apache.kafka.connect.data.Date.LOGICAL_NAME.equals(logical)) {
        return LocalDate.ofEpochDay(Math.floorDiv(date.getTime(), 86_400_000L)).toString();
      }
      if (org.apache.kafka.connect.data.Time.LOGICAL_NAME.equals(logical)) {
        return LocalTime.ofNanoOfDay(Math.floorMod(date.getTime(), 86_400_000L) * 1_000_000L)
            .toString();
      }
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
      return value.toString();
    }
    if (value instanceof Date date) {
      return Instant.ofEpochMilli(date.getTime()).toString();
    }
    if (value instanceof LocalTime || value instanceof Instant) {
      return value.toString();
    }
    throw new DataException(
        what
            + " has a "
            + kind(value)
            + " value; only strings, numbers, booleans and dates can name a partition directory");
  }

  private static String kind(Object value) {
    if (value instanceof Struct) {
      return "struct";
    }
    if (value instanceof Map) {
      return "map";
    }
    if (value instanceof List) {
      return "list";
    }
    if (value instanceof byte[] || value instanceof java.nio.ByteBuffer) {
      return "bytes";
    }
    return value.getClass().getSimpleName();
  }

  private static String describe(Schema schema) {
    return schema.name() != null ? schema.name() : schema.type().toString();
  }
}
