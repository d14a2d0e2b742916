package dev.parquetconnect.config;

import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.StoreSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * The one way a connector's parsed configuration becomes the settings its store is opened with:
 * every store key of {@link StoreConfigDef} that has a value (secrets turned from Kafka's {@link
 * Password} into storage's own {@link Secret}, so storage needs nothing of Kafka) and the {@code
 * hadoop.config.*} pass-through keys as given.
 */
public final class ConnectorStoreSettings {
  private ConnectorStoreSettings() {}

  public static StoreSettings of(AbstractConfig config) {
    Map<String, Object> settings = new LinkedHashMap<>();
    Map<String, ?> parsed = config.values();
    for (String key : StoreConfigDef.KEYS) {
      Object value = parsed.get(key);
      if (value instanceof Password password) {
        settings.put(key, Secret.of(password.value()));
      } else if (value != null) {
        settings.put(key, value);
      }
    }
    config
        .originals()
        .forEach(
            (key, value) -> {
              if (key.startsWith(StoreConfigDef.HADOOP_CONFIG_PREFIX) && value instanceof String) {
                settings.put(key, value);
              }
            });
    return new StoreSettings(settings);
  }
}
