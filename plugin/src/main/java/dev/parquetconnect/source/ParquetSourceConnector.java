package dev.parquetconnect.source;

import dev.parquetconnect.format.write.ProjectVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays Parquet files from local disk, HDFS or S3 into Kafka topics: files our sink wrote record
 * for record (replay mode), or any Parquet file row by row (generic mode). See docs/source.md for
 * the configuration and the delivery guarantees.
 *
 * <p>The connector itself lists nothing: each task discovers the files it owns, as a pure function
 * of the original partition (or file) and the task count ({@link TaskAssignment}).
 */
public final class ParquetSourceConnector extends SourceConnector {
  private static final Logger LOG = LoggerFactory.getLogger(ParquetSourceConnector.class);

  /** The project version, as the writer stamps it into created_by. */
  static final String VERSION = ProjectVersion.VERSION;

  private Map<String, String> props;

  @Override
  public String version() {
    return VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    ParquetSourceConfig config = new ParquetSourceConfig(props);
    this.props = new HashMap<>(props);
    LOG.info(
        "[{}] started: {} mode, directory '{}'",
        props.getOrDefault("name", "parquet-source"),
        ParquetSourceConfig.spelling(config.mode()),
        config.topicsDir());
  }

  @Override
  public Class<? extends Task> taskClass() {
    return ParquetSourceTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>(maxTasks);
    for (int i = 0; i < maxTasks; i++) {
      Map<String, String> task = new HashMap<>(props);
      task.put(ParquetSourceConfig.TASK_INDEX_CONFIG, Integer.toString(i));
      task.put(ParquetSourceConfig.TASK_COUNT_CONFIG, Integer.toString(maxTasks));
      configs.add(task);
    }
    return configs;
  }

  @Override
  public void stop() {
    LOG.info(
        "[{}] stopped",
        props == null ? "parquet-source" : props.getOrDefault("name", "parquet-source"));
  }

  @Override
  public ConfigDef config() {
    return ParquetSourceConfig.CONFIG_DEF;
  }

  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return ParquetSourceConfig.validate(connectorConfigs);
  }

  /**
   * Supported whatever the configuration: a record's position (file, row group, row; in replay mode
   * also the original offset) is a pure function of the files, so the worker's offset commits in
   * the same transaction as the records make a restart resume exactly there.
   */
  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.SUPPORTED;
  }

  /** The task ends a transaction after each file or each batch ({@code transaction.unit}). */
  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }
}
