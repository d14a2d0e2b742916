package dev.parquetconnect.iceberg;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.sink.partition.Partitioner;
import dev.parquetconnect.sink.partition.StagedRouting;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Routes each record to the Iceberg partition of its values under a spec: Iceberg's own transforms
 * through its {@link PartitionKey} over the record seen as a row of the table's schema ({@link
 * RecordRow}). A record's partition columns are the spec's partition fields, each with Iceberg's
 * human string of the partition value (null for a null value), so equal partitions give equal
 * columns; {@link #partitionData(List)} turns the columns back into the partition tuple of a data
 * file, and {@link #encodedPartition(List)} gives Iceberg's path of it ({@code
 * spec.partitionToPath}).
 *
 * <p>An unpartitioned spec gives every record no column. One instance serves one task, from one
 * thread.
 */
public final class TablePartitioner implements Partitioner, StagedRouting {
  /** One list for every record of an unpartitioned table: the file opener's cache hits. */
  private static final List<PartitionColumn> UNPARTITIONED = List.of();

  /** The columns a record gives besides its value: the Kafka metadata and the key. */
  private static final Set<String> FROM_RECORD =
      Set.of(
          FileLayout.TOPIC_COLUMN,
          FileLayout.PARTITION_COLUMN,
          FileLayout.OFFSET_COLUMN,
          FileLayout.TIMESTAMP_COLUMN,
          FileLayout.KEY_COLUMN);

  private final PartitionSpec spec;
  private final PartitionKey key;
  private final RecordRow row;
  private final StagedTableRow stagedRow;

  /** Per partition field, the names from the table's top down to its source column. */
  private final List<String[]> sourcePaths = new ArrayList<>();

  /** The value schema of the last staged row, and where its leaves are (null: not routable). */
  private Schema stagedSchema;

  private StagedTableRow.Leaves stagedLeaves;

  public TablePartitioner(PartitionSpec spec) {
    this.spec = spec;
    this.key = new PartitionKey(spec, spec.schema());
    this.row = new RecordRow(spec.schema().asStruct());
    this.stagedRow = new StagedTableRow(spec.schema().asStruct());
    for (PartitionField field : spec.fields()) {
      List<String> path = new ArrayList<>();
      if (!pathTo(spec.schema().asStruct(), field.sourceId(), path)) {
        throw new IllegalArgumentException(
            "partition field " + field.name() + " has no source column in the table's schema");
      }
      sourcePaths.add(path.toArray(new String[0]));
    }
  }

  /** Adds to {@code path} the names down to the column of {@code id}; false when it is not here. */
  private static boolean pathTo(Types.StructType struct, int id, List<String> path) {
    for (Types.NestedField field : struct.fields()) {
      path.add(field.name());
      if (field.fieldId() == id
          || field.type().isStructType() && pathTo(field.type().asStructType(), id, path)) {
        return true;
      }
      path.remove(path.size() - 1);
    }
    return false;
  }

  public PartitionSpec spec() {
    return spec;
  }

  @Override
  public void configure(Map<String, String> config) {}

