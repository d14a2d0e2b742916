package dev.parquetconnect.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.metrics.TaskMetrics.Metric;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.junit.jupiter.api.Test;

final class TaskMetricsTest {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @Test
  void withoutPluginMetricsTheGaugesAreAnMBeanUntilClosed() throws Exception {
    AtomicLong written = new AtomicLong();
    ObjectName name = TaskMetrics.fallbackObjectName("sink-task-metrics", "orders-sink", "3");
    assertEquals(
        new ObjectName("dev.parquetconnect:type=sink-task-metrics,connector=orders-sink,task=3"),
        name);
    try (TaskMetrics metrics =
        TaskMetrics.register(
            new Object(),
            "sink-task-metrics",
            "orders-sink",
            "3",
            List.of(new Metric("records-written", "records", written::get)))) {
      assertEquals("mbean", metrics.mechanism());
      assertTrue(JMX.isRegistered(name));
      written.set(42);
      assertEquals(42L, JMX.getAttribute(name, "records-written"));
      assertEquals("records", JMX.getMBeanInfo(name).getAttributes()[0].getDescription());
    }
    assertFalse(JMX.isRegistered(name), "close() unregisters the bean");
  }

  @Test
  void connectorNamesWithJmxSpecialCharactersAreQuoted() throws Exception {
    ObjectName name = TaskMetrics.fallbackObjectName("source-task-metrics", "a,b=c:d", "0");
    assertEquals("a,b=c:d", ObjectName.unquote(name.getKeyProperty("connector")));
    try (TaskMetrics metrics =
        TaskMetrics.register(
            null,
            "source-task-metrics",
            "a,b=c:d",
            "0",
            List.of(new Metric("records", "r", () -> 7)))) {
      assertEquals(7L, JMX.getAttribute(name, "records"));
    }
  }

  @Test
  void aSecondRegistrationOfTheSameTaskReplacesTheFirst() throws Exception {
    ObjectName name = TaskMetrics.fallbackObjectName("sink-task-metrics", "twice", "0");
    TaskMetrics first =
        TaskMetrics.register(
            null,
            "sink-task-metrics",
            "twice",
            "0",
            List.of(new Metric("records-written", "r", () -> 1)));
    try (TaskMetrics second =
        TaskMetrics.register(
            null,
            "sink-task-metrics",
            "twice",
            "0",
            List.of(new Metric("records-written", "r", () -> 2)))) {
      assertEquals(2L, JMX.getAttribute(name, "records-written"));
    } finally {
      first.close();
    }
    assertFalse(JMX.isRegistered(name));
  }

  /** The shape of Kafka 4.1+'s {@code org.apache.kafka.common.metrics.PluginMetrics}. */
  public interface PluginMetrics {
    MetricName metricName(String name, String description, LinkedHashMap<String, String> tags);

    void addMetric(MetricName metricName, MetricValueProvider<?> provider);

    void removeMetric(MetricName metricName);
  }

  /** A task context of Kafka 4.1+: it has {@code pluginMetrics()}. */
  public interface ContextWithPluginMetrics {
    PluginMetrics pluginMetrics();
  }

  private static class RecordingPluginMetrics implements PluginMetrics {
    final Map<MetricName, MetricValueProvider<?>> added = new LinkedHashMap<>();

    @Override
    public MetricName metricName(
        String name, String description, LinkedHashMap<String, String> tags) {
      return new MetricName(name, "plugins", description, tags);
    }

    @Override
    public void addMetric(MetricName metricName, MetricValueProvider<?> provider) {
      added.put(metricName, provider);
    }

    @Override
    public void removeMetric(MetricName metricName) {
      added.remove(metricName);
    }
  }

  @Test
  void withPluginMetricsTheWorkerRegistersTheGauges() {
    RecordingPluginMetrics plugin = new RecordingPluginMetrics();
    ContextWithPluginMetrics context = () -> plugin;
    AtomicLong records = new AtomicLong(5);
    ObjectName fallback = TaskMetrics.fallbackObjectName("source-task-metrics", "replay", "1");
    try (TaskMetrics metrics =
        TaskMetrics.register(
            context,
            "source-task-metrics",
            "replay",
            "1",
            List.of(
                new Metric("records", "records sent", records::get),
                new Metric("lag-files", "files left", () -> 3)))) {
      assertEquals("connect-plugin-metrics", metrics.mechanism());
      assertFalse(JMX.isRegistered(fallback), "no fallback bean when the worker has the API");
      assertEquals(2, plugin.added.size());
      MetricName first = plugin.added.keySet().iterator().next();
      assertEquals("records", first.name());
      assertEquals("records sent", first.description());
      Gauge<?> gauge = (Gauge<?>) plugin.added.get(first);
      records.set(9);
      assertEquals(9L, gauge.value(new MetricConfig(), 0L));
    }
    assertTrue(plugin.added.isEmpty(), "close() removes the metrics");
  }

  @Test
  void aPluginMetricsThatRefusesFallsBackToTheMBean() throws Exception {
    PluginMetrics refusing =
        new RecordingPluginMetrics() {
          @Override
          public void addMetric(MetricName metricName, MetricValueProvider<?> provider) {
            throw new IllegalArgumentException("closed");
          }
        };
    ContextWithPluginMetrics context = () -> refusing;
    ObjectName name = TaskMetrics.fallbackObjectName("sink-task-metrics", "refused", "0");
    try (TaskMetrics metrics =
        TaskMetrics.register(
            context,
            "sink-task-metrics",
            "refused",
            "0",
            List.of(new Metric("records-written", "r", () -> 4)))) {
      assertEquals("mbean", metrics.mechanism());
      assertEquals(4L, JMX.getAttribute(name, "records-written"));
    }
  }
}
