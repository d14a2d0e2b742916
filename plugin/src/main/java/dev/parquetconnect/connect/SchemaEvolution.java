package dev.parquetconnect.connect;

import java.util.Objects;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaProjector;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Decides, per record, whether it goes into the open file as it is, projected to the file's schema,
 * or into a new file, following {@code schema.compatibility}; and gives the new file's layout. Keys
 * (when stored) and values are decided alike; a record needs a new file if either does.
 *
 * <p>Records with schemas:
 *
 * <ul>
 *   <li>the same schema ({@code equals}) as the file: {@link Action#WRITE};
 *   <li>NONE: any other schema: {@link Action#NEW_FILE};
 *   <li>BACKWARD and FULL: the file keeps the newest schema. With versions on both schemas (Avro,
 *       Protobuf and JSON Schema converters set them), a newer record opens a new file and an older
 *       one is {@link Action#PROJECT projected} to the file's schema when Connect's {@code
 *       SchemaProjector}'s rules allow it (same names, numeric promotion, fields it lacks optional
 *       or defaulted), with parameters compared only where they are data ({@link SchemaParameters}:
 *       docs and other converter metadata are not; a decimal's scale and precision must be equal;
 *       an enum's symbols must be among the file's, so a version that adds symbols takes older
 *       records and one that removes symbols does not). Without versions, a record is projected
 *       only when the file's schema is a superset (the projection drops nothing, and widens no
 *       number to a type that would round it: int32 or int64 to float32, int64 to float64);
 *       otherwise it opens a new file;
 *   <li>FORWARD: the file keeps the oldest schema: with versions, an older record opens a new file
 *       and a newer one is projected (dropping fields the file lacks; a newer version that removed
 *       enum symbols is projected, one that added symbols is not); without versions, any record the
 *       projector can project is projected.
 * </ul>
 *
 * NONE compares whole schemas, docs and versions included: a file holds records of one schema only,
 * which replay restores exactly. A projected record is restored with the file's schema (its docs,
 * version and symbols), as every projected record is.
 *
 * <p>So two schema versions interleaved cost one extra file, not a file per record: once the file
 * holds the newer (BACKWARD/FULL) or older (FORWARD) one, the other is projected to it.
 *
 * <p>Schemaless records (null schema, a map, list or primitive value): the record is written when
 * its value {@link SchemaInference#fits fits} the file's inferred schema; otherwise the {@link
 * SchemaInference#merge merge} of both, which records of either shape then fit, becomes the open
 * file's layout when that leaves its rows as written ({@link ParquetRecordWriter#reshape}), else a
 * new file's. {@link #widest} keeps what a topic's files learned, where new files start. A record
 * with a schema never shares a file with schemaless ones.
 *
 * <p>A null key or value (a tombstone) fits any file; whether it may be written is the writer's
 * concern ({@link MappingOptions#tombstones()}).
 */
public final class SchemaEvolution {
  /** What to do with a record. */
  public enum Action {
    /** Write it to the open file as it is. */
    WRITE,
    /** Write {@link #project(SinkRecord, FileLayout)} of it to the open file. */
    PROJECT,
    /** Close the file; open one with {@link #layoutFor(SinkRecord, FileLayout, MappingOptions)}. */
    NEW_FILE
  }

  private final SchemaCompatibility compatibility;
  private final SchemaInference inference;

  /** The last {@link #decide(Schema, Schema)}: a task's records arrive on one thread. */
  private Schema lastFileSchema;

  private Schema lastRecordSchema;
  private Action lastAction;

  public SchemaEvolution(SchemaCompatibility compatibility, SchemaInference inference) {
    this.compatibility = Objects.requireNonNull(compatibility, "compatibility");
    this.inference = Objects.requireNonNull(inference, "inference");
  }

  public SchemaCompatibility compatibility() {
    return compatibility;
  }

  public SchemaInference inference() {
    return inference;
  }

  // ---- records

  /** What to do with {@code record} given the open file's {@code layout}. */
  public Action decide(FileLayout layout, SinkRecord record) {
    Action value =
        decideSide(
            layout.valueSchema(), layout.valueSchemaless(), record.valueSchema(), record.value());
    if (value == Action.NEW_FILE || !layout.options().kafkaKey()) {
      return value;
    }
    Action key =
        decideSide(layout.keySchema(), layout.keySchemaless(), record.keySchema(), record.key());
    if (key == Action.NEW_FILE) {
      return key;
    }
    return key == Action.PROJECT ? key : value;
  }

  private Action decideSide(
      Schema fileSchema, boolean fileSchemaless, Schema recordSchema, Object value) {
    if (value == null) {
      return Action.WRITE;
    }
    if (recordSchema == null) {
      return fileSchemaless && inference.fits(fileSchema, value) ? Action.WRITE : Action.NEW_FILE;
    }
    if (fileSchema == null || fileSchemaless) {
      return Action.NEW_FILE;
    }
    return decide(fileSchema, recordSchema);
  }

  /** The record with its key and value projected to the file's schemas. */
  public SinkRecord project(SinkRecord record, FileLayout layout) {
    Schema valueSchema = record.valueSchema();
    Object value = record.value();
    if (value != null
        && valueSchema != null
        && layout.valueSchema() != null
        && !layout.valueSchemaless()) {
      value = projectValue(valueSchema, value, layout.valueSchema(), "value");
      valueSchema = layout.valueSchema();
    }
    Schema keySchema = record.keySchema();
    Object key = record.key();
    if (key != null && keySchema != null && layout.keySchema() != null && !layout.keySchemaless()) {
      key = projectValue(keySchema, key, layout.keySchema(), "key");
      keySchema = layout.keySchema();
    }
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        keySchema,
        key,
        valueSchema,
        value,
        record.timestamp(),
        record.headers());
  }

  /**
   * The layout of the file a {@link Action#NEW_FILE} record opens. For schemaless data it is the
   * merge of the current file's inferred schema (if any) and the record's, so records of the old
   * shape keep fitting. Call it before closing the current file: under {@link
   * SchemaInference.ConflictPolicy#FAIL} a record whose types conflict with the file's throws
   * {@link DataException} here, and belongs in the dead letter queue, not in a new file.
   */
  public FileLayout layoutFor(SinkRecord record, FileLayout current, MappingOptions options) {
    Schema valueSchema = record.valueSchema();
    boolean valueSchemaless = false;
    if (valueSchema == null && record.value() != null) {
      valueSchemaless = true;
      Schema previous = current != null && current.valueSchemaless() ? current.valueSchema() : null;
      valueSchema = inference.merge(previous, inference.infer(record.value()));
    } else if (valueSchema == null && current != null) {
      // A tombstone opens no new shape: keep the current one so later records still fit.
      valueSchema = current.valueSchema();
      valueSchemaless = current.valueSchemaless();
    }
    Schema keySchema = null;
    boolean keySchemaless = false;
    if (options.kafkaKey()) {
      keySchema = record.keySchema();
      if (keySchema == null && record.key() != null) {
        keySchemaless = true;
        Schema previous = current != null && current.keySchemaless() ? current.keySchema() : null;
        keySchema = inference.merge(previous, inference.infer(record.key()));
      } else if (keySchema == null && current != null) {
        keySchema = current.keySchema();
        keySchemaless = current.keySchemaless();
      }
    }
    return FileLayout.of(keySchema, keySchemaless, valueSchema, valueSchemaless, options);
  }

  /**
   * The wider of two layouts of one topic, for the layout new files start from: schemaless schemas
   * {@link SchemaInference#merge merged}; schemas of records the one a value of the other is
   * written to (projected) by {@link #decide(Schema, Schema)}, {@code candidate}'s when neither or
   * both; a side one of them lacks (no key or value seen yet) taken from the other.
   *
   * @throws DataException when the schemaless schemas conflict under the failing policy
   */
  public FileLayout widest(FileLayout known, FileLayout candidate, MappingOptions options) {
    Schema[] value =
        widerSide(
            known.valueSchema(),
            known.valueSchemaless(),
            candidate.valueSchema(),
            candidate.valueSchemaless());
    Schema[] key =
        widerSide(
            known.keySchema(),
            known.keySchemaless(),
            candidate.keySchema(),
            candidate.keySchemaless());
    return FileLayout.of(key[0], key[1] != null, value[0], value[1] != null, options);
  }

  /** {schema, non-null when schemaless}. */
  private Schema[] widerSide(
      Schema known, boolean knownSchemaless, Schema candidate, boolean candidateSchemaless) {
    if (candidate == null) {
      return new Schema[] {known, knownSchemaless ? known : null};
    }
    if (known == null || knownSchemaless != candidateSchemaless) {
      return new Schema[] {candidate, candidateSchemaless ? candidate : null};
    }
    if (candidateSchemaless) {
      Schema merged = inference.merge(known, candidate);
      return new Schema[] {merged, merged};
    }
    if (decide(candidate, known) == Action.NEW_FILE
        && decide(known, candidate) != Action.NEW_FILE) {
      return new Schema[] {known, null};
    }
    return new Schema[] {candidate, null};
  }

  // ---- schemas

  /** What to do with a value of {@code recordSchema} in a file of {@code fileSchema}. */
  public Action decide(Schema fileSchema, Schema recordSchema) {
    if (fileSchema == recordSchema) {
      return Action.WRITE;
    }
    // Converters hand out one Schema instance per version: a run of older records into a newer
    // file asks the same question each time, and the answer walks both trees.
    if (fileSchema == lastFileSchema && recordSchema == lastRecordSchema) {
      return lastAction;
    }
    Action action = decideUncached(fileSchema, recordSchema);
    lastFileSchema = fileSchema;
    lastRecordSchema = recordSchema;
    lastAction = action;
    return action;
  }

  private Action decideUncached(Schema fileSchema, Schema recordSchema) {
    if (fileSchema.equals(recordSchema)) {
      return Action.WRITE;
    }
    if (compatibility == SchemaCompatibility.NONE) {
      return Action.NEW_FILE;
    }
    Integer fileVersion = fileSchema.version();
    Integer recordVersion = recordSchema.version();
    boolean versioned =
        fileVersion != null && recordVersion != null && !fileVersion.equals(recordVersion);
    boolean keepNewest = compatibility != SchemaCompatibility.FORWARD;
    if (versioned) {
      boolean recordNewer = recordVersion > fileVersion;
      if (recordNewer == keepNewest) {
        return Action.NEW_FILE; // the record's schema is the one the file should hold
      }
      return canProject(recordSchema, fileSchema, true) ? Action.PROJECT : Action.NEW_FILE;
    }
    // No versions to order the schemas by: BACKWARD and FULL project only without loss; FORWARD
    // accepts dropping what the file's (older) schema does not know.
    return canProject(recordSchema, fileSchema, !keepNewest) ? Action.PROJECT : Action.NEW_FILE;
  }

  /**
   * Whether Connect's {@code SchemaProjector} projects values of {@code source} to {@code target};
   * with {@code allowDrop} false, also that nothing is lost: every source struct field has a place
   * in the target, and every number a value of the same number.
   */
  static boolean canProject(Schema source, Schema target, boolean allowDrop) {
    if (source.type() != target.type() && !isPromotable(source.type(), target.type())) {
      return false;
    }
    // The projector widens int64 to a double (and int32 to a float) by rounding: 2^53 + 1
    // becomes 2^53. Only a record whose version says its schema is the older one (or FORWARD)
    // may be rounded so; without versions a lossless projection must keep every value.
    if (!allowDrop && source.type() != target.type() && !isExact(source.type(), target.type())) {
      return false;
    }
    // Names are compared (a logical type's, a record's or enum's, which Avro resolves by name);
    // of the parameters only those that are data (SchemaParameters): docs are not.
    if (!Objects.equals(source.name(), target.name())
        || !SchemaParameters.allowProjection(source, target)) {
      return false;
    }
    if (source.isOptional() && !target.isOptional() && target.defaultValue() == null) {
      return false;
    }
    switch (target.type()) {
      case STRUCT:
        for (Field t : target.fields()) {
          Field s = source.field(t.name());
          if (s == null) {
            if (!t.schema().isOptional() && t.schema().defaultValue() == null) {
              return false;
            }
          } else if (!canProject(s.schema(), t.schema(), allowDrop)) {
            return false;
          }
        }
        if (!allowDrop) {
          for (Field s : source.fields()) {
            if (target.field(s.name()) == null) {
              return false;
            }
          }
        }
        return true;
      case ARRAY:
        return canProject(source.valueSchema(), target.valueSchema(), allowDrop);
      case MAP:
        return canProject(source.keySchema(), target.keySchema(), allowDrop)
            && canProject(source.valueSchema(), target.valueSchema(), allowDrop);
      default:
        return true;
    }
  }

  private static boolean isPromotable(Schema.Type from, Schema.Type to) {
    int f = numericOrder(from);
    int t = numericOrder(to);
    return f >= 0 && t >= f;
  }

  /** Whether every value of the (promotable) {@code from} is a value of {@code to}. */
  private static boolean isExact(Schema.Type from, Schema.Type to) {
    return switch (to) {
      case FLOAT32 -> from == Schema.Type.INT8 || from == Schema.Type.INT16;
      case FLOAT64 -> from != Schema.Type.INT64;
      default -> true; // a wider integer
    };
  }

  private static int numericOrder(Schema.Type type) {
    return switch (type) {
      case INT8 -> 0;
      case INT16 -> 1;
      case INT32 -> 2;
      case INT64 -> 3;
      case FLOAT32 -> 4;
      case FLOAT64 -> 5;
      default -> -1;
    };
  }

  /** Whether every schema in the two trees has the same parameters as its counterpart. */
  private static boolean sameParameters(Schema source, Schema target) {
    if (!Objects.equals(source.parameters(), target.parameters())) {
      return false;
    }
    switch (target.type()) {
      case STRUCT:
        for (Field t : target.fields()) {
          Field s = source.type() == Schema.Type.STRUCT ? source.field(t.name()) : null;
          if (s != null && !sameParameters(s.schema(), t.schema())) {
            return false;
          }
        }
        return true;
      case ARRAY:
        return sameParameters(source.valueSchema(), target.valueSchema());
      case MAP:
        return sameParameters(source.keySchema(), target.keySchema())
            && sameParameters(source.valueSchema(), target.valueSchema());
      default:
        return true;
    }
  }

  private static Object projectValue(Schema source, Object value, Schema target, String what) {
    if (source == target || source.equals(target)) {
      return value;
    }
    try {
      if (!sameParameters(source, target)) {
        // Connect's projector refuses any difference in parameters; decide() allowed these.
        return ValueProjection.project(source, value, target, "the record's " + what);
      }
      return SchemaProjector.project(source, value, target);
    } catch (DataException e) {
      throw new DataException(
          "the record's "
              + what
              + " cannot be projected from "
              + ConnectTypes.describe(source)
              + " to the file's "
              + ConnectTypes.describe(target)
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