  /**
   * The partition columns of {@code record}.
   *
   * @throws DataException when a source column's value does not fit its table type
   */
  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    if (spec.isUnpartitioned()) {
      return UNPARTITIONED;
    }
    fill(record, row.wrap(record));
    return columns();
  }

  /**
   * The partition columns of {@code record} whose value is {@code staged} (its raw JSON read
   * straight into a row, with no Struct): the columns {@link #partition(SinkRecord)} gives for the
   * Struct the same JSON makes, from the row's leaves through the same conversions and Iceberg's
   * own transforms. Null when the row cannot tell: a source column the row's schema does not have
   * as a leaf, or a row not laid out leaf by leaf; the record then goes the Struct way.
   *
   * @throws DataException when a source column's value does not fit its column
   */
  @Override
  public List<PartitionColumn> partition(SinkRecord record, StagedRow staged) {
    if (spec.isUnpartitioned()) {
      return UNPARTITIONED;
    }
    Schema schema = staged.schema();
    if (schema != stagedSchema) {
      stagedSchema = schema;
      stagedLeaves = leavesOf(schema, staged.leafCount());
    }
    if (stagedLeaves == null) {
      return null;
    }
    fill(record, stagedRow.wrap(record, staged, stagedLeaves));
    return columns();
  }

  /** Where the leaves of rows of {@code schema} are, or null when the spec's sources are not. */
  private StagedTableRow.Leaves leavesOf(Schema schema, int leafCount) {
    StagedTableRow.Leaves leaves = StagedTableRow.Leaves.of(schema, 0);
    if (leaves == null || leaves.leafCount() != leafCount) {
      return null;
    }
    for (String[] path : sourcePaths) {
      if (!FROM_RECORD.contains(path[0]) && !leaves.hasLeaf(path, 0)) {
        return null;
      }
    }
    return leaves;
  }

  private List<PartitionColumn> columns() {
    PartitionKey partition = key;
    List<PartitionField> fields = spec.fields();
    List<PartitionColumn> columns = new ArrayList<>(fields.size());
    Types.StructType type = spec.partitionType();
    for (int i = 0; i < fields.size(); i++) {
      Object value = partition.get(i, Object.class);
      columns.add(new PartitionColumn(fields.get(i).name(), human(fields.get(i), type, i, value)));
    }
    return columns;
  }

  /** The partition key of {@code record} (a copy the caller may keep). */
  public PartitionKey key(SinkRecord record) {
    fill(record, row.wrap(record));
    return key.copy();
  }

  /** Sets {@link #key} to the partition of {@code record}, seen as {@code values}. */
  private void fill(SinkRecord record, StructLike values) {
    try {
      key.partition(values);
    } catch (ClassCastException | IllegalArgumentException e) {
      throw new DataException(
          "the record at "
              + record.topic()
              + "-"
              + record.kafkaPartition()
              + "@"
              + record.kafkaOffset()
              + " has a partition source value that does not fit its column: "
              + e.getMessage(),
          e);
    }
  }

  /** The partition tuple of {@code columns} (as {@link #partition} gives them), for a DataFile. */
  public PartitionData partitionData(List<PartitionColumn> columns) {
    List<PartitionField> fields = spec.fields();
    if (columns.size() != fields.size()) {
      throw new IllegalArgumentException(
          columns.size() + " partition columns for a spec of " + fields.size() + " fields");
    }
    Types.StructType type = spec.partitionType();
    PartitionData data = new PartitionData(type);
    for (int i = 0; i < fields.size(); i++) {
      String text = columns.get(i).value();
      data.set(i, text == null ? null : parse(fields.get(i), type.fields().get(i).type(), text));
    }
    return data;
  }

  /**
   * The partition tuple of an encoded partition ({@code spec.partitionToPath}); the text {@code
   * null} is a null value there, as in Iceberg's own paths.
   */
  public PartitionData partitionData(String encoded) {
    List<PartitionField> fields = spec.fields();
    String[] segments = encoded.isEmpty() ? new String[0] : encoded.split("/", -1);
    if (segments.length != fields.size()) {
      throw new IllegalArgumentException(
          "partition path '" + encoded + "' has not the " + fields.size() + " fields of the spec");
    }
    List<PartitionColumn> columns = new ArrayList<>(segments.length);
    for (int i = 0; i < segments.length; i++) {
      int eq = segments[i].indexOf('=');
      String value = URLDecoder.decode(segments[i].substring(eq + 1), StandardCharsets.UTF_8);
      columns.add(new PartitionColumn(fields.get(i).name(), value.equals("null") ? null : value));
    }
    return partitionData(columns);
  }

  /** Iceberg's path of the partition of {@code columns}: {@code spec.partitionToPath}. */
  public String encodedPartition(List<PartitionColumn> columns) {
    return spec.partitionToPath(partitionData(columns));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static String human(PartitionField field, Types.StructType type, int i, Object value) {
    if (value == null) {
      return null;
    }
    org.apache.iceberg.transforms.Transform transform = field.transform();
    return transform.toHumanString(type.fields().get(i).type(), value);
  }

  /** The partition value whose human string is {@code text}, in Iceberg's internal form. */
  private static Object parse(PartitionField field, Type type, String text) {
    String transform = field.transform().toString();
    try {
      if (transform.startsWith("bucket")) {
        return Integer.parseInt(text);
      }
      switch (transform) {
        case "year":
          return Integer.parseInt(text) - 1970;
        case "month":
          {
            int dash = text.lastIndexOf('-');
            int year = Integer.parseInt(text.substring(0, dash));
            int month = Integer.parseInt(text.substring(dash + 1));
            return (year - 1970) * 12 + month - 1;
          }
        case "day":
          return (int) LocalDate.parse(text).toEpochDay();
        case "hour":
          {
            int dash = text.lastIndexOf('-');
            long days = LocalDate.parse(text.substring(0, dash)).toEpochDay();
            return (int) (days * 24 + Integer.parseInt(text.substring(dash + 1)));
          }
        default:
          return value(type, text);
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "partition field " + field.name() + ": '" + text + "' is not a " + transform + " value",
          e);
    }
  }

  /** The value of {@code type} whose human string (identity, truncate) is {@code text}. */
  private static Object value(Type type, String text) {
    switch (type.typeId()) {
      case BOOLEAN:
        return Boolean.parseBoolean(text);
      case INTEGER:
        return Integer.parseInt(text);
      case LONG:
        return Long.parseLong(text);
      case FLOAT:
        return Float.parseFloat(text);
      case DOUBLE:
        return Double.parseDouble(text);
      case STRING:
        return text;
      case DECIMAL:
        return new java.math.BigDecimal(text);
      case DATE:
        return (int) LocalDate.parse(text).toEpochDay();
      case TIME:
        return LocalTime.parse(text).toNanoOfDay() / 1000;
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          return ChronoUnit.MICROS.between(
              OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
              OffsetDateTime.parse(text));
        }
        return ChronoUnit.MICROS.between(
            LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.parse(text));
      case UUID:
        return UUID.fromString(text);
      case BINARY:
      case FIXED:
        return java.nio.ByteBuffer.wrap(Base64.getDecoder().decode(text));
      default:
        throw new IllegalArgumentException("no partition values of type " + type);
    }
  }
}
