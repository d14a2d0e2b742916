package dev.parquetconnect.iceberg;

import dev.parquetconnect.connect.FileLayout;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A sink record seen as a row of a table's schema, as our files store it: the value's fields (or
 * {@code value} for a value that is not a struct), then the Kafka metadata columns and the key.
 * Values are converted on access to the Java forms Iceberg's transforms take (int, long, days,
 * microseconds, CharSequence, BigDecimal, ByteBuffer, UUID); nothing is copied ahead. Only the
 * columns a partition spec reads are ever asked for.
 */
final class RecordRow implements StructLike {
  private final Types.StructType type;
  private SinkRecord record;

  RecordRow(Types.StructType type) {
    this.type = type;
  }

  /** This row over {@code record} (the same instance, re-pointed). */
  RecordRow wrap(SinkRecord next) {
    this.record = next;
    return this;
  }

  @Override
  public int size() {
    return type.fields().size();
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    Types.NestedField field = type.fields().get(pos);
    return javaClass.cast(convert(field, top(field.name())));
  }

  @Override
  public <T> void set(int pos, T value) {
    throw new UnsupportedOperationException("a record row is read-only");
  }

  private Object top(String name) {
    switch (name) {
      case FileLayout.TOPIC_COLUMN:
        return record.originalTopic();
      case FileLayout.PARTITION_COLUMN:
        return record.originalKafkaPartition();
      case FileLayout.OFFSET_COLUMN:
        return record.originalKafkaOffset();
      case FileLayout.TIMESTAMP_COLUMN:
        return record.timestamp() == null ? null : new Date(record.timestamp());
      case FileLayout.KEY_COLUMN:
        return record.key();
      default:
        Object value = record.value();
        if (value instanceof Struct || value instanceof Map) {
          return field(value, name);
        }
        return name.equals(FileLayout.VALUE_COLUMN) ? value : null;
    }
  }

  private static Object field(Object container, String name) {
    if (container instanceof Struct struct) {
      return struct.schema().field(name) == null ? null : struct.get(name);
    }
    if (container instanceof Map<?, ?> map) {
      return map.get(name);
    }
    return null;
  }

  /** {@code raw} as the Java form of {@code field}'s type. */
  static Object convert(Types.NestedField field, Object raw) {
    if (raw == null) {
      return null;
    }
    Type type = field.type();
    try {
      switch (type.typeId()) {
        case STRUCT:
          return new Nested(type.asStructType(), raw);
        case BOOLEAN:
          return (Boolean) raw;
        case INTEGER:
          return raw instanceof Date time ? (int) time.getTime() : ((Number) raw).intValue();
        case LONG:
          return ((Number) raw).longValue();
        case FLOAT:
          return ((Number) raw).floatValue();
        case DOUBLE:
          return ((Number) raw).doubleValue();
        case STRING:
          return raw.toString();
        case DATE:
          return raw instanceof Date date
              ? (int) Math.floorDiv(date.getTime(), 86_400_000L)
              : ((Number) raw).intValue();
        case TIME:
          return ((Date) raw).getTime() * 1000;
        case TIMESTAMP:
          return Math.multiplyExact(((Date) raw).getTime(), 1000L);
        case DECIMAL:
          return (BigDecimal) raw;
        case BINARY:
        case FIXED:
          return raw instanceof byte[] bytes
              ? ByteBuffer.wrap(bytes)
              : ((ByteBuffer) raw).duplicate();
        case UUID:
          return raw instanceof UUID uuid ? uuid : UUID.fromString(raw.toString());
        default:
          return null; // lists and maps are never partition sources
      }
    } catch (ClassCastException | ArithmeticException | IllegalArgumentException e) {
      throw new DataException(
          "column '"
              + field.name()
              + "' holds a "
              + raw.getClass().getSimpleName()
              + " where the table has "
              + type,
          e);
    }
  }

  /** A struct-valued column (a Connect Struct or a schemaless map) as a nested row. */
  private static final class Nested implements StructLike {
    private final List<Types.NestedField> fields;
    private final Object value;

    Nested(Types.StructType type, Object value) {
      this.fields = type.fields();
      this.value = value;
    }

    @Override
    public int size() {
      return fields.size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      Types.NestedField field = fields.get(pos);
      return javaClass.cast(convert(field, RecordRow.field(value, field.name())));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("a record row is read-only");
    }
  }
}
