package dev.parquetconnect.config;

import dev.parquetconnect.storage.StoreUrls;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * A {@code store.url} the stores can open, without credentials: {@link StoreUrls#problem}, so that
 * validate refuses what a task could not open. The message never repeats a value that may hold a
 * secret.
 */
public final class StoreUrlValidator implements ConfigDef.Validator {
  private final String forms;

  /**
   * @param forms the URL forms the connector's documentation shows as valid values (each connector
   *     words them for what it does with the store)
   */
  public StoreUrlValidator(String forms) {
    this.forms = forms;
  }

  @Override
  public void ensureValid(String name, Object value) {
    String problem = StoreUrls.problem(value);
    if (problem != null) {
      throw new ConfigException(problem);
    }
  }

  @Override
  public String toString() {
    return forms;
  }
}
