package dev.parquetconnect.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.source.ParquetSourceConfig;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.StoreSettings;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

/**
 * A connector config becomes store settings one way, for the sink as for the source: the store keys
 * parsed (their defaults included), secrets as storage's own {@link Secret}, and the Hadoop
 * pass-through keys; storage reads no Kafka type.
 */
final class ConnectorStoreSettingsTest {
  @Test
  void storeKeysSecretsAndHadoopPassThroughOnly() {
    ParquetSourceConfig config =
        new ParquetSourceConfig(
            Map.of(
                "store.url", "s3://lake/raw",
                "aws.access.key.id", "AKIAEXAMPLE",
                "aws.secret.access.key", " s3cr3t ",
                "s3.part.size", "6000000",
                "hadoop.config.dfs.replication", "2",
                "batch.size", "5"));
    StoreSettings settings = ConnectorStoreSettings.of(config);
    assertEquals(Secret.of("s3cr3t"), settings.secret("aws.secret.access.key"));
    assertEquals(6_000_000L, settings.longValue("s3.part.size", 0));
    assertEquals(
        8L * 1024 * 1024,
        ConnectorStoreSettings.of(new ParquetSourceConfig(Map.of("store.url", "s3://lake/raw")))
            .longValue("s3.part.size", 0));
    assertEquals("none", settings.string("s3.sse.type", null));
    assertEquals(Map.of("dfs.replication", "2"), settings.withPrefix("hadoop.config."));
    assertFalse(settings.has("batch.size"));
    assertFalse(settings.has("store.url"));
    assertFalse(settings.toString().contains("s3cr3t"), settings.toString());
  }

  @Test
  void anEmptySecretIsAbsent() {
    StoreSettings settings =
        ConnectorStoreSettings.of(
            new ParquetSourceConfig(
                Map.of(
                    "store.url",
                    "s3://lake/raw",
                    "aws.access.key.id",
                    "",
                    "aws.secret.access.key",
                    "")));
    assertFalse(settings.has("aws.access.key.id"));
    assertNull(settings.secret("aws.secret.access.key"));
  }

  @Test
  void storageRefusesKafkasPasswordRatherThanReadingItByReflection() {
    StoreSettings settings =
        new StoreSettings(Map.of("aws.secret.access.key", new Password("s3cr3t")));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> settings.secret("aws.secret.access.key"));
    assertTrue(e.getMessage().contains("aws.secret.access.key"), e.getMessage());
    assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
  }
}
