package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
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
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * The test oracle of the source's read path: applies a {@link ParquetToConnect} mapping to the
 * generic {@link Row}s of the format layer's row reader, value by value, through Connect's
 * validating {@code Struct.put}. {@link ConnectRecordReader} (the path in main) reads the column
 * batches straight into Connect values; the tests hold its records equal to these. It was the
 * source's path before that reader, and is kept here, independent of it, for that comparison.
 */
final class RowToConnect {
  private final ParquetToConnect mapping;
  private final Converter valueConverter;
  private final Converter keyConverter;

  RowToConnect(ParquetToConnect mapping) {
    this.mapping = mapping;
    GroupNode root = mapping.parquetSchema().root();
    Schema value = mapping.storedValueSchema();
    if (value == null) {
      this.valueConverter = null;
    } else if (mapping.valueIndex() < 0) {
      this.valueConverter = compile(root, value, "");
    } else {
      this.valueConverter =
          compile(root.field(mapping.valueIndex()), value, FileLayout.VALUE_COLUMN);
    }
    this.keyConverter =
        mapping.keyConverted()
            ? compile(
                root.field(mapping.keyIndex()), mapping.storedKeySchema(), FileLayout.KEY_COLUMN)
            : null;
  }

  /** The oracle for a file of this schema and footer key/value metadata. */
  static RowToConnect of(MessageType schema, Map<String, String> keyValueMetadata) {
    return new RowToConnect(ParquetToConnect.of(schema, keyValueMetadata));
  }

  ParquetToConnect mapping() {
    return mapping;
  }

  /** One row (of the whole file schema) as record parts. */
  RestoredRecord convert(Row row) {
    Object value = null;
    boolean tombstone =
        mapping.tombstoneIndex() >= 0 && Boolean.TRUE.equals(row.get(mapping.tombstoneIndex()));
    if (valueConverter != null && !tombstone) {
      Object raw = mapping.valueIndex() < 0 ? row : row.get(mapping.valueIndex());
      value = raw == null ? null : valueConverter.convert(raw);
      if (mapping.valueSchemaless()) {
        value = ParquetToConnect.toSchemaless(value);
      }
    }
    Object key = null;
    if (keyConverter != null) {
      Object raw = row.get(mapping.keyIndex());
      key = raw == null ? null : keyConverter.convert(raw);
      if (mapping.keySchemaless()) {
        key = ParquetToConnect.toSchemaless(key);
      }
    }
    ConnectHeaders headers = new ConnectHeaders();
    if (mapping.headersIndex() >= 0) {
      Object list = row.get(mapping.headersIndex());
      if (list != null) {
        for (Object h : (List<?>) list) {
          addHeader(headers, (Row) h);
        }
      }
    }
    return new RestoredRecord(
        mapping.topicIndex() < 0 ? null : utf8(row.get(mapping.topicIndex())),
        mapping.partitionIndex() < 0 ? null : (Integer) row.get(mapping.partitionIndex()),
        mapping.offsetIndex() < 0 ? null : (Long) row.get(mapping.offsetIndex()),
        mapping.timestampIndex() < 0 ? null : (Long) row.get(mapping.timestampIndex()),
        mapping.keySchema(),
        key,
        mapping.valueSchema(),
        value,
        headers);
  }

  private void addHeader(ConnectHeaders headers, Row h) {
    byte[] key = (byte[]) h.get(0);
    byte[] schemaJson = (byte[]) h.get(1);
    byte[] bytes = (byte[]) h.get(2);
    mapping.addHeader(
        headers,
        key == null ? null : new String(key, StandardCharsets.UTF_8),
        schemaJson,
        0,
        schemaJson == null ? -1 : schemaJson.length,
        bytes,
        0,
        bytes == null ? -1 : bytes.length,
        null,
        0,
        null,
        null);
  }

  private static String utf8(Object bytes) {
    return bytes == null ? null : new String((byte[]) bytes, StandardCharsets.UTF_8);
  }

  /** Converts a non-null Parquet value (of the {@link Row} model) to a Connect value. */
  private abstract static class Converter {
    abstract Object convert(Object parquet);
  }

