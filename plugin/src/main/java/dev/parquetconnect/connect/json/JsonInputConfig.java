package dev.parquetconnect.connect.json;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The sink's keys of the converter-free JSON input ({@code input.*}), defined in one group. */
public final class JsonInputConfig {
  public static final String INPUT_FORMAT_CONFIG = "input.format";
  public static final String FORMAT_CONNECT = "connect";
  public static final String FORMAT_JSON = "json";
  public static final String INPUT_JSON_SCHEMAS_ENABLE_CONFIG = "input.json.schemas.enable";
  public static final String INPUT_JSON_KEY_CONFIG = "input.json.key";

  private static final String GROUP = "Input format";

  private JsonInputConfig() {}

  /** Adds the keys to the sink's definition. */
  public static void define(ConfigDef def) {
    int order = 0;
    def.define(
        INPUT_FORMAT_CONFIG,
        Type.STRING,
        FORMAT_CONNECT,
        ConfigDef.CaseInsensitiveValidString.in(FORMAT_CONNECT, FORMAT_JSON),
        Importance.MEDIUM,
        "connect: record values are whatever the worker's value.converter made of them. json: "
            + "values arrive as raw UTF-8 JSON (value.converter set to Kafka's "
            + "ByteArrayConverter or StringConverter) and the sink reads them itself, with the "
            + "meaning JsonConverter gives them (schemaless JSON, or the schema/payload envelope "
            + "with input.json.schemas.enable), so the files are the same as through "
            + "JsonConverter but the worker's conversion and its JSON tree are skipped. A value "
            + "that is not such JSON is a bad record (errors.tolerance), named by topic, "
            + "partition, offset and byte. See docs/json-input.md.",
        GROUP,
        ++order,
        Width.SHORT,
        "Input format");
    def.define(
        INPUT_JSON_SCHEMAS_ENABLE_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "With input.format=json: whether each value is JsonConverter's envelope "
            + "{\"schema\": ..., \"payload\": ...} (as its schemas.enable=true); each distinct "
            + "schema is parsed once and recognised again by its bytes. False: plain JSON, "
            + "written schemaless.",
        GROUP,
        ++order,
        Width.SHORT,
        "JSON envelopes");
    def.define(
        INPUT_JSON_KEY_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "With input.format=json and store.kafka.key=true: whether record keys are raw JSON too "
            + "(key.converter set to ByteArrayConverter or StringConverter) and are read like the "
            + "values (same envelope setting). False: keys are stored as the key.converter gives "
            + "them.",
        GROUP,
        ++order,
        Width.SHORT,
        "JSON keys");
  }
}
