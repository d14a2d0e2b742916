package dev.parquetconnect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** Offers a fixed list of values for a key that is always visible. */
public final class OfferedValues implements ConfigDef.Recommender {
  private final List<Object> values;

  public OfferedValues(List<String> values) {
    this.values = List.copyOf(values);
  }

  /**
   * A new, mutable list each time: ConfigDef narrows it in place ({@code removeIf}) when it
   * validates a key again as the dependent of another.
   */
  @Override
  public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
    return new ArrayList<>(values);
  }

  @Override
  public boolean visible(String name, Map<String, Object> parsedConfig) {
    return true;
  }
}
