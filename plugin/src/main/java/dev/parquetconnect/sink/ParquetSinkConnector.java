package dev.parquetconnect.sink;

import dev.parquetconnect.format.write.ProjectVersion;
import dev.parquetconnect.storage.StoreConfigDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams Kafka topics into Parquet files on local disk, HDFS or S3, exactly once. Configured by
 * {@link ParquetSinkConfig}; the work happens in {@link ParquetSinkTask}.
 */
public final class ParquetSinkConnector extends SinkConnector {
  /** Added to each task's configuration: the task's number, for its name in logs and markers. */
  static final String TASK_NUMBER_CONFIG = "parquet.sink.task.number";
  private static final Logger LOG = LoggerFactory.getLogger(ParquetSinkConnector.class);

  private Map<String, String> props;

  @Override
  public String version() {
    return ProjectVersion.VERSION;
  }

  @Override
  public void start(Map<String, String> properties) {
    try {
      ParquetSinkConfig config = new ParquetSinkConfig(properties);
      LOG.info("[{}] starting: store {}, topics dir {}, partitioner {}", config.connectorName(),
          config.storeUrl(), config.topicsDir(), config.partitioner());
    } catch (ConfigException e) {
      throw new ConnectException("Invalid configuration: " + e.getMessage(), e);
    }
    this.props = Map.copyOf(properties);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return ParquetSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>(maxTasks);
    for (int i = 0; i < maxTasks; i++) {
      Map<String, String> task = new HashMap<>(props);
      task.put(TASK_NUMBER_CONFIG, Integer.toString(i));
      configs.add(task);
    }
    return configs;
  }

  @Override
  public void stop() {
    props = null;
  }

  @Override
  public ConfigDef config() {
    return ParquetSinkConfig.CONFIG_DEF;
  }

  /**
   * Validates each key on its own (types, ranges, formats) and then the rules that tie keys
   * together, reporting those on the key at fault, so the REST validate call lists them.
   */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config result = super.validate(connectorConfigs);
    Map<String, ConfigValue> byName = new HashMap<>();
    for (ConfigValue value : result.configValues()) {
      byName.put(value.name(), value);
    }
    ParquetSinkConfig.nullErrors(connectorConfigs).forEach((key, messages) -> {
      ConfigValue value = byName.get(key);
      if (value != null && value.errorMessages().isEmpty()) {
        messages.forEach(value::addErrorMessage);
      }
    });
    ConfigValue url = byName.get(ParquetSinkConfig.STORE_URL_CONFIG);
    if (url != null && url.errorMessages().isEmpty()) {
      String problem = StoreConfigDef.schemeProblem(connectorConfigs);
      if (problem != null) {
        url.addErrorMessage(problem);
      }
    }
    Function<String, Object> parsed = key -> {
      ConfigValue value = byName.get(key);
      return value == null || !value.errorMessages().isEmpty() ? null : value.value();
    };
    ParquetSinkConfig.crossFieldErrors(parsed).forEach((key, messages) -> {
      ConfigValue value = byName.get(key);
      if (value != null) {
        messages.forEach(value::addErrorMessage);
      }
    });
    return dropRepeatedMessages(result);
  }

  /**
   * ConfigDef validates a key again for every key that lists it as a dependent (each S3 and HDFS
   * key lists store.url), repeating its error once per dependent: the answer keeps one of each.
   */
  static Config dropRepeatedMessages(Config config) {
    List<ConfigValue> values = new ArrayList<>();
    for (ConfigValue v : config.configValues()) {
      ConfigValue copy = new ConfigValue(v.name(), v.value(), v.recommendedValues(),
          new ArrayList<>(new LinkedHashSet<>(v.errorMessages())));
      copy.visible(v.visible());
      values.add(copy);
    }
    return new Config(values);
  }
}
