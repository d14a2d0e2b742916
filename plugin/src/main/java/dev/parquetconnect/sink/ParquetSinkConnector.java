package dev.parquetconnect.sink;

import dev.parquetconnect.config.ConnectorValidation;
import dev.parquetconnect.format.write.ProjectVersion;
import dev.parquetconnect.sink.commit.iceberg.CatalogCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
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
      LOG.info(
          "[{}] starting: store {}, topics dir {}, partitioner {}",
          config.connectorName(),
          config.storeUrl(),
          config.topicsDir(),
          config.partitioner());
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
   * together ({@link SinkConfigRules}), reporting those on the key at fault, so the REST validate
   * call lists them.
   */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config result =
        ConnectorValidation.validate(
            config(), connectorConfigs, validated -> SinkConfigRules.problems(validated::parsed));
    CatalogCheck.check(result, connectorConfigs);
    return result;
  }
}
