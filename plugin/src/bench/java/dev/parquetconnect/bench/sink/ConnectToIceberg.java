package dev.parquetconnect.bench.sink;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Connect values as Iceberg's generic {@link Record}s, as Iceberg's own Kafka Connect sink hands
 * them to its Parquet appender: a new record per struct, a new list per array and a new map per
 * map, Timestamps as {@code OffsetDateTime} (timestamptz), Dates as {@code LocalDate}, Decimals as
 * {@code BigDecimal}, bytes as {@code ByteBuffer}. Fields are set by position (Iceberg's sink looks
 * them up by name), which favours this side a little. The schema maps as the sink's table mode maps
 * it (docs/iceberg.md): INT8 and INT16 to int, Time to an int of milliseconds of the day.
 */
final class ConnectToIceberg {
  private ConnectToIceberg() {}

  /** The Iceberg schema of a Connect struct schema, with ids assigned as a new table's. */
  static org.apache.iceberg.Schema schema(Schema value) {
    AtomicInteger ids = new AtomicInteger();
    Types.StructType struct = type(value, ids).asStructType();
    org.apache.iceberg.Schema schema = new org.apache.iceberg.Schema(struct.fields());
    AtomicInteger fresh = new AtomicInteger();
    return TypeUtil.assignFreshIds(schema, fresh::incrementAndGet);
  }

  private static Type type(Schema schema, AtomicInteger ids) {
    String name = schema.name();
    if (Decimal.LOGICAL_NAME.equals(name)) {
      int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
      String precision = schema.parameters().get("connect.decimal.precision");
      return Types.DecimalType.of(precision == null ? 38 : Integer.parseInt(precision), scale);
    }
    if (Timestamp.LOGICAL_NAME.equals(name)) {
      return Types.TimestampType.withZone();
    }
    if (Date.LOGICAL_NAME.equals(name)) {
      return Types.DateType.get();
    }
    if (Time.LOGICAL_NAME.equals(name)) {
      return Types.IntegerType.get();
    }
    return switch (schema.type()) {
      case BOOLEAN -> Types.BooleanType.get();
      case INT8, INT16, INT32 -> Types.IntegerType.get();
      case INT64 -> Types.LongType.get();
      case FLOAT32 -> Types.FloatType.get();
      case FLOAT64 -> Types.DoubleType.get();
      case STRING -> Types.StringType.get();
      case BYTES -> Types.BinaryType.get();
      case ARRAY -> {
        int id = ids.incrementAndGet();
        Type element = type(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.ListType.ofOptional(id, element)
            : Types.ListType.ofRequired(id, element);
      }
      case MAP -> {
        int keyId = ids.incrementAndGet();
        int valueId = ids.incrementAndGet();
        Type key = type(schema.keySchema(), ids);
        Type val = type(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.MapType.ofOptional(keyId, valueId, key, val)
            : Types.MapType.ofRequired(keyId, valueId, key, val);
      }
      case STRUCT -> {
        List<Types.NestedField> fields = new ArrayList<>();
        for (Field field : schema.fields()) {
          int id = ids.incrementAndGet();
          Type fieldType = type(field.schema(), ids);
          fields.add(
              field.schema().isOptional()
                  ? Types.NestedField.optional(id, field.name(), fieldType)
                  : Types.NestedField.required(id, field.name(), fieldType));
        }
        yield Types.StructType.of(fields);
      }
    };
  }

  /** The record of a Connect struct value of the schema {@code iceberg} was derived from. */
  static Record record(Types.StructType iceberg, Struct value) {
    Record record = GenericRecord.create(iceberg);
    List<Field> fields = value.schema().fields();
    List<Types.NestedField> icebergFields = iceberg.fields();
    for (int i = 0; i < fields.size(); i++) {
      Field field = fields.get(i);
      record.set(i, value(icebergFields.get(i).type(), field.schema(), value.get(field)));
    }
    return record;
  }

  private static Object value(Type type, Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.typeId()) {
      case STRUCT -> record(type.asStructType(), (Struct) value);
      case LIST -> {
        List<?> connect = (List<?>) value;
        Type element = type.asListType().elementType();
        List<Object> list = new ArrayList<>(connect.size());
        for (Object item : connect) {
          list.add(value(element, schema.valueSchema(), item));
        }
        yield list;
      }
      case MAP -> {
        Map<?, ?> connect = (Map<?, ?>) value;
        Types.MapType map = type.asMapType();
        Map<Object, Object> converted = new HashMap<>(connect.size() * 2);
        for (Map.Entry<?, ?> entry : connect.entrySet()) {
          converted.put(
              value(map.keyType(), schema.keySchema(), entry.getKey()),
              value(map.valueType(), schema.valueSchema(), entry.getValue()));
        }
        yield converted;
      }
      case TIMESTAMP ->
          OffsetDateTime.ofInstant(((java.util.Date) value).toInstant(), ZoneOffset.UTC);
      case DATE ->
          LocalDate.ofEpochDay(
              Math.floorDiv(((java.util.Date) value).getTime(), 24L * 60 * 60 * 1000));
      case INTEGER ->
          value instanceof java.util.Date time ? (int) time.getTime() : ((Number) value).intValue();
      case BINARY -> value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
      default -> value;
    };
  }
}
