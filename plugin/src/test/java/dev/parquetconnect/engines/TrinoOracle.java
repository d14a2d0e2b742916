package dev.parquetconnect.engines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Trino's Parquet reader in a child JVM, started once and asked many questions: the reader program
 * {@code src/it/trino-runtime} (TrinoOracleMain) on the jars the build resolved into {@code
 * target/engine-runtime/trino-<version>}, run by the newer JDK that Trino needs ({@code
 * trino.it.java.home}). No server, no network: the reader library alone, as Trino's Hive connector
 * drives it. Its log goes to {@code target/it/fork-N/engines/trino-<version>.log}.
 */
public final class TrinoOracle implements AutoCloseable {
  private static final long ANSWER_TIMEOUT_SECONDS = 120;

  private final OracleProcess process;

  private TrinoOracle(OracleProcess process) {
    this.process = process;
  }

  /** The trino-parquet version the build resolved ({@code trino.it.version}). */
  public static String version() {
    return System.getProperty("trino.it.version", "483");
  }

  /** Starts the reader program of {@link #version()} and waits until it is ready. */
  public static TrinoOracle start() throws IOException {
    String version = version();
    Path runtime =
        Path.of(System.getProperty("engine.runtime.dir", "target/engine-runtime"))
            .resolve("trino-" + version);
    Path javaHome =
        Path.of(System.getProperty("trino.it.java.home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
    if (!Files.isRegularFile(runtime.resolve("dependencies.txt"))) {
      throw new IllegalStateException(
          "Trino "
              + version
              + " is not resolved in "
              + runtime
              + ": run `JAVA_HOME="
              + javaHome
              + " mvn -f src/it/trino-runtime/pom.xml"
              + " -Dtrino.version="
              + version
              + " clean package`"
              + " (the pre-integration-test phase does it)");
    }
    Path java = javaHome.resolve("bin/java");
    if (!Files.isExecutable(java)) {
      throw new IllegalStateException(
          "Trino "
              + version
              + " needs a JDK 25 or newer: none at "
              + javaHome
              + " (set -Dtrino.it.java.home)");
    }
    Path work = Path.of(System.getProperty("it.work.dir", "target/it")).resolve("engines");
    Path scratch = Files.createDirectories(work.resolve("trino-" + version + "-answers"));
    Path logFile = work.resolve("trino-" + version + ".log");
    List<String> command =
        List.of(
            java.toString(),
            "-Xmx512m",
            "-XX:+UseSerialGC",
            // As Trino's own launcher starts its JVM: the reader's vectorized decoders use the
            // incubating Vector API, and its memory accounting (JOL) attaches to its own JVM.
            "--add-modules=jdk.incubator.vector",
            "-Djdk.attach.allowAttachSelf=true",
            "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("trino-tmp")),
            "-cp",
            runtime.resolve("lib") + "/*",
            "dev.parquetconnect.engines.TrinoOracleMain");
    return new TrinoOracle(
        OracleProcess.start(
            "Trino " + version, command, work, logFile, scratch, ANSWER_TIMEOUT_SECONDS));
  }

  /** Every row of the Parquet file {@code file} as Trino's reader reads it. */
  public Answer read(Path file) throws IOException {
    OracleProcess.Reply reply = process.ask(file.toAbsolutePath().toString());
    return new Answer(reply.schema(), reply.rows(), reply.error());
  }

  @Override
  public void close() {
    process.close();
  }

  /**
   * Trino's answer: the row type it read the file as and one canonical line per row (see {@link
   * EngineCanonical}), or the error it threw.
   */
  public record Answer(String schema, List<String> rows, String error) {
    public boolean failed() {
      return error != null;
    }
  }
}
