package dev.parquetconnect.iceberg;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.DataException;

/**
 * Iceberg schemas of the Parquet schemas our sink writes, and those Parquet schemas with the field
 * ids of a table's columns.
 *
 * <p>Types, by the file's Parquet type: BOOLEAN, INT32 (plain, INTEGER(8|16|32, signed), unsigned 8
 * and 16), INT64 (plain, INTEGER(64, signed)), FLOAT, DOUBLE as boolean, int, long, float, double;
 * BYTE_ARRAY as string when annotated STRING, ENUM or JSON, else binary; FIXED_LEN_BYTE_ARRAY as
 * uuid (UUID) or fixed; DECIMAL on any physical type as decimal (precision up to 38); DATE as date;
 * TIME(MICROS) as time; TIMESTAMP(MICROS) as timestamptz when adjusted to UTC, else timestamp;
 * TIMESTAMP(NANOS) as timestamptz_ns/timestamp_ns from format version 3. LIST and MAP groups as
 * list and map (the element, key and value keep their nullability); any other group as struct.
 *
 * <p>Refused with a {@link DataException} naming the column: TIMESTAMP(MILLIS) and TIME(MILLIS)
 * (Iceberg's readers and data file metrics take the INT64 of a timestamp column as microseconds:
 * the sink writes micros for tables, {@link
 * dev.parquetconnect.connect.MappingOptions#forIcebergTables()}), unsigned 32 and 64-bit integers,
 * INT96, FLOAT16, the UNKNOWN (null) type, VARIANT, GEOMETRY, GEOGRAPHY, nanosecond timestamps
 * before format version 3, and a repeated field outside a LIST or MAP. The placeholder {@code
 * __empty} of a struct without fields is an ordinary optional boolean column that is always null.
 */
public final class IcebergSchemas {
  /** Iceberg's default table format version, the one {@link #forNewTable(MessageType)} assumes. */
  public static final int DEFAULT_FORMAT_VERSION = 2;

  private IcebergSchemas() {}

  /**
   * The Iceberg schema of a file whose schema carries field ids (every node but the repeated groups
   * of LIST and MAP).
   *
   * @throws DataException naming the column that has no id or no Iceberg type
   */
  public static Schema fromParquet(MessageType fileSchema) {
    Types.StructType struct = new Converter(3, null).struct(fileSchema.root(), "").asStructType();
    return new Schema(struct.fields());
  }

  /**
   * The schema of a new table for files of {@code written}, with ids assigned as Iceberg assigns
   * them on create (the top-level columns first, 1 to n, then their children, breadth first).
   *
   * @throws DataException naming the column that has no Iceberg type
   */
  public static Schema forNewTable(MessageType written) {
    return forNewTable(written, DEFAULT_FORMAT_VERSION);
  }

  /** As {@link #forNewTable(MessageType)}, for a table of the given format version. */
  public static Schema forNewTable(MessageType written, int formatVersion) {
    AtomicInteger provisional = new AtomicInteger();
    Types.StructType struct =
        new Converter(formatVersion, provisional).struct(written.root(), "").asStructType();
    AtomicInteger fresh = new AtomicInteger();
    return TypeUtil.assignFreshIds(new Schema(struct.fields()), fresh::incrementAndGet);
  }

  /**
   * The Iceberg type of {@code written}'s columns, each column's id its position in a depth-first
   * walk: for comparing types by name (see {@link SchemaUpdates}); the ids mean nothing.
   */
  static Types.StructType typesOf(MessageType written, int formatVersion) {
    return new Converter(formatVersion, new AtomicInteger())
        .struct(written.root(), "")
        .asStructType();
  }

