package dev.parquetconnect.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Shows a key only when another key's parsed value passes a test (in UIs that read recommenders;
 * the REST validate call reports it as {@code visible}). Offers no values.
 */
public final class VisibleWhen implements ConfigDef.Recommender {
  private final String key;
  private final Predicate<Object> test;

  private VisibleWhen(String key, Predicate<Object> test) {
    this.key = Objects.requireNonNull(key, "key");
    this.test = Objects.requireNonNull(test, "test");
  }

  /** Visible when {@code key} has the value {@code expected}, in any case. */
  public static VisibleWhen equalTo(String key, String expected) {
    return new VisibleWhen(
        key, value -> value != null && expected.equalsIgnoreCase(value.toString().trim()));
  }

  /** Visible when {@code test} accepts the value of {@code key} ({@code null} when unset). */
  public static VisibleWhen matching(String key, Predicate<Object> test) {
    return new VisibleWhen(key, test);
  }

  @Override
  public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
    return List.of();
  }

  @Override
  public boolean visible(String name, Map<String, Object> parsedConfig) {
    return test.test(parsedConfig.get(key));
  }
}
