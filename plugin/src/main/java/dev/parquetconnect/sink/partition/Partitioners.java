package dev.parquetconnect.sink.partition;

import dev.parquetconnect.sink.ParquetSinkConfig;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.errors.ConnectException;

/** Builds the partitioner {@code partitioner.class} names. */
public final class Partitioners {
  private Partitioners() {}

  public static Partitioner create(ParquetSinkConfig config, LongSupplier clock) {
    String name = config.partitioner();
    switch (name.toLowerCase(Locale.ROOT)) {
      case ParquetSinkConfig.PARTITIONER_KAFKA:
        return new KafkaPartitionPartitioner();
      case ParquetSinkConfig.PARTITIONER_FIELD:
        return new FieldPartitioner(config.partitionFields());
      case ParquetSinkConfig.PARTITIONER_HEADER:
        return new HeaderPartitioner(config.partitionHeaders());
      case ParquetSinkConfig.PARTITIONER_TIME:
        return new TimePartitioner(
            config.pathFormat(),
            config.timezone(),
            config.locale(),
            recordTime(config, clock),
            config.partitionDurationMs());
      default:
        Partitioner custom = instantiate(name);
        // Not originalsStrings(): it throws a ClassCastException for a key given as null
        // (possible for keys the ConfigDef does not define); such keys are left out.
        Map<String, String> originals = new HashMap<>();
        config
            .originals()
            .forEach(
                (key, value) -> {
                  if (value instanceof String text) {
                    originals.put(key, text);
                  }
                });
        custom.configure(originals);
        return custom;
    }
  }

  /** The record time for the time partitioner and {@code rotate.interval.ms}. */
  public static RecordTime recordTime(ParquetSinkConfig config, LongSupplier clock) {
    return new RecordTime(config.timestampSource(), config.timestampField(), clock);
  }

  /** Why {@code className} cannot be a partitioner, or null when it can. */
  public static String checkCustomClass(String className) {
    try {
      instantiate(className);
      return null;
    } catch (ConnectException e) {
      return e.getMessage();
    }
  }

  private static Partitioner instantiate(String className) {
    Class<?> type;
    try {
      type = Class.forName(className, true, Partitioners.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConnectException(
          "partitioner.class '"
              + className
              + "' is neither kafka, field, "
              + "time nor header, and no such class is on the plugin's class path");
    }
    if (!Partitioner.class.isAssignableFrom(type)) {
      throw new ConnectException(
          "partitioner.class " + className + " does not implement " + Partitioner.class.getName());
    }
    try {
      return (Partitioner) type.getConstructor().newInstance();
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
      throw new ConnectException(
          "partitioner.class " + className + " needs a public no-argument constructor");
    } catch (InvocationTargetException e) {
      throw new ConnectException(
          "partitioner.class " + className + " failed to construct: " + e.getCause(), e.getCause());
    }
  }
}
