package dev.parquetconnect.bench.worker;

import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.KafkaBroker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One sink configuration of {@code bin/bench worker}: the connector it creates, how the bench knows
 * that the connector's last commit is done, and which files that commit left.
 */
interface Leg {

  LegKind kind();

  /**
   * Why this leg cannot run on {@code worker} for {@code dataset}; empty when it can.
   *
   * @param outputDir where the leg would write, for a configuration the worker validates
   */
  Optional<String> skipReason(ConnectWorker worker, BenchDataset dataset, Path outputDir);

  /** Creates what the connector needs before it starts (Iceberg's sink: its control topic). */
  default void prepare(KafkaBroker broker, String connectorName) {}

  /**
   * The connector's configuration: {@code outputDir} is empty and the leg's own; both sinks commit
   * on the wall clock every {@code commitIntervalMs}, and otherwise only when a file is full, so
   * that the commits of both are alike.
   */
  Map<String, String> connectorConfig(
      String connectorName,
      BenchDataset dataset,
      Path outputDir,
      long records,
      long commitIntervalMs);

  /**
   * The commit that made the last record visible, once it has happened.
   *
   * @param endOffsets the end offset of each partition of the dataset's topic
   */
  Optional<Commit> lastCommit(
      String connectorName, BenchDataset dataset, Path outputDir, Map<Integer, Long> endOffsets)
      throws IOException;

  /**
   * The evidence of a leg's last commit.
   *
   * @param commitTimeMillis when the commit happened, by the sink's own record of it (a file's
   *     modification time, a snapshot's timestamp)
   * @param dataFiles the Parquet files holding the committed records
   * @param detail how the commit was recognised, for the printed line
   */
  record Commit(long commitTimeMillis, List<Path> dataFiles, String detail) {}
}