  /** A plan converting values of {@code node} to values of {@code schema}. */
  private static Converter compile(SchemaNode node, Schema schema, String path) {
    ConnectTypes.Kind kind = ConnectTypes.kind(schema);
    if (node.isRepeated()) {
      if (kind != ConnectTypes.Kind.ARRAY) {
        throw ParquetToConnect.mismatch(path, node, schema);
      }
      return new ListConverter(
          compile(
              node.withRepetition(FieldRepetitionType.REQUIRED),
              schema.valueSchema(),
              path + "[]"));
    }
    if (node instanceof PrimitiveNode leaf) {
      return new LeafConverter(leaf, schema, kind, path);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
    switch (kind) {
      case ARRAY:
        if (list != null) {
          return new ListConverter(
              compile(ParquetToConnect.listElement(list), schema.valueSchema(), path + "[]"));
        }
        if (map != null && map.value() == null) {
          return new KeySetConverter(compile(map.key(), schema.valueSchema(), path + "{}"));
        }
        throw ParquetToConnect.mismatch(path, node, schema);
      case MAP:
        if (map != null && map.value() != null) {
          return new MapConverter(
              compile(map.key(), schema.keySchema(), path + "{key}"),
              compile(map.value(), schema.valueSchema(), path + "{value}"));
        }
        if (list != null
            && ParquetToConnect.listElement(list) instanceof GroupNode entry
            && entry.fieldCount() == 2) {
          // A map with struct, array or map keys, stored as a list of {key, value} entries.
          return new EntryListConverter(
              compile(entry.field(0), schema.keySchema(), path + "{key}"),
              compile(entry.field(1), schema.valueSchema(), path + "{value}"));
        }
        throw ParquetToConnect.mismatch(path, node, schema);
      case STRUCT:
        return new StructConverter(group, schema, path);
      default:
        throw ParquetToConnect.mismatch(path, node, schema);
    }
  }

  private static final class ListConverter extends Converter {
    private final Converter element;

    ListConverter(Converter element) {
      this.element = element;
    }

    @Override
    Object convert(Object parquet) {
      List<?> in = (List<?>) parquet;
      List<Object> out = new ArrayList<>(in.size());
      for (Object e : in) {
        out.add(e == null ? null : element.convert(e));
      }
      return out;
    }
  }

  private static final class KeySetConverter extends Converter {
    private final Converter key;

    KeySetConverter(Converter key) {
      this.key = key;
    }

    @Override
    Object convert(Object parquet) {
      Map<?, ?> in = (Map<?, ?>) parquet;
      List<Object> out = new ArrayList<>(in.size());
      for (Object k : in.keySet()) {
        out.add(key.convert(k));
      }
      return out;
    }
  }

  private static final class MapConverter extends Converter {
    private final Converter key;
    private final Converter value;

    MapConverter(Converter key, Converter value) {
      this.key = key;
      this.value = value;
    }

    @Override
    Object convert(Object parquet) {
      Map<?, ?> in = (Map<?, ?>) parquet;
      Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, in.size() * 2));
      for (Map.Entry<?, ?> e : in.entrySet()) {
        Object v = e.getValue();
        out.put(key.convert(e.getKey()), v == null ? null : value.convert(v));
      }
      return out;
    }
  }

  private static final class EntryListConverter extends Converter {
    private final Converter key;
    private final Converter value;

    EntryListConverter(Converter key, Converter value) {
      this.key = key;
      this.value = value;
    }

    @Override
    Object convert(Object parquet) {
      List<?> in = (List<?>) parquet;
      Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, in.size() * 2));
      for (Object e : in) {
        Row entry = (Row) e;
        Object k = entry.get(0);
        Object v = entry.get(1);
        out.put(k == null ? null : key.convert(k), v == null ? null : value.convert(v));
      }
      return out;
    }
  }

  private static final class StructConverter extends Converter {
    private final Schema schema;
    private final Field[] fields;
    private final int[] indexes;
    private final Converter[] converters;

    StructConverter(GroupNode group, Schema schema, String path) {
      this.schema = schema;
      List<Field> connectFields = schema.fields();
      this.fields = connectFields.toArray(new Field[0]);
      this.indexes = new int[fields.length];
      this.converters = new Converter[fields.length];
      for (int i = 0; i < fields.length; i++) {
        Field f = fields[i];
        String at = path.isEmpty() ? f.name() : path + "." + f.name();
        int index = ConnectToParquet.hasColumns(f.schema()) ? group.fieldIndex(f.name()) : -2;
        if (index == -1) {
          throw new DataException("field " + at + " of the metadata schema has no Parquet column");
        }
        indexes[i] = index;
        converters[i] = index < 0 ? null : compile(group.field(index), f.schema(), at);
      }
    }

    @Override
    Object convert(Object parquet) {
      Row row = (Row) parquet;
      Struct struct = new Struct(schema);
      for (int i = 0; i < fields.length; i++) {
        Object v = indexes[i] < 0 ? null : row.get(indexes[i]);
        if (v != null) {
          struct.put(fields[i], converters[i].convert(v));
        }
      }
      return struct;
    }
  }

  /** A leaf: the Parquet physical value and annotation to the Connect class of the schema. */
  private static final class LeafConverter extends Converter {
    private final ConnectTypes.Kind kind;
    private final PhysicalType physical;
    private final boolean unsigned;
    private final boolean uuid;
    private final boolean float16;

    /** For TIME and TIMESTAMP: Parquet units per millisecond. */
    private final long unitsPerMilli;

    private final int parquetScale;
    private final int connectScale;
    private final String path;

    LeafConverter(PrimitiveNode leaf, Schema schema, ConnectTypes.Kind kind, String path) {
      this.kind = kind;
      this.physical = leaf.type();
      this.path = path;
      LogicalType t = leaf.logicalType();
      this.unsigned = t instanceof LogicalType.IntType i && !i.signed();
      this.uuid = t instanceof LogicalType.UuidType;
      this.float16 = t instanceof LogicalType.Float16Type;
      TimeUnit unit =
          t instanceof LogicalType.TimestampType ts
              ? ts.unit()
              : t instanceof LogicalType.TimeType tt ? tt.unit() : TimeUnit.MILLIS;
      this.unitsPerMilli =
          unit == TimeUnit.MICROS ? 1_000L : unit == TimeUnit.NANOS ? 1_000_000L : 1L;
      this.parquetScale = t instanceof LogicalType.DecimalType d ? d.scale() : 0;
      this.connectScale =
          kind == ConnectTypes.Kind.DECIMAL
              ? DecimalLayout.connectScale(schema) // the file's metadata: checked
              : 0;
      if (!ParquetToConnect.fits(kind, physical)) {
        throw ParquetToConnect.mismatch(path, leaf, schema);
      }
    }

    @Override
    Object convert(Object parquet) {
      switch (kind) {
        case BOOLEAN:
          return parquet;
        case INT8:
          return (byte) integer(parquet);
        case INT16:
          return (short) integer(parquet);
        case INT32:
          return (int) integer(parquet);
        case INT64:
          return integer(parquet);
        case FLOAT32:
          return float16 ? ParquetValues.halfToFloat((byte[]) parquet, 0) : (Float) parquet;
        case FLOAT64:
          return parquet instanceof Float f ? (double) f : parquet;
        case STRING:
          return uuid
              ? ParquetValues.uuidText((byte[]) parquet, 0)
              : new String((byte[]) parquet, StandardCharsets.UTF_8);
        case BYTES:
          return parquet;
        case DECIMAL:
          return decimal(parquet);
        case DATE:
          return new java.util.Date(integer(parquet) * 86_400_000L);
        case TIME:
          return new java.util.Date(Math.floorDiv(integer(parquet), unitsPerMilli));
        case TIMESTAMP:
          if (physical == PhysicalType.INT96) {
            return new java.util.Date(ParquetValues.int96Millis((byte[]) parquet, 0));
          }
          return new java.util.Date(Math.floorDiv((Long) parquet, unitsPerMilli));
        default:
          throw new IllegalStateException("no leaf kind " + kind);
      }
    }

    private long integer(Object parquet) {
      if (parquet instanceof Integer i) {
        return unsigned ? Integer.toUnsignedLong(i) : i;
      }
      return (Long) parquet;
    }

    private BigDecimal decimal(Object parquet) {
      BigInteger unscaled;
      if (parquet instanceof Integer i) {
        unscaled = BigInteger.valueOf(i);
      } else if (parquet instanceof Long l) {
        unscaled = unsigned ? new BigInteger(Long.toUnsignedString(l)) : BigInteger.valueOf(l);
      } else {
        byte[] bytes = (byte[]) parquet;
        unscaled = bytes.length == 0 ? BigInteger.ZERO : new BigInteger(bytes);
      }
      return ParquetValues.toConnectScale(
          new BigDecimal(unscaled, parquetScale), connectScale, path);
    }
  }
}
