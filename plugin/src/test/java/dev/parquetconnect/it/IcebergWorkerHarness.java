package dev.parquetconnect.it;

import java.nio.file.Path;

/**
 * One Iceberg REST catalog on local disk, one broker and one Connect worker on the default Kafka
 * version, under a fresh work directory: what the table-mode ITs that need no second worker start
 * once per class. Closing it closes the worker, then the broker, then the catalog.
 */
public final class IcebergWorkerHarness implements AutoCloseable {
  private final Path workDir;
  private final IcebergFixture iceberg;
  private final KafkaBroker broker;
  private final ConnectWorker worker;

  private IcebergWorkerHarness(
      Path workDir, IcebergFixture iceberg, KafkaBroker broker, ConnectWorker worker) {
    this.workDir = workDir;
    this.iceberg = iceberg;
    this.broker = broker;
    this.worker = worker;
  }

  /**
   * Starts the catalog in {@code workDir/rest}, the broker in {@code workDir/broker} and the worker
   * in {@code workDir/worker}, {@code workDir} being {@link ItPaths#freshWorkDir} of {@code
   * testName}. What started before a failure is closed again.
   */
  public static IcebergWorkerHarness start(String testName) throws Exception {
    Path workDir = ItPaths.freshWorkDir(testName);
    IcebergFixture iceberg = IcebergFixture.restOnLocalDisk(workDir);
    KafkaBroker broker = null;
    try {
      KafkaRuntime runtime = KafkaRuntime.defaultVersion();
      broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
      ConnectWorker worker =
          ConnectWorker.builder(runtime, broker.bootstrapServers())
              .workDir(workDir.resolve("worker"))
              .start();
      return new IcebergWorkerHarness(workDir, iceberg, broker, worker);
    } catch (Exception | Error e) {
      new IcebergWorkerHarness(workDir, iceberg, broker, null).close();
      throw e;
    }
  }

  public Path workDir() {
    return workDir;
  }

  public IcebergFixture iceberg() {
    return iceberg;
  }

  public KafkaBroker broker() {
    return broker;
  }

  public ConnectWorker worker() {
    return worker;
  }

  @Override
  public void close() throws Exception {
    if (worker != null) {
      worker.close();
    }
    if (broker != null) {
      broker.close();
    }
    if (iceberg != null) {
      iceberg.close();
    }
  }
}
