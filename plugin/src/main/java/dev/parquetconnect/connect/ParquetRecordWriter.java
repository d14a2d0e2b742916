package dev.parquetconnect.connect;

import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.ValueText;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One Parquet file of Connect records, streamed to an {@link OutputStream}: records go straight
 * into the column writers ({@link ConnectRecordShredder}); a row group is encoded, compressed and
 * written out when it reaches {@link WriterOptions#rowGroupByteTarget()} or on {@link
 * #flushRowGroup()}; {@link #close()} writes the footer, whose key/value metadata carries the
 * layout's Connect schemas.
 *
 * <p>A record must already have the file's schemas ({@link SchemaEvolution} decides and projects
 * before); schemaless keys and values are conformed here to the file's inferred schema. A record
 * that cannot be written throws {@link DataException} naming its topic, partition, offset and
 * field, and leaves the file as it was: the caller may report it to the dead letter queue and go on
 * writing. An {@link IOException} from the stream leaves the file incomplete; the writer then
 * refuses further records. Not thread-safe.
 */
public final class ParquetRecordWriter implements Closeable {
  private FileLayout layout;
  private final SchemaInference inference;
  private final WriterOptions options;
  private final UnaryOperator<MessageType> fileSchema;
  private final ParquetFileWriter writer;
  private ConnectRecordShredder shredder;
  private final boolean storesKeys;
  private Schema lastEqualValueSchema;
  private Schema lastEqualKeySchema;

  /**
   * Starts a file on {@code out} (writing its leading magic) for records of {@code layout}; {@code
   * inference} conforms schemaless values (its conflict policy must be the one the layout's schema
   * was inferred with).
   *
   * @throws ConnectException when the options do not fit (a codec that cannot run here, an encoding
   *     that does not fit a column)
   */
  public ParquetRecordWriter(
      OutputStream out, FileLayout layout, WriterOptions options, SchemaInference inference)
      throws IOException {
    this(out, layout, options, inference, UnaryOperator.identity());
  }

  /**
   * As above, the file's schema being {@code fileSchema} of the layout's (and of every wider layout
   * {@link #reshape} takes): the same tree with field ids, so an Iceberg table's files carry the
   * ids of its columns.
   */
  public ParquetRecordWriter(
      OutputStream out,
      FileLayout layout,
      WriterOptions options,
      SchemaInference inference,
      UnaryOperator<MessageType> fileSchema)
      throws IOException {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.inference = Objects.requireNonNull(inference, "inference");
    this.options = Objects.requireNonNull(options, "options");
    this.fileSchema = Objects.requireNonNull(fileSchema, "fileSchema");
    try {
      this.writer =
          new ParquetFileWriter(
              out, fileSchema.apply(layout.parquetSchema()), withMetadata(layout));
    } catch (UnsupportedFeatureException | IllegalArgumentException e) {
      throw new ConnectException("cannot write Parquet with these options: " + e.getMessage(), e);
    }
    this.shredder = new ConnectRecordShredder(layout, writer);
    this.storesKeys = layout.options().kafkaKey();
  }

  /** As above, with type conflicts of schemaless data stored as text. */
  public ParquetRecordWriter(OutputStream out, FileLayout layout, WriterOptions options)
      throws IOException {
    this(out, layout, options, new SchemaInference(SchemaInference.ConflictPolicy.STRING));
  }

  private WriterOptions withMetadata(FileLayout of) {
    WriterOptions.Builder builder = options.toBuilder();
    for (Map.Entry<String, String> e : of.keyValueMetadata().entrySet()) {
      builder.keyValue(e.getKey(), e.getValue());
    }
    return builder.build();
  }

  public FileLayout layout() {
    return layout;
  }

