package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.StagedRow;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * {@code input.format=json}: turns a record whose value (and, when asked, key) is raw UTF-8 JSON
 * from ByteArrayConverter or StringConverter into the record JsonConverter would have given the
 * task, so everything after it (partitioning, schema inference and widening, the shredders, bad
 * records) is the connect path unchanged and writes the same bytes. JSON that JsonConverter would
 * refuse, and schemas or payloads it would refuse, are a {@link DataException} naming the part and
 * the byte; the task makes it a bad record like any other (topic, partition and offset added). One
 * instance per task: it keeps its reader's scratch and the envelope schemas between records.
 */
public final class JsonRecordDecoder {
  private final boolean envelopes;
  private final boolean keys;
  private final JsonReader reader = new JsonReader();
  private final EnvelopeSchemas schemas = new EnvelopeSchemas();
  private final int[] schemaRange = new int[2];
  private final SchemaDirectedReader directed = new SchemaDirectedReader();
  private final StagedPayloadReader staging = new StagedPayloadReader();
  private final SchemalessStagedReader schemaless = new SchemalessStagedReader();

  /**
   * The last envelope's bytes up to its payload ({@code {"schema":...,"payload":}}), of length
   * {@link #prefixLength} (0: none), and the schema they hold: a topic's records repeat them byte
   * for byte, so one comparison of those bytes stands for reading and looking up the schema.
   */
  private byte[] prefix = new byte[0];

  private int prefixLength;
  private Schema prefixSchema;
  private long directRecords;
  private long stagedRecords;

  /**
   * The keys' own decoder (null unless keys are raw JSON): its envelope prefix and schemas are the
   * keys', as JsonConverter has a key converter apart from the value's, so a topic's keys and
   * values each keep their known prefix and are read from it (a key of a primitive schema straight
   * into its String or number, a flat struct by schema into its Struct).
   */
  private final JsonRecordDecoder keyDecoder;

  /**
   * @param envelopes {@code input.json.schemas.enable}
   * @param keys whether keys are raw JSON as well ({@code input.json.key} with the key stored)
   */
  public JsonRecordDecoder(boolean envelopes, boolean keys) {
    this.envelopes = envelopes;
    this.keys = keys;
    this.keyDecoder = keys ? new JsonRecordDecoder(envelopes, false) : null;
  }