  /**
   * {@code written} with every group and primitive node given the id of the table column it maps to
   * by name path: a list's element node the list's element id, a map's key and value nodes the
   * map's key and value ids (their repeated groups get none), so the data files carry the field ids
   * of the table's schema.
   *
   * @throws DataException naming the column the table lacks, whose table type cannot be read from
   *     the file's (see {@link SchemaUpdates}), or that is required in the table but optional in
   *     the file
   */
  public static MessageType withFieldIds(MessageType written, Schema table) {
    Types.StructType fileTypes = typesOf(written, 3);
    List<SchemaNode> fields = new ArrayList<>(written.fields().size());
    for (SchemaNode node : written.fields()) {
      fields.add(withIds(node, table.asStruct(), fileTypes, ""));
    }
    requireRequired(table.asStruct(), fileTypes, "");
    return new MessageType(written.name(), fields);
  }

  /** A required column of the table must be in the file: Iceberg's readers refuse it missing. */
  private static void requireRequired(
      Types.StructType table, Types.StructType file, String parent) {
    for (Types.NestedField column : table.fields()) {
      if (column.isRequired() && file.field(column.name()) == null) {
        throw new DataException(
            "column '"
                + parent
                + column.name()
                + "' is required in the table and missing from the file (make it optional"
                + " first)");
      }
    }
  }

  private static SchemaNode withIds(
      SchemaNode node, Types.StructType tableStruct, Types.StructType fileStruct, String parent) {
    String path = parent + node.name();
    Types.NestedField column = tableStruct.field(node.name());
    if (column == null) {
      throw new DataException(
          "column '" + path + "' is not in the table's schema (evolve the table's schema first)");
    }
    if (node.isOptional() && column.isRequired()) {
      throw new DataException(
          "column '" + path + "' is required in the table but optional in the file");
    }
    Type fileType = fileStruct.field(node.name()).type();
    String problem = SchemaUpdates.readableAs(fileType, column.type(), path);
    if (problem != null) {
      throw new DataException(problem);
    }
    return assign(node, column.fieldId(), column.type(), fileType, path);
  }

  /** {@code node} (whose file type is {@code fileType}) given {@code id} and its children's. */
  private static SchemaNode assign(
      SchemaNode node, int id, Type table, Type fileType, String path) {
    if (node instanceof PrimitiveNode leaf) {
      return leaf.withFieldId(id);
    }
    GroupNode group = (GroupNode) node;
    if (table.isListType()) {
      Types.ListType list = table.asListType();
      Type fileElement = fileType.asListType().elementType();
      String elementPath = path + ".element";
      if (!list.isElementOptional() && Layouts.listElement(group, path).isOptional()) {
        throw new DataException(
            "column '" + elementPath + "' is required in the table but optional in the file");
      }
      if (Layouts.isThreeLevel(group)) {
        GroupNode repeated = (GroupNode) group.field(0);
        SchemaNode element =
            assign(
                repeated.field(0), list.elementId(), list.elementType(), fileElement, elementPath);
        return group(group, List.of(group(repeated, List.of(element), null)), id);
      }
      SchemaNode element =
          assign(group.field(0), list.elementId(), list.elementType(), fileElement, elementPath);
      return group(group, List.of(element), id);
    }
    if (table.isMapType()) {
      Types.MapType map = table.asMapType();
      GroupNode keyValue = (GroupNode) group.field(0);
      SchemaNode key =
          assign(
              keyValue.field(0),
              map.keyId(),
              map.keyType(),
              fileType.asMapType().keyType(),
              path + ".key");
      SchemaNode value =
          assign(
              keyValue.field(1),
              map.valueId(),
              map.valueType(),
              fileType.asMapType().valueType(),
              path + ".value");
      if (!map.isValueOptional() && keyValue.field(1).isOptional()) {
        throw new DataException(
            "column '" + path + ".value' is required in the table but optional in the file");
      }
      return group(group, List.of(group(keyValue, List.of(key, value), null)), id);
    }
    List<SchemaNode> fields = new ArrayList<>(group.fieldCount());
    for (SchemaNode child : group.fields()) {
      fields.add(withIds(child, table.asStructType(), fileType.asStructType(), path + "."));
    }
    requireRequired(table.asStructType(), fileType.asStructType(), path + ".");
    return group(group, fields, id);
  }

