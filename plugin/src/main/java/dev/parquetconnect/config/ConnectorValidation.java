package dev.parquetconnect.config;

import dev.parquetconnect.storage.StoreUrls;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * How both connectors check a configuration: the REST validate call ({@link #validate}) and the
 * constructor of a typed config ({@link #requireValid}) apply the same steps, so a config the call
 * accepts starts, and one it refuses does not.
 *
 * <ol>
 *   <li>each key on its own, by its ConfigDef type and validator;
 *   <li>keys given as {@code null} (a JSON null in the REST call), which ConfigDef accepts for keys
 *       without a validator and a getter would then meet as a NullPointerException;
 *   <li>the scheme of {@code store.url} ({@link StoreUrls#schemeProblem});
 *   <li>the connector's rules between keys, as {@link ConfigProblem}s.
 * </ol>
 */
public final class ConnectorValidation {
  private ConnectorValidation() {}

  /** A connector's rules between keys, over what single-key validation left. */
  @FunctionalInterface
  public interface Rules {
    List<ConfigProblem> problems(Validated config);
  }

  /** A configuration after its keys were validated one by one. */
  public static final class Validated {
    private final Map<String, String> props;
    private final Map<String, ConfigValue> byName;
    private final Set<String> invalid;

    private Validated(
        Map<String, String> props, Map<String, ConfigValue> byName, Set<String> invalid) {
      this.props = props;
      this.byName = byName;
      this.invalid = invalid;
    }

    /** The parsed value of a key, {@code null} when absent, unknown or invalid. */
    public Object parsed(String key) {
      ConfigValue value = byName.get(key);
      return value == null || invalid.contains(key) ? null : value.value();
    }

    /** The given keys without the invalid ones, whose defaults then stand in. */
    public Map<String, String> usableProps() {
      Map<String, String> usable = new HashMap<>();
      props.forEach(
          (key, value) -> {
            if (!invalid.contains(key)) {
              usable.put(key, value);
            }
          });
      return usable;
    }
  }

  /**
   * The answer to the REST validate call: every key's own errors, then the rules between keys on
   * the key at fault, leaving out a problem that involves a key with its own error. Never throws:
   * the worker turns an exception into an HTTP 500 without guidance.
   */
  public static Config validate(ConfigDef def, Map<String, String> props, Rules rules) {
    List<ConfigValue> values = def.validate(props);
    Map<String, ConfigValue> byName = new LinkedHashMap<>();
    for (ConfigValue value : values) {
      byName.put(value.name(), value);
    }
    for (ConfigProblem problem : nullProblems(def, props)) {
      ConfigValue value = byName.get(problem.key());
      if (value != null && value.errorMessages().isEmpty()) {
        value.addErrorMessage(problem.message());
      }
    }
    ConfigValue url = byName.get(StoreUrls.KEY);
    if (url != null && url.errorMessages().isEmpty()) {
      String problem = StoreUrls.schemeProblem(props);
      if (problem != null) {
        url.addErrorMessage(problem);
      }
    }
    Set<String> invalid = new LinkedHashSet<>();
    for (ConfigValue value : values) {
      if (!value.errorMessages().isEmpty()) {
        invalid.add(value.name());
      }
    }
    for (ConfigProblem problem : rules.problems(new Validated(props, byName, invalid))) {
      ConfigValue value = byName.get(problem.key());
      if (value != null && Collections.disjoint(problem.involved(), invalid)) {
        value.addErrorMessage(problem.message());
      }
    }
    return withoutRepeatedMessages(values);
  }

  /**
   * Refuses a configuration the REST validate call would refuse: one exception listing every
   * problem (each message names its key). The rules are applied only when no key is null.
   *
   * @throws ConfigException when a key is null or a rule or the store URL's scheme fails
   */
  public static void requireValid(
      ConfigDef def, Map<String, ?> props, Supplier<List<ConfigProblem>> rules) {
    List<ConfigProblem> problems = nullProblems(def, props);
    if (problems.isEmpty()) {
      problems = new ArrayList<>(rules.get());
      String scheme = StoreUrls.schemeProblem(props);
      if (scheme != null) {
        problems.add(ConfigProblem.on(StoreUrls.KEY, scheme));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(
          String.join("; ", problems.stream().map(ConfigProblem::message).toList()));
    }
  }

  /** The keys of {@code def} given as {@code null}. */
  static List<ConfigProblem> nullProblems(ConfigDef def, Map<String, ?> props) {
    List<ConfigProblem> problems = new ArrayList<>();
    props.forEach(
        (key, value) -> {
          if (value == null && def.configKeys().containsKey(key)) {
            problems.add(ConfigProblem.about(key, key + " is null; leave it out for its default"));
          }
        });
    return problems;
  }

  /**
   * ConfigDef validates a key again for every key that lists it as a dependent (each S3 and HDFS
   * key lists store.url), repeating its error once per dependent: the answer keeps one of each.
   */
  static Config withoutRepeatedMessages(List<ConfigValue> values) {
    List<ConfigValue> unique = new ArrayList<>();
    for (ConfigValue v : values) {
      ConfigValue copy =
          new ConfigValue(
              v.name(),
              v.value(),
              v.recommendedValues(),
              new ArrayList<>(new LinkedHashSet<>(v.errorMessages())));
      copy.visible(v.visible());
      unique.add(copy);
    }
    return new Config(unique);
  }
}
