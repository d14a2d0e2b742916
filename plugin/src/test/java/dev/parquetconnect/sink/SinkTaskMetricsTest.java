package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.metrics.TaskMetrics;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink task's metrics as a JMX client sees them on a worker without KIP-877 (the test's {@link
 * TestContext} has no {@code pluginMetrics()}): counts follow what reached the store.
 */
final class SinkTaskMetricsTest {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @TempDir Path dir;
  Store store;
  final SimulatedConnect connect = new SimulatedConnect();

  @BeforeEach
  void openStore() throws IOException {
    store = new LocalStore(dir);
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  private Map<String, String> props() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "metrics-conn");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "10000");
    props.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, "0");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    return props;
  }

  private static long attribute(ObjectName bean, String name) throws Exception {
    return ((Number) JMX.getAttribute(bean, name)).longValue();
  }

  @Test
  void theBeanCountsCommittedRecordsFilesBytesAndDeadLetters() throws Exception {
    for (int p = 0; p < 2; p++) {
      for (long o = 0; o < 25; o++) {
        connect.append(SinkTaskTest.record(p, o, o % 7 == 3 ? "bad" : "v" + o));
      }
    }
    LinesFormat format = new LinesFormat();
    connect.start(
        () ->
            new ParquetSinkTask(
                c -> format,
                c -> Stores.open(c.storeUrl(), c.storeSettings()),
                new ManualClock(),
                CrashPoints.NONE),
        props(),
        true);
    for (int i = 0; i < 1000 && connect.step(7); i++) {
      connect.commitOffsets();
    }
    ObjectName bean =
        TaskMetrics.fallbackObjectName(SinkMetrics.FALLBACK_TYPE, "metrics-conn", "0");
    assertTrue(JMX.isRegistered(bean));

    // Per partition: offsets 0-19 committed in two commits of flush.size 10; 3, 10 and 17 are
    // bad (dead-lettered, counted toward flush.size, not written); 20-24 stay open, 24 is bad
    // too: a record goes to the dead letter queue when it is read, not at the commit.
    long files = 0;
    long bytes = 0;
    for (StoreFile f : store.list("topics/orders", true)) {
      if (f.directory()) {
        continue;
      }
      files++;
      bytes += f.size();
    }
    assertEquals(2 * 17, attribute(bean, "records-written"));
    assertEquals(2 * 4, attribute(bean, "dlq-records"));
    assertEquals(0, attribute(bean, "skipped-records"));
    assertEquals(4, attribute(bean, "commits"));
    assertEquals(4, attribute(bean, "rotations-flush-size"));
    assertEquals(0, attribute(bean, "rotations-other"));
    assertEquals(0, attribute(bean, "commit-failures"));
    assertEquals(files, attribute(bean, "files-committed"));
    assertEquals(bytes, attribute(bean, "bytes-written"));
    assertTrue(attribute(bean, "buffered-bytes") > 0, "offsets 20-24 are buffered");

    connect.stop();
    assertFalse(JMX.isRegistered(bean), "stop() removes the bean");
  }
}