  /**
   * Makes {@code wider} the file's layout in place, when that keeps every value already written
   * (see {@link ParquetFileWriter#reshape(dev.parquetconnect.format.schema.MessageType,
   * WriterOptions, ValueText)}): new optional fields at any depth (struct in struct, in a list
   * element or a map value), a first type for a field that was only null so far (an empty list's
   * element included), and widenings of the values written: an integer to a long or a double, an
   * integer or boolean to its JSON text after a type conflict (as {@link SchemaInference#conform}
   * renders later values). Only while no row group is written out: a written row group would lack
   * the new columns' chunks, and is not changed. A double turned into text is not done in place:
   * {@code 5} and {@code 5.0} are both stored as the double 5.0, whose text would have to be one of
   * them; nor a struct or list turned into text.
   *
   * @return whether the layout is {@code wider} now; false (nothing changed) when the change needs
   *     a new file
   */
  public boolean reshape(FileLayout wider) {
    if (!extendsInPlace(layout, wider)) {
      return false;
    }
    try {
      if (!writer.reshape(
          fileSchema.apply(wider.parquetSchema()), withMetadata(wider), JSON_TEXT)) {
        return false;
      }
    } catch (UnsupportedFeatureException | IllegalArgumentException e) {
      // Checked above: optional fields, the codec of the file's other columns.
      throw new ConnectException("cannot add the columns of " + wider + ": " + e.getMessage(), e);
    }
    layout = wider;
    shredder = new ConnectRecordShredder(wider, writer);
    lastEqualValueSchema = null;
    lastEqualKeySchema = null;
    return true;
  }

  /**
   * The text of a value stored before its column became a string (the format layer asks only for
   * integers and booleans): the JSON text {@link SchemaInference#conform} gives such a value in a
   * string field.
   */
  private static final ValueText JSON_TEXT =
      new ValueText() {
        @Override
        public boolean renders(ColumnDescriptor from) {
          return true;
        }

        @Override
        public String integerText(ColumnDescriptor from, long value) {
          return SchemaInference.jsonText(value);
        }

        @Override
        public String booleanText(ColumnDescriptor from, boolean value) {
          return SchemaInference.jsonText(value);
        }
      };