  private static GroupNode group(GroupNode like, List<SchemaNode> fields, Integer id) {
    return new GroupNode(
        like.name(), like.repetition(), fields, like.logicalType(), like.convertedType(), id);
  }

  /** Parquet nodes to Iceberg types; ids from the nodes, or provisional ones when given. */
  private static final class Converter {
    private final int formatVersion;
    private final AtomicInteger provisional;

    Converter(int formatVersion, AtomicInteger provisional) {
      this.formatVersion = formatVersion;
      this.provisional = provisional;
    }

    Type struct(GroupNode group, String parent) {
      List<Types.NestedField> fields = new ArrayList<>(group.fieldCount());
      for (SchemaNode child : group.fields()) {
        String path = parent + child.name();
        if (child.isRepeated()) {
          throw new DataException(
              "column '"
                  + path
                  + "' is a repeated field outside a LIST or MAP: Iceberg has no such"
                  + " column");
        }
        fields.add(field(child, path));
      }
      return Types.StructType.of(fields);
    }

    private Types.NestedField field(SchemaNode node, String path) {
      int id = id(node, path);
      return Types.NestedField.of(id, node.isOptional(), node.name(), type(node, path));
    }

    private int id(SchemaNode node, String path) {
      if (provisional != null) {
        return provisional.incrementAndGet();
      }
      if (node.fieldId() == null) {
        throw new DataException("column '" + path + "' has no field id");
      }
      return node.fieldId();
    }

    private Type type(SchemaNode node, String path) {
      if (node instanceof PrimitiveNode leaf) {
        return primitive(leaf, path);
      }
      GroupNode group = (GroupNode) node;
      if (group.isList()) {
        SchemaNode element = Layouts.listElement(group, path);
        int elementId = id(element, path + ".element");
        Type elementType = type(element, path + ".element");
        return element.isOptional()
            ? Types.ListType.ofOptional(elementId, elementType)
            : Types.ListType.ofRequired(elementId, elementType);
      }
      if (group.isMap()) {
        GroupNode keyValue = Layouts.mapKeyValue(group, path);
        SchemaNode key = keyValue.field(0);
        SchemaNode value = keyValue.field(1);
        int keyId = id(key, path + ".key");
        int valueId = id(value, path + ".value");
        Type keyType = type(key, path + ".key");
        Type valueType = type(value, path + ".value");
        return value.isOptional()
            ? Types.MapType.ofOptional(keyId, valueId, keyType, valueType)
            : Types.MapType.ofRequired(keyId, valueId, keyType, valueType);
      }
      return struct(group, path + ".");
    }

    private Type primitive(PrimitiveNode leaf, String path) {
      LogicalType logical = leaf.logicalType();
      if (logical instanceof LogicalType.DecimalType decimal) {
        if (decimal.precision() > 38 || decimal.precision() < 1) {
          throw refused(path, leaf, "Iceberg's decimals have a precision of 1 to 38");
        }
        return Types.DecimalType.of(decimal.precision(), decimal.scale());
      }
      switch (leaf.type()) {
        case BOOLEAN:
          return plainOnly(leaf, path, Types.BooleanType.get());
        case INT32:
          if (logical == null) {
            return Types.IntegerType.get();
          }
          if (logical instanceof LogicalType.DateType) {
            return Types.DateType.get();
          }
          if (logical instanceof LogicalType.IntType ints
              && (ints.signed() ? ints.bitWidth() <= 32 : ints.bitWidth() <= 16)) {
            return Types.IntegerType.get();
          }
          if (logical instanceof LogicalType.TimeType) {
            throw refused(
                path,
                leaf,
                "Iceberg's time is INT64 microseconds; write Connect Time columns without the TIME"
                    + " annotation (an int of milliseconds)");
          }
          throw refused(path, leaf, "no Iceberg type reads it");
        case INT64:
          if (logical == null) {
            return Types.LongType.get();
          }
          if (logical instanceof LogicalType.IntType ints && ints.signed()) {
            return Types.LongType.get();
          }
          if (logical instanceof LogicalType.TimeType time && time.unit() == TimeUnit.MICROS) {
            return Types.TimeType.get();
          }
          if (logical instanceof LogicalType.TimestampType ts) {
            return timestamp(leaf, ts, path);
          }
          throw refused(path, leaf, "no Iceberg type reads it");
        case FLOAT:
          return plainOnly(leaf, path, Types.FloatType.get());
        case DOUBLE:
          return plainOnly(leaf, path, Types.DoubleType.get());
        case BYTE_ARRAY:
          if (logical == null || logical instanceof LogicalType.BsonType) {
            return Types.BinaryType.get();
          }
          if (logical instanceof LogicalType.StringType
              || logical instanceof LogicalType.EnumType
              || logical instanceof LogicalType.JsonType) {
            return Types.StringType.get();
          }
          throw refused(path, leaf, "no Iceberg type reads it");
        case FIXED_LEN_BYTE_ARRAY:
          if (logical == null) {
            return Types.FixedType.ofLength(leaf.typeLength());
          }
          if (logical instanceof LogicalType.UuidType) {
            return Types.UUIDType.get();
          }
          throw refused(path, leaf, "no Iceberg type reads it");
        default:
          throw refused(path, leaf, "Iceberg has no such type");
      }
    }

