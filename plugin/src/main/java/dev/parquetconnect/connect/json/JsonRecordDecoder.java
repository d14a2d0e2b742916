package dev.parquetconnect.connect.json;

import java.nio.charset.StandardCharsets;
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

  /**
   * @param envelopes {@code input.json.schemas.enable}
   * @param keys whether keys are raw JSON as well ({@code input.json.key} with the key stored)
   */
  public JsonRecordDecoder(boolean envelopes, boolean keys) {
    this.envelopes = envelopes;
    this.keys = keys;
  }

  /** The record with its JSON read into Connect values. */
  public SinkRecord decode(SinkRecord record) {
    SchemaAndValue value = decode(record.value(), "value");
    Schema keySchema = record.keySchema();
    Object key = record.key();
    if (keys) {
      SchemaAndValue k = decode(key, "key");
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
      return convert(bytes, envelope.get("payload"), part);
    } catch (MalformedJsonException e) {
      throw new DataException("the " + part + " is not valid JSON: " + e.getMessage());
    }
  }

  private SchemaAndValue convert(byte[] bytes, Object payload, String part)
      throws MalformedJsonException {
    Schema schema;
    try {
      schema = schemas.schemaOf(bytes, schemaRange[0], schemaRange[1]);
    } catch (DataException e) {
      throw new DataException(
          "the " + part + "'s envelope schema is invalid: " + e.getMessage(), e);
    }
    try {
      return new SchemaAndValue(schema, EnvelopeValues.convert(schema, payload));
    } catch (DataException e) {
      throw new DataException(
          "the " + part + "'s payload does not fit its schema: " + e.getMessage(), e);
    }
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