  /**
   * Whether going from {@code from} to {@code to} can be done in the open file as far as the
   * Connect side goes: same options, key and value kinds, the key schema unchanged; whether the
   * columns allow it is the Parquet writer's decision.
   */
  static boolean extendsInPlace(FileLayout from, FileLayout to) {
    if (!from.options().equals(to.options())
        || from.hasTombstoneColumn() != to.hasTombstoneColumn()
        || from.keySchemaless() != to.keySchemaless()
        || from.valueSchemaless() != to.valueSchemaless() && from.valueSchema() != null
        || from.keySchema() != null && !from.keySchema().equals(to.keySchema())
        || from.isStructValue() != to.isStructValue() && from.valueSchema() != null) {
      return false;
    }
    if (!to.valueSchemaless() && to.isStructValue()) {
      // Records projected to the wider schema get a field's default: rows already written
      // would have null where later rows of the same version have the default.
      for (Field f : to.valueSchema().fields()) {
        if (f.schema().defaultValue() != null
            && (!from.isStructValue() || from.valueSchema().field(f.name()) == null)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Writes one record.
   *
   * @throws DataException for a record that cannot be written (nothing of it was written)
   * @throws IOException when the stream fails (the file is then incomplete)
   */
  public void write(SinkRecord record) throws IOException {
    Object value = prepareValue(record);
    Object key = storesKeys ? prepareKey(record) : null;
    shredder.shred(record, key, value);
    try {
      writer.endRecord();
    } catch (IllegalStateException | IllegalArgumentException e) {
      // Every column has the record's entries (a bad value would have thrown in shred, and
      // its record been discarded): this is a defect, not bad data.
      throw new ConnectException(
          "the Parquet writer rejected a checked record at "
              + ConnectRecordShredder.where(record)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Writes one record whose value is {@code row}, read straight from its raw JSON (the record's
   * key, if stored, already decoded): the file is as if the Struct JsonConverter would make of the
   * same JSON had been written with {@link #write}. False, with nothing written, when the row does
   * not fit this file as it is (another value schema, a key of another schema, a value the Struct
   * path must check): the caller then goes the Struct way.
   *
   * @throws DataException for a record whose key, headers or metadata cannot be written (nothing of
   *     it was written)
   * @throws IOException when the stream fails (the file is then incomplete)
   */
  public boolean writeStaged(SinkRecord record, StagedRow row) throws IOException {
    if (layout.valueSchemaless() != row.schemaless() || !stagedKeyFits(record)) {
      return false;
    }
    Object key = storesKeys ? prepareKey(record) : null;
    if (!shredder.shredStaged(record, key, row)) {
      if (row.schemaless()) {
        row.refusedBy(layout.valueSchema());
      }
      return false;
    }
    try {
      writer.endRecord();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new ConnectException(
          "the Parquet writer rejected a staged record at "
              + ConnectRecordShredder.where(record)
              + ": "
              + e.getMessage(),
          e);
    }
    return true;
  }

  /** Whether the record's key goes into this file without a decision of schema evolution. */
  private boolean stagedKeyFits(SinkRecord record) {
    if (!storesKeys || record.key() == null) {
      return true;
    }
    Schema schema = record.keySchema();
    Schema expected = layout.keySchema();
    return schema != null
        && expected != null
        && !layout.keySchemaless()
        && (schema == expected || schema == lastEqualKeySchema || schema.equals(expected));
  }

  private Object prepareValue(SinkRecord record) {
    Object value = record.value();
    Schema schema = record.valueSchema();
    if (value == null) {
      return null;
    }
    if (layout.valueSchemaless()) {
      if (schema != null) {
        throw new DataException(
            ConnectRecordShredder.where(record)
                + ": a record with a value schema in a file of schemaless values");
      }
      try {
        return inference.conform(layout.valueSchema(), value);
      } catch (DataException e) {
        throw new DataException(ConnectRecordShredder.where(record) + ": " + e.getMessage(), e);
      }
    }
    if (schema != null && schema != layout.valueSchema() && schema != lastEqualValueSchema) {
      if (!schema.equals(layout.valueSchema())) {
        throw new DataException(
            ConnectRecordShredder.where(record)
                + ": the value schema "
                + ConnectTypes.describe(schema)
                + " is not the file's "
                + ConnectTypes.describe(layout.valueSchema())
                + " (project it first)");
      }
      lastEqualValueSchema = schema;
    }
    return value;
  }

  private Object prepareKey(SinkRecord record) {
    Object key = record.key();
    Schema schema = record.keySchema();
    if (key == null) {
      return null;
    }
    if (layout.keySchema() == null) {
      throw new DataException(
          ConnectRecordShredder.where(record)
              + ": the file has no key column (its first keys were null), got a key");
    }
    if (layout.keySchemaless()) {
      if (schema != null) {
        throw new DataException(
            ConnectRecordShredder.where(record)
                + ": a record with a key schema in a file of schemaless keys");
      }
      try {
        return inference.conform(layout.keySchema(), key);
      } catch (DataException e) {
        throw new DataException(
            ConnectRecordShredder.where(record) + ": key: " + e.getMessage(), e);
      }
    }
    if (schema != null && schema != layout.keySchema() && schema != lastEqualKeySchema) {
      if (!schema.equals(layout.keySchema())) {
        throw new DataException(
            ConnectRecordShredder.where(record)
                + ": the key schema "
                + ConnectTypes.describe(schema)
                + " is not the file's "
                + ConnectTypes.describe(layout.keySchema())
                + " (project it first)");
      }
      lastEqualKeySchema = schema;
    }
    return key;
  }

  /** Records written so far. */
  public long recordCount() {
    return writer.recordCount();
  }

  /** Memory held for the open row group (a sink under a memory budget flushes the largest). */
  public long bufferedBytes() {
    return writer.bufferedBytes();
  }

  /** The heap the writer holds now, spare capacity of its arrays included (a memory budget's). */
  public long heapBytes() {
    return writer.heapBytes();
  }

  /** Bytes written to the stream so far. */
  public long bytesWritten() {
    return writer.bytesWritten();
  }

  /**
   * The footer {@link #close()} wrote (row groups, column statistics), for a table's data file
   * metrics.
   *
   * @throws IllegalStateException before the file is closed
   */
  public FileMetaData footer() {
    return writer.footer();
  }

  /** Writes the open row group now. */
  public void flushRowGroup() throws IOException {
    writer.flushRowGroup();
  }

  /** Writes the last row group and the footer; closes the stream. A second call does nothing. */
  @Override
  public void close() throws IOException {
    writer.close();
  }
}