    private Type timestamp(PrimitiveNode leaf, LogicalType.TimestampType ts, String path) {
      switch (ts.unit()) {
        case MICROS:
          return ts.adjustedToUtc()
              ? Types.TimestampType.withZone()
              : Types.TimestampType.withoutZone();
        case NANOS:
          if (formatVersion < 3) {
            throw refused(
                path,
                leaf,
                "nanosecond timestamps need table format version 3 (this table: "
                    + formatVersion
                    + ")");
          }
          return ts.adjustedToUtc()
              ? Types.TimestampNanoType.withZone()
              : Types.TimestampNanoType.withoutZone();
        default:
          throw refused(
              path,
              leaf,
              "Iceberg's timestamps are microseconds: write the table's files with"
                  + " MappingOptions.forIcebergTables()");
      }
    }

    private static Type plainOnly(PrimitiveNode leaf, String path, Type type) {
      if (leaf.logicalType() != null) {
        throw refused(path, leaf, "no Iceberg type reads it");
      }
      return type;
    }
  }

  private static DataException refused(String path, PrimitiveNode leaf, String why) {
    String annotation = leaf.logicalType() == null ? "" : " " + leaf.logicalType();
    return new DataException(
        "column '" + path + "' (" + leaf.type() + annotation + ") has no Iceberg type: " + why);
  }

  /** The LIST and MAP layouts, standard and legacy, as LogicalTypes.md reads them. */
  static final class Layouts {
    private Layouts() {}

    /** Whether a LIST group has the standard three levels (a repeated group around the element). */
    static boolean isThreeLevel(GroupNode list) {
      SchemaNode repeated = list.field(0);
      return repeated instanceof GroupNode group
          && group.fieldCount() == 1
          && !group.name().equals("array")
          && !group.name().equals(list.name() + "_tuple");
    }

    static SchemaNode listElement(GroupNode list, String path) {
      if (list.fieldCount() != 1 || !list.field(0).isRepeated()) {
        throw new DataException(
            "column '" + path + "' is a LIST without exactly one repeated field");
      }
      if (isThreeLevel(list)) {
        return ((GroupNode) list.field(0)).field(0);
      }
      return list.field(0).withRepetition(FieldRepetitionType.REQUIRED);
    }

    static GroupNode mapKeyValue(GroupNode map, String path) {
      if (map.fieldCount() != 1
          || !(map.field(0) instanceof GroupNode keyValue)
          || !keyValue.isRepeated()
          || keyValue.fieldCount() != 2) {
        throw new DataException(
            "column '" + path + "' is a MAP without one repeated group of a key and a value");
      }
      return keyValue;
    }
  }
}
