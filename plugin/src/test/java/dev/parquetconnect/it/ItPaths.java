package dev.parquetconnect.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where the integration tests work and listen. The directories come from system properties that
 * failsafe sets from the pom (so an IDE run falls back to the same places under target/).
 */
public final class ItPaths {

  /** Every server of the tests binds here, never to all interfaces. */
  public static final String LOOPBACK = "127.0.0.1";

  private static final int TAIL_BYTES = 64 * 1024;

  /**
   * Fixed ports come from [this, the ephemeral range): above the well-known and the usual service
   * ports.
   */
  private static final int FIXED_PORTS_LOW = 20_000;

  private static final int DEFAULT_EPHEMERAL_START = 32_768;
  private static final Random RANDOM = new SecureRandom();
  private static final Set<Integer> HANDED_OUT = new HashSet<>();

  private ItPaths() {}

  /** The unpacked plugin archive, {@code target/plugin}: a worker's {@code plugin.path}. */
  public static Path pluginDir() {
    return directoryProperty("plugin.dir", "target/plugin");
  }

  /** The parent of the per-version Kafka jar directories, {@code target/kafka-runtime}. */
  public static Path kafkaRuntimeDir() {
    return directoryProperty("kafka.runtime.dir", "target/kafka-runtime");
  }

  /**
   * An empty directory for one test under {@code target/it/}, deleted first if an earlier run left
   * it, so that logs and data of a run stay together and never mix with another's.
   */
  public static Path freshWorkDir(String name) {
    Path dir = directoryProperty("it.work.dir", "target/it").resolve(name);
    deleteRecursively(dir);
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + dir, e);
    }
  }

  /**
   * Ports that were free on the loopback address a moment ago, for servers whose port must be
   * written into a configuration before they start (a broker's listeners, a worker's REST and JMX
   * ports).
   *
   * <p>Between the probe here and the server's own bind the port is free for anyone, so the ports
   * come from below the kernel's ephemeral range: the range from which every {@code bind(0)}
   * (MiniDFSCluster, S3Proxy, another test's probe) and every outgoing connection (each Kafka
   * client opens several) takes its local port. A port handed out by the kernel's {@code bind(0)}
   * is exactly the kind of port the next outgoing connection may take, which is how a worker once
   * found its JMX port in use. Within this JVM a port is never handed out twice; another test JVM
   * picks at random from thousands, and the servers started from here retry with new ports if a
   * bind fails all the same.
   */
  public static synchronized List<Integer> freePorts(int count) {
    List<Integer> ports = new ArrayList<>();
    try {
      InetAddress loopback = InetAddress.getByName(LOOPBACK);
      int low = FIXED_PORTS_LOW;
      int high = Math.max(low + 1_000, ephemeralRangeStart());
      for (int tries = 0; ports.size() < count; tries++) {
        if (tries > 10_000) {
          throw new IllegalStateException(
              "No free port on " + LOOPBACK + " in [" + low + ", " + high + ") after 10,000 tries");
        }
        int port = low + RANDOM.nextInt(high - low);
        if (HANDED_OUT.contains(port) || !bindable(loopback, port)) {
          continue;
        }
        HANDED_OUT.add(port);
        ports.add(port);
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find free ports on " + LOOPBACK, e);
    }
  }

  /** Whether a log's text says a server could not bind its port (JDK, Jetty and Kafka wordings). */
  public static boolean saysPortInUse(String log) {
    return log.contains("Address already in use")
        || log.contains("Port already in use")
        || log.contains("BindException");
  }

  private static boolean bindable(InetAddress address, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(false);
      probe.bind(new InetSocketAddress(address, port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The first port of the kernel's ephemeral range (Linux), 32768 where it cannot be read. */
  static int ephemeralRangeStart() {
    try {
      // Read as a stream: procfs reports a size of 0, and Files.readString trusts the size.
      String range;
      try (InputStream in =
          Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      }
      int start = Integer.parseInt(range.split("\\s+")[0]);
      return start > FIXED_PORTS_LOW + 1_000 ? start : DEFAULT_EPHEMERAL_START;
    } catch (IOException | RuntimeException e) {
      return DEFAULT_EPHEMERAL_START;
    }
  }

  /** A file's size, 0 if it does not exist yet. */
  public static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the size of " + file, e);
    }
  }

  /** A (log) file's text from byte {@code start} on; empty if it does not exist. */
  public static String readFrom(Path file, long start) {
    if (!Files.exists(file)) {
      return "";
    }
    try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
      long from = Math.min(start, log.length());
      byte[] rest = new byte[(int) Math.min(Integer.MAX_VALUE - 8, log.length() - from)];
      log.seek(from);
      log.readFully(rest);
      return new String(rest, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  /** The last {@code lines} lines of a log file (from its last 64 KiB), for failure messages. */
  public static String tail(Path file, int lines) {
    try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, log.length() - TAIL_BYTES);
      byte[] end = new byte[(int) (log.length() - start)];
      log.seek(start);
      log.readFully(end);
      List<String> all = new String(end, StandardCharsets.UTF_8).lines().toList();
      return String.join(
          System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }

  private static Path directoryProperty(String name, String fallback) {
    return Paths.get(System.getProperty(name, fallback)).toAbsolutePath().normalize();
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + dir, e);
    }
  }
}
