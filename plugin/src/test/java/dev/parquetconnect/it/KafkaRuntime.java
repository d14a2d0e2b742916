package dev.parquetconnect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The jars of one Kafka version, materialised by {@code src/it/kafka-runtime/pom.xml} into {@code
 * target/kafka-runtime/<version>/}. Brokers and workers run from these jars in child JVMs, so the
 * test classpath keeps the oldest Connect API we compile against while the processes under test are
 * exactly the Kafka release named here.
 */
public final class KafkaRuntime {

  /** The broker's main class in 3.x and 4.x ({@code kafka-server-start.sh}). */
  static final String BROKER_MAIN = "kafka.Kafka";

  /** The storage formatter's main class in 3.x and 4.x ({@code kafka-storage.sh}). */
  static final String STORAGE_TOOL_MAIN = "kafka.tools.StorageTool";

  /** The distributed Connect worker ({@code connect-distributed.sh}). */
  static final String CONNECT_DISTRIBUTED_MAIN = "org.apache.kafka.connect.cli.ConnectDistributed";

  /** Written last by the helper pom: its presence means the directory is complete. */
  private static final String COMPLETE_MARKER = "dependencies.txt";

  /** The system property every child JVM carries, so that {@code ps} can find leftovers. */
  static final String ROLE_PROPERTY = "parquetconnect.it.role";

  private final String version;
  private final Path jarDir;

  private KafkaRuntime(String version, Path jarDir) {
    this.version = version;
    this.jarDir = jarDir;
  }

  /** The version the integration tests run by default (the pom's {@code kafka.it.version}). */
  public static KafkaRuntime defaultVersion() {
    return of(System.getProperty("kafka.it.version", "4.3.0"));
  }

  /** The older version of the compatibility tests (the pom's {@code kafka.it.compat.version}). */
  public static KafkaRuntime compatibilityVersion() {
    return of(System.getProperty("kafka.it.compat.version", "3.9.1"));
  }

  /**
   * The worker matrix (the pom's {@code kafka.it.matrix.versions}): the newest patch of each
   * supported Connect line, oldest first.
   */
  public static List<KafkaRuntime> matrix() {
    String versions =
        System.getProperty(
            "kafka.it.matrix.versions", "3.6.2,3.7.2,3.8.1,3.9.2,4.0.2,4.1.2,4.2.2,4.3.1");
    List<KafkaRuntime> runtimes = new ArrayList<>();
    for (String version : versions.split(",")) {
      if (!version.isBlank()) {
        runtimes.add(of(version.strip()));
      }
    }
    return runtimes;
  }

  /**
   * @throws IllegalStateException if the version's jars have not been materialised; the message
   *     says how to do it
   */
  public static KafkaRuntime of(String version) {
    Path dir = ItPaths.kafkaRuntimeDir().resolve(version);
    if (!Files.isRegularFile(dir.resolve(COMPLETE_MARKER))) {
      throw new IllegalStateException(
          "The jars of Kafka "
              + version
              + " are missing in "
              + dir
              + ". Run `mvn verify` (it materialises them before the integration tests) or `mvn -f "
              + "src/it/kafka-runtime/pom.xml -Dkafka.version="
              + version
              + " clean package` "
              + "(add -Dkafka.logging=reload4j for Kafka 3.x).");
    }
    return new KafkaRuntime(version, dir);
  }

  public String version() {
    return version;
  }

  public Path jarDir() {
    return jarDir;
  }

  /**
   * The command line of a child JVM on this runtime's jars. Logging goes to the console of the
   * child, which {@link ChildJvm} sends to its log file; both log4j 1 (Kafka 3.x, reload4j) and
   * log4j 2 (Kafka 4.x) are configured, each version reads its own.
   */
  List<String> javaCommand(
      String role, Path configDir, List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-Djava.awt.headless=true");
    command.add("-D" + ROLE_PROPERTY + "=" + role);
    command.addAll(loggingOptions(configDir));
    command.add("-cp");
    command.add(jarDir + "/*");
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  private static List<String> loggingOptions(Path configDir) {
    Path log4j1 = configDir.resolve("log4j.properties");
    Path log4j2 = configDir.resolve("log4j2.properties");
    String pattern = "[%d] %p %m (%c)%n";
    try {
      Files.createDirectories(configDir);
      Files.writeString(
          log4j1,
          String.join(
              "\n",
              "log4j.rootLogger=INFO, stdout",
              "log4j.appender.stdout=org.apache.log4j.ConsoleAppender",
              "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout",
              "log4j.appender.stdout.layout.ConversionPattern=" + pattern,
              "log4j.logger.org.reflections=ERROR",
              ""));
      Files.writeString(
          log4j2,
          String.join(
              "\n",
              "status = warn",
              "appender.stdout.type = Console",
              "appender.stdout.name = STDOUT",
              "appender.stdout.layout.type = PatternLayout",
              "appender.stdout.layout.pattern = " + pattern,
              "rootLogger.level = INFO",
              "rootLogger.appenderRef.stdout.ref = STDOUT",
              ""));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the logging configuration into " + configDir, e);
    }
    return List.of(
        "-Dlog4j.configuration=" + log4j1.toUri(), "-Dlog4j2.configurationFile=" + log4j2);
  }

  @Override
  public String toString() {
    return "Kafka " + version + " (" + jarDir + ")";
  }
}
