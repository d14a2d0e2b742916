package dev.parquetconnect.metrics;

import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JMX metrics of one connector task, registered the way the worker allows.
 *
 * <p>On Kafka Connect 4.1 and later (KIP-877) the task context offers {@code pluginMetrics()}: the
 * metrics are then Connect's own, in the worker's metrics registry and its reporters (JMX bean
 * {@code kafka.connect:type=plugins,connector=<name>,task=<id>}), and the worker removes them when
 * the task stops. We compile against the Connect 3.6 API, which has no such method, so it is looked
 * up reflectively. On older workers the same attributes are served by our own MBean {@code
 * dev.parquetconnect:type=<type>,connector=<name>,task=<id>} on the platform MBeanServer,
 * unregistered by {@link #close()}.
 *
 * <p>Every metric is a gauge over a {@link LongSupplier} that the task keeps current; reading one
 * never touches the task's own state, so a JMX client cannot race the task thread.
 */
public final class TaskMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskMetrics.class);

  /** The JMX domain of the fallback beans. */
  public static final String FALLBACK_DOMAIN = "dev.parquetconnect";

  /** The group (JMX type) Connect gives plugin metrics (KIP-877). */
  public static final String CONNECT_PLUGIN_GROUP = "plugins";

  /** One metric: a name, what it means, where its value comes from. */
  public record Metric(String name, String description, LongSupplier value) {}

  private final List<Metric> metrics;
  private final Registration registration;

  private TaskMetrics(List<Metric> metrics, Registration registration) {
    this.metrics = metrics;
    this.registration = registration;
  }

  /**
   * Registers {@code metrics} through the context's {@code pluginMetrics()} when the worker has it,
   * else as the MBean {@code dev.parquetconnect:type=<fallbackType>,connector=..,task=..}. Failing
   * to register is logged, never thrown: metrics must not stop a task.
   *
   * @param taskContext the task's {@code SinkTaskContext} or {@code SourceTaskContext} (may be null
   *     in tests: then only the fallback is tried)
   */
  public static TaskMetrics register(
      Object taskContext,
      String fallbackType,
      String connector,
      String task,
      List<Metric> metrics) {
    List<Metric> copy = List.copyOf(metrics);
    Object pluginMetrics = pluginMetricsOf(taskContext);
    Registration registration = null;
    if (pluginMetrics != null) {
      registration = PluginMetricsRegistration.register(pluginMetrics, copy);
    }
    if (registration == null) {
      registration =
          MBeanRegistration.register(fallbackObjectName(fallbackType, connector, task), copy);
    }
    LOG.info(
        "[{}-{}] metrics registered through {}; plugin code from {} in {}",
        connector,
        task,
        registration == null ? "nothing (see the warning above)" : registration.mechanism(),
        codeLocation(),
        TaskMetrics.class.getClassLoader());
    return new TaskMetrics(copy, registration);
  }

  /**
   * The jar our classes come from: with plugin isolation a file under the worker's {@code
   * plugin.path}, which tells an operator which installed version a task runs.
   */
  static String codeLocation() {
    try {
      java.security.CodeSource source = TaskMetrics.class.getProtectionDomain().getCodeSource();
      return source == null || source.getLocation() == null
          ? "(unknown)"
          : source.getLocation().toString();
    } catch (SecurityException e) {
      return "(unknown)";
    }
  }

  /** The fallback bean's name, quoted where JMX needs it (connector names are free text). */
  public static ObjectName fallbackObjectName(String type, String connector, String task) {
    try {
      return new ObjectName(
          FALLBACK_DOMAIN
              + ":type="
              + type
              + ",connector="
              + quoteIfNeeded(connector)
              + ",task="
              + quoteIfNeeded(task));
    } catch (JMException e) {
      throw new IllegalArgumentException("No JMX name for connector " + connector, e);
    }
  }

  private static String quoteIfNeeded(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n'
          || c == '\\') {
        return ObjectName.quote(value);
      }
    }
    return value;
  }

  /** How the metrics were registered, for logs and tests: "connect-plugin-metrics" or "mbean". */
  public String mechanism() {
    return registration == null ? "none" : registration.mechanism();
  }

  /** The current value of a metric (tests). */
  public long value(String name) {
    for (Metric m : metrics) {
      if (m.name().equals(name)) {
        return m.value().getAsLong();
      }
    }
    throw new IllegalArgumentException("No metric " + name);
  }

  @Override
  public void close() {
    if (registration != null) {
      registration.close();
    }
  }

  /** The worker's {@code PluginMetrics} for this task, or null before Kafka 4.1. */
  private static Object pluginMetricsOf(Object taskContext) {
    if (taskContext == null) {
      return null;
    }
    for (Class<?> type : taskContext.getClass().getInterfaces()) {
      Object found = pluginMetricsThrough(type, taskContext);
      if (found != null) {
        return found;
      }
    }
    return pluginMetricsThrough(taskContext.getClass(), taskContext);
  }

  private static Object pluginMetricsThrough(Class<?> type, Object taskContext) {
    Method method;
    try {
      // Through the public interface: the worker's implementation class may not be accessible.
      method = type.getMethod("pluginMetrics");
    } catch (NoSuchMethodException e) {
      return null;
    }
    try {
      return method.invoke(taskContext);
    } catch (IllegalAccessException | InvocationTargetException | LinkageError e) {
      LOG.debug("pluginMetrics() of {} is not usable: {}", type.getName(), e.toString());
      return null;
    }
  }

  private interface Registration {
    String mechanism();

    void close();
  }

  /** KIP-877: {@code PluginMetrics.metricName(..)} and {@code addMetric(..)}, reflectively. */
  private static final class PluginMetricsRegistration implements Registration {
    private final Object pluginMetrics;
    private final Method removeMetric;
    private final List<Object> names;

    private PluginMetricsRegistration(
        Object pluginMetrics, Method removeMetric, List<Object> names) {
      this.pluginMetrics = pluginMetrics;
      this.removeMetric = removeMetric;
      this.names = names;
    }

    static Registration register(Object pluginMetrics, List<Metric> metrics) {
      List<Object> names = new ArrayList<>();
      try {
        Class<?> api = publicInterface(pluginMetrics.getClass(), "PluginMetrics");
        Method metricName =
            api.getMethod("metricName", String.class, String.class, LinkedHashMap.class);
        Method addMetric = api.getMethod("addMetric", MetricName.class, MetricValueProvider.class);
        Method removeMetric = api.getMethod("removeMetric", MetricName.class);
        for (Metric m : metrics) {
          Object name =
              metricName.invoke(
                  pluginMetrics, m.name(), m.description(), new LinkedHashMap<String, String>());
          LongSupplier value = m.value();
          Gauge<Long> gauge = (config, now) -> value.getAsLong();
          addMetric.invoke(pluginMetrics, name, gauge);
          names.add(name);
        }
        return new PluginMetricsRegistration(pluginMetrics, removeMetric, names);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        Throwable cause =
            e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
        LOG.warn(
            "Cannot register the task metrics with the worker's plugin metrics ({}); "
                + "falling back to our own MBean",
            cause.toString());
        return null;
      }
    }

    private static Class<?> publicInterface(Class<?> type, String simpleName)
        throws ClassNotFoundException {
      // The implementation class (PluginMetricsImpl) is internal to the worker; its public
      // interface is org.apache.kafka.common.metrics.PluginMetrics, absent from our 3.6 API.
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        for (Class<?> i : c.getInterfaces()) {
          if (i.getSimpleName().equals(simpleName)) {
            return i;
          }
        }
      }
      throw new ClassNotFoundException(simpleName + " is not implemented by " + type.getName());
    }

    @Override
    public String mechanism() {
      return "connect-plugin-metrics";
    }

    @Override
    public void close() {
      // The worker closes a task's PluginMetrics after stop(); removing ours first is harmless
      // and keeps a task that is stopped but not yet closed from reporting stale values.
      for (Object name : names) {
        try {
          removeMetric.invoke(pluginMetrics, name);
        } catch (ReflectiveOperationException | RuntimeException e) {
          LOG.debug("Removing metric {}: {}", name, e.toString());
        }
      }
      names.clear();
    }
  }

  /** Our own bean on the platform MBeanServer (workers before Kafka 4.1). */
  private static final class MBeanRegistration implements Registration {
    private final MBeanServer server;
    private final ObjectName name;

    private MBeanRegistration(MBeanServer server, ObjectName name) {
      this.server = server;
      this.name = name;
    }

    static Registration register(ObjectName name, List<Metric> metrics) {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      try {
        if (server.isRegistered(name)) {
          // A previous instance of this task that was not stopped cleanly: this one replaces it.
          server.unregisterMBean(name);
        }
        server.registerMBean(new GaugesMBean(name, metrics), name);
        return new MBeanRegistration(server, name);
      } catch (JMException | RuntimeException e) {
        LOG.warn("Cannot register the task metrics MBean {}: {}", name, e.toString());
        return null;
      }
    }

    @Override
    public String mechanism() {
      return "mbean";
    }

    @Override
    public void close() {
      try {
        if (server.isRegistered(name)) {
          server.unregisterMBean(name);
        }
      } catch (JMException e) {
        LOG.debug("Unregistering {}: {}", name, e.toString());
      }
    }
  }

  /** A read-only bean whose attributes are the gauges (type {@code long}). */
  private static final class GaugesMBean implements DynamicMBean {
    private final Map<String, Metric> byName = new LinkedHashMap<>();
    private final MBeanInfo info;

    GaugesMBean(ObjectName name, List<Metric> metrics) {
      MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[metrics.size()];
      for (int i = 0; i < metrics.size(); i++) {
        Metric m = metrics.get(i);
        byName.put(m.name(), m);
        attributes[i] =
            new MBeanAttributeInfo(m.name(), "long", m.description(), true, false, false);
      }
      this.info =
          new MBeanInfo(
              GaugesMBean.class.getName(),
              "kafka-connect-parquet task metrics " + name,
              attributes,
              null,
              null,
              null);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      Metric m = byName.get(attribute);
      if (m == null) {
        throw new AttributeNotFoundException("No attribute " + attribute);
      }
      return m.value().getAsLong();
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
      throw new AttributeNotFoundException("Task metrics are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
      AttributeList list = new AttributeList();
      for (String a : attributes) {
        Metric m = byName.get(a);
        if (m != null) {
          list.add(new Attribute(a, m.value().getAsLong()));
        }
      }
      return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
      return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature)
        throws ReflectionException {
      throw new ReflectionException(
          new NoSuchMethodException(actionName), "Task metrics have no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
      return info;
    }
  }
}
