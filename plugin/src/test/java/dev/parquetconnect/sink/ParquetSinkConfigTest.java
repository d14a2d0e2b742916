package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.StoreSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

final class ParquetSinkConfigTest {

  static Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, "file:///data/lake");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  /** The REST validate call's verdict: the error messages per key, only keys with errors. */
  static Map<String, List<String>> validate(Map<String, String> props) {
    Config config = new ParquetSinkConnector().validate(props);
    return config.configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void defaultsNeedOnlyTheStoreUrl() {
    ParquetSinkConfig config = new ParquetSinkConfig(props());
    assertEquals("file:///data/lake", config.storeUrl());
    assertEquals("topics", config.topicsDir());
    assertEquals("kafka", config.partitioner());
    assertEquals(CompressionCodec.ZSTD, config.codec());
    assertEquals(Codecs.DEFAULT_LEVEL, config.codecLevel());
    assertEquals("v1", config.pageVersion());
    assertEquals("adaptive", config.encodingPolicy());
    assertTrue(config.storeKafkaMetadata());
    assertFalse(config.storeKafkaKey());
    assertFalse(config.storeKafkaHeaders());
    assertEquals(ParquetSinkConfig.SchemaCompatibility.NONE, config.schemaCompatibility());
    assertEquals(ParquetSinkConfig.NullValueBehavior.FAIL, config.nullValueBehavior());
    assertFalse(config.toleratesErrors());
    assertEquals("lake-sink", config.connectorName());
    assertEquals(Map.of(), validate(props()));
  }

  @Test
  void pagesAreCutByBytesUnlessARowCapIsSet() {
    assertEquals(
        WriterOptions.DEFAULT_PAGE_ROW_LIMIT,
        ParquetFiles.writerOptions(new ParquetSinkConfig(props())).pageRowLimit());
    assertEquals(
        20_000,
        ParquetFiles.writerOptions(
                new ParquetSinkConfig(props(ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, "20000")))
            .pageRowLimit());
    assertEquals(
        List.of(ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG),
        List.copyOf(validate(props(ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG, "-1")).keySet()));
  }

  @Test
  void everyKeyIsDocumentedAndGrouped() {
    for (ConfigDef.ConfigKey key : ParquetSinkConfig.CONFIG_DEF.configKeys().values()) {
      assertTrue(key.documentation != null && key.documentation.length() > 20, key.name);
      assertNotNull(key.group, key.name);
      assertNotNull(key.displayName, key.name);
    }
  }

  @Test
  void singleKeysAreValidated() {
    assertThrows(ConfigException.class, () -> new ParquetSinkConfig(Map.of("name", "x")));
    Map<String, List<String>> errors =
        validate(
            props(
                ParquetSinkConfig.STORE_URL_CONFIG, "s3://AKIAXX:secretvalue@bucket/p",
                ParquetSinkConfig.TOPICS_DIR_CONFIG, "a/../b",
                ParquetSinkConfig.TIMEZONE_CONFIG, "Mars/Olympus",
                ParquetSinkConfig.PARQUET_CODEC_CONFIG, "lzo",
                ParquetSinkConfig.FLUSH_SIZE_CONFIG, "0",
                ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "explode"));
    assertEquals(
        List.of(
            ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG,
            ParquetSinkConfig.FLUSH_SIZE_CONFIG,
            ParquetSinkConfig.PARQUET_CODEC_CONFIG,
            ParquetSinkConfig.STORE_URL_CONFIG,
            ParquetSinkConfig.TIMEZONE_CONFIG,
            ParquetSinkConfig.TOPICS_DIR_CONFIG),
        errors.keySet().stream().sorted().toList());
    assertFalse(errors.toString().contains("secretvalue"), "no secret in the answer: " + errors);
    assertFalse(validate(props(ParquetSinkConfig.STORE_URL_CONFIG, "file:relative")).isEmpty());
    assertFalse(validate(props(ParquetSinkConfig.TOPICS_DIR_CONFIG, "_hidden")).isEmpty());
  }

  @Test
  void crossFieldProblemsAreReportedOnTheKeyAtFault() {
    assertEquals(
        Map.of(
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            List.of("partition.field.name: partitioner.class=field needs at least one field")),
        validate(props(ParquetSinkConfig.PARTITIONER_CONFIG, "field")));
    assertTrue(
        validate(props(ParquetSinkConfig.PARTITIONER_CONFIG, "header"))
            .containsKey(ParquetSinkConfig.PARTITION_HEADERS_CONFIG));
    assertTrue(
        validate(
                props(
                    ParquetSinkConfig.PARTITIONER_CONFIG,
                    "time",
                    ParquetSinkConfig.PATH_FORMAT_CONFIG,
                    "yyyy/MM"))
            .get(ParquetSinkConfig.PATH_FORMAT_CONFIG)
            .get(0)
            .contains("not name=value"));
    assertTrue(
        validate(
                props(
                    ParquetSinkConfig.PARTITIONER_CONFIG,
                    "time",
                    ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG,
                    "field"))
            .containsKey(ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG));
    assertTrue(
        validate(props(ParquetSinkConfig.PARTITIONER_CONFIG, "com.example.Nope"))
            .get(ParquetSinkConfig.PARTITIONER_CONFIG)
            .get(0)
            .contains("no such class"));
    assertTrue(
        validate(props(ParquetSinkConfig.PARTITIONER_CONFIG, String.class.getName()))
            .get(ParquetSinkConfig.PARTITIONER_CONFIG)
            .get(0)
            .contains("does not implement"));
    assertEquals(
        Map.of(),
        validate(props(ParquetSinkConfig.PARTITIONER_CONFIG, TenantPartitioner.class.getName())));
    assertTrue(
        validate(
                props(
                    ParquetSinkConfig.PARQUET_CODEC_CONFIG,
                    "snappy",
                    ParquetSinkConfig.PARQUET_CODEC_LEVEL_CONFIG,
                    "3"))
            .containsKey(ParquetSinkConfig.PARQUET_CODEC_LEVEL_CONFIG));
    assertTrue(
        validate(props(ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG, "0"))
            .containsKey(ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG));
    assertTrue(validate(props("aws.access.key.id", "AKIA")).containsKey("aws.secret.access.key"));
    assertTrue(validate(props("s3.sse.type", "sse-c")).containsKey("s3.sse.c.key"));
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> new ParquetSinkConfig(props(ParquetSinkConfig.PARTITIONER_CONFIG, "field")));
    assertTrue(e.getMessage().contains(ParquetSinkConfig.PARTITION_FIELDS_CONFIG), e.getMessage());
  }

  @Test
  void storeSettingsCarryStorageKeysSecretsAsSecretsAndHadoopPassThrough() {
    ParquetSinkConfig config =
        new ParquetSinkConfig(
            props(
                ParquetSinkConfig.STORE_URL_CONFIG,
                "s3://lake/raw",
                "aws.access.key.id",
                "AKIAEXAMPLE",
                "aws.secret.access.key",
                "s3cr3t",
                "s3.endpoint",
                "http://127.0.0.1:9000",
                "hadoop.config.dfs.replication",
                "2",
                ParquetSinkConfig.FLUSH_SIZE_CONFIG,
                "5"));
    StoreSettings settings = config.storeSettings();
    assertEquals(Secret.of("s3cr3t"), settings.secret("aws.secret.access.key"));
    assertEquals("http://127.0.0.1:9000", settings.string("s3.endpoint", null));
    assertEquals(8L * 1024 * 1024, settings.longValue("s3.part.size", 0));
    assertEquals(Map.of("dfs.replication", "2"), settings.withPrefix("hadoop.config."));
    assertFalse(settings.has(ParquetSinkConfig.FLUSH_SIZE_CONFIG));
    assertFalse(config.toString().contains("s3cr3t"));
    assertFalse(settings.toString().contains("s3cr3t"));
  }

  @Test
  void confluentPartitioningHabitsAreValidated() {
    String timeBased = "io.confluent.connect.storage.partitioner.TimeBasedPartitioner";
    assertEquals(
        Map.of(),
        validate(
            props(
                ParquetSinkConfig.PARTITIONER_CONFIG,
                timeBased,
                ParquetSinkConfig.PATH_FORMAT_CONFIG,
                "'year'=YYYY/'month'=MM",
                ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG,
                "3600000",
                ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG,
                "RecordField",
                ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG,
                "at")));
    assertTrue(
        validate(
                props(
                    ParquetSinkConfig.PARTITIONER_CONFIG,
                    "time",
                    ParquetSinkConfig.PATH_FORMAT_CONFIG,
                    "'year'=YYYY/'month'=MM"))
            .get(ParquetSinkConfig.PATH_FORMAT_CONFIG)
            .get(0)
            .contains("week-based year"));
    assertTrue(
        validate(
                props(
                    ParquetSinkConfig.PARTITIONER_CONFIG,
                    timeBased,
                    ParquetSinkConfig.PATH_FORMAT_CONFIG,
                    "'week'=ww"))
            .containsKey(ParquetSinkConfig.PATH_FORMAT_CONFIG));
    assertEquals(
        List.of(
            ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG, ParquetSinkConfig.PATH_FORMAT_CONFIG),
        validate(
                props(
                    ParquetSinkConfig.PARTITIONER_CONFIG,
                    "daily",
                    ParquetSinkConfig.PATH_FORMAT_CONFIG,
                    "'dt'=yyyy-MM-dd",
                    ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG,
                    "3600000"))
            .keySet()
            .stream()
            .sorted()
            .toList());
    assertTrue(
        validate(props(ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG, "0"))
            .containsKey(ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG));
  }

  @Test
  void theTaskReadsConnectsErrorsTolerance() {
    assertTrue(new ParquetSinkConfig(props("errors.tolerance", "all")).toleratesErrors());
    assertFalse(new ParquetSinkConfig(props("errors.tolerance", "none")).toleratesErrors());
  }

  @Test
  void storeKeysAreVisibleOnlyForTheirScheme() {
    Map<String, ConfigValue> s3 =
        byName(
            new ParquetSinkConnector()
                .validate(props(ParquetSinkConfig.STORE_URL_CONFIG, "s3://b/p")));
    assertTrue(s3.get("s3.region").visible());
    assertFalse(s3.get("hdfs.user").visible());
    Map<String, ConfigValue> local = byName(new ParquetSinkConnector().validate(props()));
    assertFalse(local.get("s3.region").visible());
    assertFalse(local.get(ParquetSinkConfig.PATH_FORMAT_CONFIG).visible());
  }

  private static Map<String, ConfigValue> byName(Config config) {
    return config.configValues().stream().collect(Collectors.toMap(ConfigValue::name, v -> v));
  }
}