  /** The record with its JSON read into Connect values. */
  public SinkRecord decode(SinkRecord record) {
    SchemaAndValue value = decode(record.value(), "value");
    if (!envelopes && record.value() instanceof byte[] bytes) {
      schemaless.learn(reader, record.topic(), bytes, value.value());
    }
    Schema keySchema = record.keySchema();
    Object key = record.key();
    if (keys) {
      SchemaAndValue k = keyDecoder.decode(key, "key");
      keySchema = k.schema();
      key = k.value();
    }
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        keySchema,
        key,
        value.schema(),
        value.value(),
        record.timestamp(),
        record.headers());
  }

  /**
   * Whether {@link #stage} can take values at all: envelopes, and schemaless documents by the shape
   * learned per topic from the documents read the map way ({@link SchemalessStagedReader}).
   */
  public boolean stagesValues() {
    return true;
  }

  /**
   * The raw value read straight into the row of its schema when it is an envelope of the common
   * shape whose bytes up to the payload are the last envelope's (see {@link StagedPayloadReader}),
   * or a schemaless document of a learned shape ({@link SchemalessStagedReader}); null otherwise,
   * nothing decided: the record is then read with {@link #decode}, which gives its meaning or its
   * error. The row is reused by the next call of the same schema.
   */
  public StagedRow stage(Object raw) {
    if (!envelopes) {
      return raw instanceof byte[] bytes ? schemaless.stage(reader, bytes) : null;
    }
    if (prefixLength == 0
        || !(raw instanceof byte[] bytes)
        || bytes.length <= prefixLength
        || !Arrays.equals(prefix, 0, prefixLength, bytes, 0, prefixLength)) {
      return null;
    }
    StagedPayloadReader.Plan plan = staging.plan(prefixSchema);
    if (plan == null) {
      return null;
    }
    plan.row.start(bytes);
    try {
      reader.resumeStaged(bytes, prefixLength, staging, plan);
    } catch (MalformedJsonException | SchemaDirectedReader.NotDirect e) {
      return null;
    }
    return plan.row;
  }

  /**
   * {@code record} with its key decoded when keys are raw JSON too (the value left raw), else
   * {@code record} itself; null when the key is not valid JSON (the record is then read with {@link
   * #decode}, which names the error).
   */
  public SinkRecord withDecodedKey(SinkRecord record) {
    if (!keys) {
      return record;
    }
    SchemaAndValue k;
    try {
      k = keyDecoder.decode(record.key(), "key");
    } catch (DataException e) {
      return null;
    }
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        k.schema(),
        k.value(),
        record.valueSchema(),
        record.value(),
        record.timestamp(),
        record.headers());
  }

  /** Counts a record written from its staged row (tests, the differential's report). */
  public void countStaged() {
    stagedRecords++;
  }

  /** How many records were written from their staged rows (tests). */
  public long stagedRecords() {
    return stagedRecords;
  }

  /** The Connect schema and value of one raw JSON part. */
  public SchemaAndValue decode(Object raw, String part) {
    if (raw == null) {
      return SchemaAndValue.NULL;
    }
    byte[] bytes;
    if (raw instanceof byte[] b) {
      bytes = b;
    } else if (raw instanceof String s) {
      bytes = s.getBytes(StandardCharsets.UTF_8);
    } else {
      throw new DataException(
          "input.format=json reads raw JSON, but the "
              + part
              + " is a "
              + raw.getClass().getSimpleName()
              + ": set the "
              + part
              + ".converter to ByteArrayConverter or StringConverter");
    }
    try {
      if (!envelopes) {
        Object value = reader.read(bytes, false);
        return new SchemaAndValue(null, value == JsonReader.MISSING ? null : value);
      }
      if (prefixLength > 0
          && bytes.length > prefixLength
          && Arrays.equals(prefix, 0, prefixLength, bytes, 0, prefixLength)) {
        SchemaAndValue fast = resumed(bytes);
        if (fast != null) {
          return fast;
        }
      }
      Map<String, Object> envelope = reader.readEnvelope(bytes, schemaRange);
      if (envelope == null) {
        reader.read(bytes, true); // a syntax error first, as JsonConverter reports it
        throw notAnEnvelope(part);
      }
      if (envelope.size() != 2
          || !envelope.containsKey("schema")
          || !envelope.containsKey("payload")) {
        throw notAnEnvelope(part);
      }
      Schema schema = schema(bytes, part);
      int payloadAt = reader.payloadAt();
      if (payloadAt > 0 && schemaRange[1] <= payloadAt) {
        remember(bytes, payloadAt, schema);
      }
      return convert(schema, envelope.get("payload"), part);
    } catch (MalformedJsonException e) {
      throw new DataException("the " + part + " is not valid JSON: " + e.getMessage());
    }
  }

  /**
   * The envelope read from the end of its known prefix, its payload by the prefix's schema; null
   * where that is not the whole story (a malformed or unusual record, a member after the payload, a
   * payload the directed reader leaves), and the caller reads the record from its start.
   */
  private SchemaAndValue resumed(byte[] bytes) {
    Object payload;
    try {
      payload = reader.resumeEnvelope(bytes, prefixLength, directed, prefixSchema);
    } catch (MalformedJsonException | SchemaDirectedReader.NotDirect e) {
      return null;
    }
    directRecords++;
    return new SchemaAndValue(prefixSchema, payload);
  }

  private Schema schema(byte[] bytes, String part) throws MalformedJsonException {
    try {
      return schemas.schemaOf(bytes, schemaRange[0], schemaRange[1]);
    } catch (DataException e) {
      throw new DataException(
          "the " + part + "'s envelope schema is invalid: " + e.getMessage(), e);
    }
  }

  private void remember(byte[] bytes, int length, Schema schema) {
    if (prefix.length < length) {
      prefix = new byte[Math.max(length, 2 * prefix.length)];
    }
    System.arraycopy(bytes, 0, prefix, 0, length);
    prefixLength = length;
    prefixSchema = schema;
  }

  private SchemaAndValue convert(Schema schema, Object payload, String part) {
    try {
      return new SchemaAndValue(schema, EnvelopeValues.convert(schema, payload));
    } catch (DataException e) {
      throw new DataException(
          "the " + part + "'s payload does not fit its schema: " + e.getMessage(), e);
    }
  }

  /** How many envelopes were read from their known prefix with their payload by schema (tests). */
  long directRecords() {
    return directRecords;
  }

  /** How many envelope schemas are kept, each parsed once (tests). */
  int schemasKept() {
    return schemas.size();
  }

  private static DataException notAnEnvelope(String part) {
    return new DataException(
        "the "
            + part
            + " is not a JSON envelope: with input.json.schemas.enable=true it must be an object "
            + "with exactly the fields \"schema\" and \"payload\"");
  }
}
