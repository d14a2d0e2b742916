package dev.parquetconnect.sink.commit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link CrashPoints} for the crash tests of a real worker. Off unless the worker JVM runs with
 * {@code -Dparquetconnect.sink.faults=<file>}. The file holds one line, {@code <point> <action>
 * <hits>}: the {@code hits}-th time the task passes {@code point} it deletes the file and then
 * either halts the JVM at once ({@code halt}, like SIGKILL: no shutdown hook, no clean-up) or
 * throws ({@code fail}, a failed task). The crash tests rewrite the file before each round.
 */
public final class FaultInjector implements CrashPoints {
  public static final String PROPERTY = "parquetconnect.sink.faults";
  private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);
  private static final Path FILE = fileFromProperty();
  private static final long RECHECK_NANOS = 100_000_000L;

  private final Map<String, Integer> hits = new HashMap<>();
  private String armedPoint;
  private String armedAction;
  private int armedHits;
  private long nextCheck;

  private static Path fileFromProperty() {
    String value = System.getProperty(PROPERTY);
    return value == null || value.isBlank() ? null : Paths.get(value);
  }

  /** The injector of this JVM: {@link CrashPoints#NONE} unless the property is set. */
  public static CrashPoints fromSystemProperty() {
    return FILE == null ? CrashPoints.NONE : new FaultInjector();
  }

  private FaultInjector() {}

  // Synchronized: a maintenance run may pass its points on Iceberg's worker threads too.
  @Override
  public synchronized void at(String point) {
    refresh();
    if (!point.equals(armedPoint)) {
      return;
    }
    int count = hits.merge(point, 1, Integer::sum);
    if (count < armedHits) {
      return;
    }
    try {
      Files.deleteIfExists(FILE);
    } catch (IOException e) {
      LOG.warn("Cannot delete the fault file {}: {}", FILE, e.toString());
    }
    armedPoint = null;
    hits.clear();
    LOG.warn("Injected fault: {} at {} (hit {})", armedAction, point, count);
    if (armedAction.equals("halt")) {
      Runtime.getRuntime().halt(137);
    }
    throw new InjectedFault(point);
  }

  /** The failure a {@code fail} action throws; never caught by the sink's own error handling. */
  public static final class InjectedFault extends ConnectException {
    InjectedFault(String point) {
      super("Injected fault at " + point);
    }
  }

  private void refresh() {
    long now = System.nanoTime();
    if (now - nextCheck < 0) {
      return;
    }
    nextCheck = now + RECHECK_NANOS;
    try {
      String[] parts = Files.readString(FILE, StandardCharsets.UTF_8).trim().split("\\s+");
      if (parts.length == 3) {
        String point = parts[0];
        if (!point.equals(armedPoint)) {
          hits.clear();
        }
        armedPoint = point;
        armedAction = parts[1].toLowerCase(Locale.ROOT);
        armedHits = Integer.parseInt(parts[2]);
      }
    } catch (NoSuchFileException e) {
      armedPoint = null;
    } catch (IOException | NumberFormatException e) {
      LOG.warn("Cannot read the fault file {}: {}", FILE, e.toString());
    }
  }
}
