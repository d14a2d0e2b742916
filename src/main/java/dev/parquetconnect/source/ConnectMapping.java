package dev.parquetconnect.source;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * One Parquet schema node mapped to a Connect schema, with a converter from the reader's generic
 * values ({@link Row}, lists, maps, physical values) to Connect values of that schema. Built once
 * per file schema, applied to every row: the type decisions are taken here, not per value.
 *
 * <p>Mapping: BOOLEAN, INT32, INT64, FLOAT, DOUBLE as themselves; INTEGER(8|16, signed) INT8 and
 * INT16, unsigned 8/16/32 widened to INT16/INT32/INT64, unsigned 64 as Decimal scale 0; DECIMAL on
 * any physical type as Decimal; STRING, ENUM, JSON as STRING; UUID as its 36-character text;
 * FLOAT16 as FLOAT32; DATE as Date; TIME as Time and TIMESTAMP (any unit) and INT96 as Timestamp,
 * in milliseconds (finer units floored); other byte strings as BYTES; LIST and other repeated
 * fields as ARRAY; MAP as MAP; other groups as STRUCT named after their field path. OPTIONAL
 * fields are optional schemas.
 *
 * <p>The sink stores the full Connect schemas of a record in the file's key/value metadata; the
 * Connect mapping package ({@code dev.parquetconnect.connect}) will restore them from there
 * (names, versions, defaults, non-struct values). Until it lands, this mapping rebuilds the value
 * schema from the Parquet schema and its logical types alone.
 */
final class ConnectMapping {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;

  /** Converts one non-null generic value. */
  interface Converter {
    Object convert(Object value);
  }

  private final Schema schema;
  private final Converter converter;

  private ConnectMapping(Schema schema, Converter converter) {
    this.schema = schema;
    this.converter = converter;
  }

  Schema schema() {
    return schema;
  }

  /** The Connect value of a generic value of the node (null stays null). */
  Object convert(Object value) {
    return value == null ? null : converter.convert(value);
  }

  /**
   * A struct of some top-level fields of a group (the value of a replayed record: the file's
   * columns without the metadata columns).
   *
   * @param fieldIndexes the group's fields to take, in order
   * @param structName the Connect schema name of the struct, or null
   * @param optional whether the struct schema is optional
   */
  static StructMapping structOf(GroupNode group, int[] fieldIndexes, String structName,
      boolean optional) {
    SchemaBuilder builder = SchemaBuilder.struct();
    if (structName != null) {
      builder.name(structName);
    }
    if (optional) {
      builder.optional();
    }
    ConnectMapping[] fields = new ConnectMapping[fieldIndexes.length];
    for (int i = 0; i < fieldIndexes.length; i++) {
      SchemaNode node = group.field(fieldIndexes[i]);
      fields[i] = of(node, node.name());
      builder.field(node.name(), fields[i].schema);
    }
    return new StructMapping(builder.build(), fieldIndexes, fields);
  }

  /** The mapping of one field (its repetition decides optional and array). */
  static ConnectMapping of(SchemaNode node, String path) {
    if (node.isRepeated()) {
      ConnectMapping element =
          single(node.withRepetition(dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED),
              path, false);
      return new ConnectMapping(SchemaBuilder.array(element.schema).build(),
          listConverter(element));
    }
    return single(node, path, node.isOptional());
  }

  /** The mapping of a non-repeated instance of the node. */
  private static ConnectMapping single(SchemaNode node, String path, boolean optional) {
    if (!(node instanceof GroupNode group) || hasNestedShape(group)) {
      ConnectMapping required = required(node, path);
      return optional ? new ConnectMapping(optional(required.schema), required.converter)
          : required;
    }
    // A struct's values are bound to their schema object: build it optional from the start.
    int[] all = new int[group.fieldCount()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    StructMapping struct = structOf(group, all, null, optional);
    return new ConnectMapping(struct.schema(), v -> struct.convert((Row) v));
  }

  /** The mapping of a present instance of a leaf, LIST or MAP (a required schema). */
  private static ConnectMapping required(SchemaNode node, String path) {
    if (node instanceof PrimitiveNode leaf) {
      return primitive(leaf);
    }
    GroupNode group = (GroupNode) node;
    if (group.isList()) {
      NestedTypes.ListShape shape = NestedTypes.listShape(group);
      if (shape != null) {
        SchemaNode elementNode = shape.twoLevel()
            ? shape.repeated().withRepetition(
                dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED)
            : shape.element();
        ConnectMapping element = of(elementNode, path + ".element");
        return new ConnectMapping(SchemaBuilder.array(element.schema).build(),
            listConverter(element));
      }
    }
    if (group.isMap()) {
      NestedTypes.MapShape shape = NestedTypes.mapShape(group);
      if (shape != null && shape.value() != null) {
        ConnectMapping key = of(shape.key(), path + ".key");
        ConnectMapping value = of(shape.value(), path + ".value");
        return new ConnectMapping(SchemaBuilder.map(key.schema, value.schema).build(),
            mapConverter(key, value));
      }
      if (shape != null) {
        ConnectMapping key = of(shape.key(), path + ".key");
        Converter keys = keysConverter(key);
        return new ConnectMapping(SchemaBuilder.array(key.schema).build(), keys);
      }
    }
    throw new IllegalStateException("not a LIST or MAP: " + group.name());
  }

  /**
   * Whether a group is a LIST or MAP the reader assembles as a list or map; other groups
   * (including a LIST or MAP whose layout is not valid) come as Rows, mapped as structs.
   */
  private static boolean hasNestedShape(GroupNode group) {
    return group.isList() && NestedTypes.listShape(group) != null
        || group.isMap() && NestedTypes.mapShape(group) != null;
  }

  private static Converter listConverter(ConnectMapping element) {
    return v -> {
      List<?> list = (List<?>) v;
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(element.convert(e));
      }
      return out;
    };
  }

