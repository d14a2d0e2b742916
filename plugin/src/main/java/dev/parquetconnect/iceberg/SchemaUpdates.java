package dev.parquetconnect.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * The schema changes that let a table hold the files of a Parquet schema our writer writes, as
 * Iceberg's schema evolution allows them:
 *
 * <ul>
 *   <li>a column the table lacks is added, optional, at any depth (in a struct, a list's element
 *       struct, a map's value struct), with its whole subtree;
 *   <li>a column the file has wider than the table is widened: int to long, float to double, a
 *       decimal to a larger precision at the same scale;
 *   <li>a table column that is required becomes optional when the file's is optional or the file
 *       lacks it (and so a list's element, a map's value).
 * </ul>
 *
 * A file column narrower than the table's (an int for a long, a float for a double, a decimal of a
 * smaller precision) needs no change: Iceberg reads it as the table's type, as it reads the files
 * written before a column was widened. Anything else (long to int in the table, string to int, a
 * struct to a string, a decimal's scale, a map's key type) is incompatible: {@link #apply} then
 * stages nothing and returns the reason.
 */
public final class SchemaUpdates {
  private SchemaUpdates() {}

  /**
   * Stages on {@code update} the changes that make {@code table} able to hold files of {@code
   * written}; nothing when it already can. The caller commits {@code update}.
   *
   * @return the reason when the files cannot go into this table by schema evolution; {@code update}
   *     is then left untouched (never a partial update)
   * @throws org.apache.kafka.connect.errors.DataException when {@code written} has a column with no
   *     Iceberg type ({@link IcebergSchemas})
   */
  public static Optional<String> apply(UpdateSchema update, Schema table, MessageType written) {
    Types.StructType file = IcebergSchemas.typesOf(written, 3);
    List<Consumer<UpdateSchema>> changes = new ArrayList<>();
    String problem = struct(table.asStruct(), file, null, changes);
    if (problem != null) {
      return Optional.of(problem);
    }
    for (Consumer<UpdateSchema> change : changes) {
      change.accept(update);
    }
    return Optional.empty();
  }

  /**
   * What {@code wider}, the result of {@link #apply} on {@code table}, changes, column by column
   * (dotted paths, a list's element and a map's value as {@code element} and {@code value}), for a
   * message that says why a record needs a schema change; empty when nothing changed.
   */
  public static String describeChanges(Schema table, Schema wider) {
    List<String> changes = new ArrayList<>();
    for (Map.Entry<String, Integer> column :
        new TreeMap<>(TypeUtil.indexByName(wider.asStruct())).entrySet()) {
      Types.NestedField after = wider.findField(column.getValue());
      Types.NestedField before = table.findField(column.getValue());
      String name = column.getKey();
      if (before == null) {
        if (!name.contains(".") || table.findField(parentOf(name)) != null) {
          changes.add("new column '" + name + "' (" + after.type() + ")");
        }
        continue;
      }
      if (after.type().isPrimitiveType() && !after.type().equals(before.type())) {
        changes.add("column '" + name + "' from " + before.type() + " to " + after.type());
      }
      if (before.isRequired() && after.isOptional()) {
        changes.add("column '" + name + "' from required to optional");
      }
    }
    return String.join(", ", changes);
  }

  private static String parentOf(String dotted) {
    return dotted.substring(0, dotted.lastIndexOf('.'));
  }

  /** Whether {@code table}'s columns already hold every file of {@code written} as they are. */
  public static boolean fits(Schema table, MessageType written) {
    List<Consumer<UpdateSchema>> changes = new ArrayList<>();
    return struct(table.asStruct(), IcebergSchemas.typesOf(written, 3), null, changes) == null
        && changes.isEmpty();
  }

  private static String struct(
      Types.StructType table,
      Types.StructType file,
      String parent,
      List<Consumer<UpdateSchema>> changes) {
    for (Types.NestedField fileField : file.fields()) {
      String path = join(parent, fileField.name());
      Types.NestedField tableField = table.field(fileField.name());
      if (tableField == null) {
        String name = fileField.name();
        Type type = fileField.type();
        changes.add(
            parent == null
                ? update -> update.addColumn(name, type)
                : update -> update.addColumn(parent, name, type));
        continue;
      }
      if (fileField.isOptional() && tableField.isRequired()) {
        changes.add(update -> update.makeColumnOptional(path));
      }
      String problem = type(tableField.type(), fileField.type(), path, changes);
      if (problem != null) {
        return problem;
      }
    }
    for (Types.NestedField tableField : table.fields()) {
      if (tableField.isRequired() && file.field(tableField.name()) == null) {
        String path = join(parent, tableField.name());
        changes.add(update -> update.makeColumnOptional(path));
      }
    }
    return null;
  }

  private static String type(
      Type table, Type file, String path, List<Consumer<UpdateSchema>> changes) {
    if (table.isPrimitiveType() && file.isPrimitiveType()) {
      if (table.equals(file) || widens(file, table)) {
        return null;
      }
      if (widens(table, file)) {
        Type.PrimitiveType wider = file.asPrimitiveType();
        changes.add(update -> update.updateColumn(path, wider));
        return null;
      }
      return incompatible(path, table, file);
    }
    if (table.isStructType() && file.isStructType()) {
      return struct(table.asStructType(), file.asStructType(), path, changes);
    }
    if (table.isListType() && file.isListType()) {
      String element = path + ".element";
      if (file.asListType().isElementOptional() && table.asListType().isElementRequired()) {
        changes.add(update -> update.makeColumnOptional(element));
      }
      return type(
          table.asListType().elementType(), file.asListType().elementType(), element, changes);
    }
    if (table.isMapType() && file.isMapType()) {
      Types.MapType tableMap = table.asMapType();
      Types.MapType fileMap = file.asMapType();
      if (!tableMap.keyType().equals(fileMap.keyType())
          && !widens(fileMap.keyType(), tableMap.keyType())) {
        return incompatible(path + ".key", tableMap.keyType(), fileMap.keyType())
            + " (a map's keys cannot change)";
      }
      String value = path + ".value";
      if (fileMap.isValueOptional() && tableMap.isValueRequired()) {
        changes.add(update -> update.makeColumnOptional(value));
      }
      return type(tableMap.valueType(), fileMap.valueType(), value, changes);
    }
    return incompatible(path, table, file);
  }

  /**
   * Null when a file column of type {@code file} reads as the table's {@code table} (the same type,
   * a narrower one Iceberg promotes on read, the same nesting), else why not.
   */
  static String readableAs(Type file, Type table, String path) {
    if (table.isPrimitiveType() && file.isPrimitiveType()) {
      return table.equals(file) || widens(file, table) ? null : incompatible(path, table, file);
    }
    if (table.isStructType() && file.isStructType()) {
      return null; // the fields are checked one by one
    }
    if (table.isListType() && file.isListType()) {
      return readableAs(
          file.asListType().elementType(), table.asListType().elementType(), path + ".element");
    }
    if (table.isMapType() && file.isMapType()) {
      String key =
          readableAs(file.asMapType().keyType(), table.asMapType().keyType(), path + ".key");
      return key != null
          ? key
          : readableAs(
              file.asMapType().valueType(), table.asMapType().valueType(), path + ".value");
    }
    return incompatible(path, table, file);
  }

  /**
   * Whether Iceberg widens {@code from} to {@code to}: int to long, float to double, a decimal to a
   * larger precision at the same scale.
   */
  static boolean widens(Type from, Type to) {
    switch (from.typeId()) {
      case INTEGER:
        return to.typeId() == Type.TypeID.LONG;
      case FLOAT:
        return to.typeId() == Type.TypeID.DOUBLE;
      case DECIMAL:
        if (to.typeId() != Type.TypeID.DECIMAL) {
          return false;
        }
        Types.DecimalType narrow = (Types.DecimalType) from;
        Types.DecimalType wide = (Types.DecimalType) to;
        return narrow.scale() == wide.scale() && narrow.precision() < wide.precision();
      default:
        return false;
    }
  }

  private static String incompatible(String path, Type table, Type file) {
    return "column '"
        + path
        + "' is "
        + table
        + " in the table and "
        + file
        + " in the records: Iceberg cannot change the one into the other";
  }

  private static String join(String parent, String name) {
    return parent == null ? name : parent + "." + name;
  }
}
