package dev.parquetconnect.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the crash ITs of the table mode run on: Iceberg's REST catalog server, one broker and a
 * group of Connect workers that the test crashes and restarts, a restart running in the background
 * while the other workers carry on. Closing it cancels those restarts and closes the workers, the
 * broker, then the catalog server.
 */
public final class WorkerFleet implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerFleet.class);

  private IcebergRestServer rest;
  private KafkaBroker broker;
  private final List<ConnectWorker> workers = new ArrayList<>();

  /** Workers being restarted after a crash, in the background, while the others run on. */
  private final Map<Integer, CompletableFuture<Void>> restarting = new ConcurrentHashMap<>();

  private WorkerFleet() {}

  /**
   * Starts the catalog server (state in {@code workDir/rest}, warehouse {@code workDir/warehouse}),
   * the broker ({@code workDir/broker}) and {@code count} workers of group {@code groupId} ({@code
   * workDir/worker-N}), each with {@code jvmOption} and {@code workerProperties}. What started
   * before a failure is closed again.
   */
  public static WorkerFleet start(
      Path workDir,
      int count,
      String groupId,
      String jvmOption,
      Map<String, String> workerProperties)
      throws Exception {
    WorkerFleet fleet = new WorkerFleet();
    try {
      fleet.rest =
          IcebergRestServer.start(
              Files.createDirectories(workDir.resolve("rest")),
              workDir.resolve("warehouse").toString(),
              Map.of());
      KafkaRuntime runtime = KafkaRuntime.defaultVersion();
      KafkaBroker broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
      fleet.broker = broker;
      // All workers start at once: their JVMs' start-up is most of the set-up's time.
      List<CompletableFuture<ConnectWorker>> starting = new ArrayList<>();
      for (int w = 0; w < count; w++) {
        Path dir = workDir.resolve("worker-" + w);
        starting.add(
            CompletableFuture.supplyAsync(
                () -> {
                  ConnectWorker.Builder builder =
                      ConnectWorker.builder(runtime, broker.bootstrapServers())
                          .workDir(dir)
                          .groupId(groupId)
                          .jvmOption(jvmOption);
                  workerProperties.forEach(builder::workerProperty);
                  return builder.start();
                }));
      }
      RuntimeException failed = null;
      for (CompletableFuture<ConnectWorker> worker : starting) {
        try {
          fleet.workers.add(worker.join());
        } catch (RuntimeException e) {
          failed = e;
        }
      }
      if (failed != null) {
        throw failed;
      }
      return fleet;
    } catch (Exception | Error e) {
      fleet.close();
      throw e;
    }
  }

  /**
   * Worker properties that make the group memberships of a crashed worker and of its tasks'
   * consumers expire within {@code sessionTimeoutMs} (the harness's 6 s would be most of a crash
   * round), with heartbeats every 500 ms.
   */
  public static Map<String, String> shortSessions(int sessionTimeoutMs) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("session.timeout.ms", Integer.toString(sessionTimeoutMs));
    properties.put("heartbeat.interval.ms", "500");
    properties.put("consumer.session.timeout.ms", Integer.toString(sessionTimeoutMs));
    properties.put("consumer.heartbeat.interval.ms", "500");
    return properties;
  }

  public IcebergRestServer rest() {
    return rest;
  }

  public KafkaBroker broker() {
    return broker;
  }

  /** The workers, in the order of their directories. */
  public List<ConnectWorker> workers() {
    return Collections.unmodifiableList(workers);
  }

  public ConnectWorker worker(int w) {
    return workers.get(w);
  }

  /** A client of the catalog server. */
  public Catalog catalog() {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_REST);
    properties.put("uri", rest.uri());
    return CatalogUtil.buildIcebergCatalog("iceberg", properties, new Configuration());
  }

  /** Restarts worker {@code w} with {@code restart} in the background. */
  public void restartInBackground(int w, Consumer<ConnectWorker> restart) {
    restarting.put(w, CompletableFuture.runAsync(() -> restart.accept(workers.get(w))));
  }

  /**
   * Restarts a crashed worker. A worker that takes a fault while it starts exits during its start:
   * it is started again (three times at most). On a machine loaded far beyond its cores a worker
   * JVM can take longer than the harness's two minutes to serve requests: it is then given three
   * more.
   */
  public static void restartPatiently(ConnectWorker worker) {
    for (int attempt = 1; ; attempt++) {
      try {
        worker.restart();
        return;
      } catch (RuntimeException e) {
        if (worker.isRunning()) {
          LOG.warn("{} is slow to start: {}", worker, e.getMessage());
          Await.until(
              worker + " to serve requests",
              Duration.ofMinutes(3),
              () -> worker.send("GET", "/connectors", null).status() == 200);
          return;
        }
        if (attempt == 3) {
          throw e;
        }
        LOG.warn("{} exited while starting, starting it again: {}", worker, e.getMessage());
      }
    }
  }

  /** The background restart of worker {@code w}, done or not; null when there was none. */
  public CompletableFuture<Void> restarting(int w) {
    return restarting.get(w);
  }

  /** Waits for the background restarts (rethrowing their failure) and forgets them. */
  public void awaitRestarts() {
    restarting.values().forEach(CompletableFuture::join);
    restarting.clear();
  }

  /** Whether worker {@code w} runs and is not being restarted. */
  public boolean isUp(int w) {
    CompletableFuture<Void> restart = restarting.get(w);
    return workers.get(w).isRunning() && (restart == null || restart.isDone());
  }

  /** A worker that runs and serves REST requests. */
  public ConnectWorker anyRunning() {
    for (int w = 0; w < workers.size(); w++) {
      if (isUp(w)) {
        return workers.get(w);
      }
    }
    throw new IllegalStateException("no worker runs");
  }

  @Override
  public void close() throws Exception {
    restarting.values().forEach(f -> f.cancel(false));
    for (ConnectWorker worker : workers) {
      worker.close();
    }
    if (broker != null) {
      broker.close();
    }
    if (rest != null) {
      rest.close();
    }
  }
}