  private static Converter keysConverter(ConnectMapping key) {
    return v -> {
      Map<?, ?> map = (Map<?, ?>) v;
      List<Object> out = new ArrayList<>(map.size());
      for (Object k : map.keySet()) {
        out.add(key.convert(k));
      }
      return out;
    };
  }

  private static Converter mapConverter(ConnectMapping key, ConnectMapping value) {
    return v -> {
      Map<?, ?> map = (Map<?, ?>) v;
      Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, map.size() * 2));
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(key.convert(e.getKey()), value.convert(e.getValue()));
      }
      return out;
    };
  }

  private static Schema optional(Schema required) {
    SchemaBuilder b = switch (required.type()) {
      case ARRAY -> SchemaBuilder.array(required.valueSchema());
      case MAP -> SchemaBuilder.map(required.keySchema(), required.valueSchema());
      default -> new SchemaBuilder(required.type());
    };
    if (required.name() != null) {
      b.name(required.name());
    }
    if (required.parameters() != null) {
      b.parameters(required.parameters());
    }
    return b.optional().build();
  }

  private static ConnectMapping primitive(PrimitiveNode leaf) {
    LogicalType logical = leaf.logicalType();
    switch (leaf.type()) {
      case BOOLEAN:
        return new ConnectMapping(Schema.BOOLEAN_SCHEMA, v -> v);
      case INT32:
        if (logical instanceof LogicalType.IntType t) {
          return int32Integer(t);
        }
        if (logical instanceof LogicalType.DateType) {
          return new ConnectMapping(Date.SCHEMA,
              v -> new java.util.Date((Integer) v * MILLIS_PER_DAY));
        }
        if (logical instanceof LogicalType.TimeType) {
          return new ConnectMapping(Time.SCHEMA, v -> new java.util.Date((Integer) v));
        }
        if (logical instanceof LogicalType.DecimalType d) {
          return decimal(d, v -> BigInteger.valueOf((Integer) v));
        }
        return new ConnectMapping(Schema.INT32_SCHEMA, v -> v);
      case INT64:
        if (logical instanceof LogicalType.TimestampType t) {
          long perMilli = unitsPerMilli(t.unit());
          return new ConnectMapping(Timestamp.SCHEMA,
              v -> new java.util.Date(Math.floorDiv((Long) v, perMilli)));
        }
        if (logical instanceof LogicalType.TimeType t) {
          long perMilli = unitsPerMilli(t.unit());
          return new ConnectMapping(Time.SCHEMA,
              v -> new java.util.Date(Math.floorDiv((Long) v, perMilli)));
        }
        if (logical instanceof LogicalType.DecimalType d) {
          return decimal(d, v -> BigInteger.valueOf((Long) v));
        }
        if (logical instanceof LogicalType.IntType t && !t.signed()) {
          return new ConnectMapping(Decimal.builder(0).parameter("connect.decimal.precision",
              "20").build(), v -> new BigDecimal(unsigned((Long) v)));
        }
        return new ConnectMapping(Schema.INT64_SCHEMA, v -> v);
      case FLOAT:
        return new ConnectMapping(Schema.FLOAT32_SCHEMA, v -> v);
      case DOUBLE:
        return new ConnectMapping(Schema.FLOAT64_SCHEMA, v -> v);
      case INT96:
        return new ConnectMapping(Timestamp.SCHEMA, v -> new java.util.Date(int96Millis(
            (byte[]) v)));
      case BYTE_ARRAY:
      case FIXED_LEN_BYTE_ARRAY:
      default:
        if (logical instanceof LogicalType.StringType || logical instanceof LogicalType.EnumType
            || logical instanceof LogicalType.JsonType) {
          return new ConnectMapping(Schema.STRING_SCHEMA,
              v -> new String((byte[]) v, StandardCharsets.UTF_8));
        }
        if (logical instanceof LogicalType.DecimalType d) {
          return decimal(d, v -> new BigInteger((byte[]) v));
        }
        if (logical instanceof LogicalType.UuidType) {
          return new ConnectMapping(Schema.STRING_SCHEMA, v -> uuid((byte[]) v));
        }
        if (logical instanceof LogicalType.Float16Type) {
          return new ConnectMapping(Schema.FLOAT32_SCHEMA,
              v -> halfToFloat(LittleEndian.getShort((byte[]) v, 0)));
        }
        return new ConnectMapping(Schema.BYTES_SCHEMA, v -> v);
    }
  }

  private static ConnectMapping int32Integer(LogicalType.IntType t) {
    int bits = t.bitWidth();
    if (t.signed()) {
      return switch (bits) {
        case 8 -> new ConnectMapping(Schema.INT8_SCHEMA, v -> (byte) (int) (Integer) v);
        case 16 -> new ConnectMapping(Schema.INT16_SCHEMA, v -> (short) (int) (Integer) v);
        default -> new ConnectMapping(Schema.INT32_SCHEMA, v -> v);
      };
    }
    return switch (bits) {
      case 8 -> new ConnectMapping(Schema.INT16_SCHEMA, v -> (short) ((Integer) v & 0xFF));
      case 16 -> new ConnectMapping(Schema.INT32_SCHEMA, v -> (Integer) v & 0xFFFF);
      default -> new ConnectMapping(Schema.INT64_SCHEMA, v -> Integer.toUnsignedLong((Integer) v));
    };
  }

  private static ConnectMapping decimal(LogicalType.DecimalType d,
      java.util.function.Function<Object, BigInteger> unscaled) {
    Schema schema = Decimal.builder(d.scale())
        .parameter("connect.decimal.precision", Integer.toString(d.precision())).build();
    int scale = d.scale();
    return new ConnectMapping(schema, v -> new BigDecimal(unscaled.apply(v), scale));
  }

  private static long unitsPerMilli(dev.parquetconnect.format.meta.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 1L;
      case MICROS -> 1_000L;
      case NANOS -> 1_000_000L;
    };
  }

  private static BigInteger unsigned(long v) {
    BigInteger b = BigInteger.valueOf(v & Long.MAX_VALUE);
    return v < 0 ? b.setBit(63) : b;
  }

  /** INT96 as Impala and Spark write it: nanoseconds of the day, then the Julian day. */
  private static long int96Millis(byte[] b) {
    long nanos = LittleEndian.getLong(b, 0);
    long julianDay = Integer.toUnsignedLong(LittleEndian.getInt(b, 8));
    return (julianDay - JULIAN_EPOCH_DAY) * MILLIS_PER_DAY + Math.floorDiv(nanos, 1_000_000L);
  }

  /** IEEE 754 binary16 to float, exactly (every half value is a float value). */
  static float halfToFloat(short bits) {
    int sign = (bits & 0x8000) << 16;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    if (exponent == 0x1F) {
      return Float.intBitsToFloat(sign | 0x7F800000 | mantissa << 13);
    }
    if (exponent == 0) {
      float magnitude = mantissa * 0x1p-24f;
      return sign == 0 ? magnitude : -magnitude;
    }
    return Float.intBitsToFloat(sign | (exponent + 112) << 23 | mantissa << 13);
  }

  private static String uuid(byte[] b) {
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) {
      hi = hi << 8 | (b[i] & 0xFF);
      lo = lo << 8 | (b[8 + i] & 0xFF);
    }
    return new UUID(hi, lo).toString();
  }

  /** A struct mapping over chosen fields of a group. */
  static final class StructMapping {
    private final Schema schema;
    private final int[] fieldIndexes;
    private final ConnectMapping[] fields;
    private final Field[] connectFields;

    StructMapping(Schema schema, int[] fieldIndexes, ConnectMapping[] fields) {
      this.schema = schema;
      this.fieldIndexes = fieldIndexes;
      this.fields = fields;
      this.connectFields = schema.fields().toArray(new Field[0]);
    }

    Schema schema() {
      return schema;
    }

    Struct convert(Row row) {
      Struct struct = new Struct(schema);
      for (int i = 0; i < fieldIndexes.length; i++) {
        Object raw = row.get(fieldIndexes[i]);
        if (raw != null) {
          struct.put(connectFields[i], fields[i].convert(raw));
        }
      }
      return struct;
    }
  }
}
