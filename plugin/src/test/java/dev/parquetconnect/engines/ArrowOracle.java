package dev.parquetconnect.engines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Arrow C++'s Parquet reader in a child JVM, started once and asked many questions: the reader
 * program {@code src/it/arrow-runtime} (ArrowOracleMain) on the jars the build resolved into {@code
 * target/engine-runtime/arrow-<version>}: Arrow Java's dataset module, whose jar carries Arrow C++
 * (its datasets and Parquet reader) as a JNI library for linux x86_64. A child JVM, not the test
 * classpath: the native library loads once per JVM and allocates outside the heap, and Arrow's
 * memory module needs {@code java.nio} opened. No network. Its log goes to {@code
 * target/it/fork-N/engines/arrow-<version>.log}.
 */
public final class ArrowOracle implements AutoCloseable {
  private static final long ANSWER_TIMEOUT_SECONDS = 120;

  private final OracleProcess process;

  private ArrowOracle(OracleProcess process) {
    this.process = process;
  }

  /** The Arrow Java version the build resolved ({@code arrow.it.version}). */
  public static String version() {
    return System.getProperty("arrow.it.version", "18.3.0");
  }

  /** Starts the reader program of {@link #version()} and waits until it is ready. */
  public static ArrowOracle start() throws IOException {
    String version = version();
    Path runtime =
        Path.of(System.getProperty("engine.runtime.dir", "target/engine-runtime"))
            .resolve("arrow-" + version);
    if (!Files.isRegularFile(runtime.resolve("dependencies.txt"))) {
      throw new IllegalStateException(
          "Arrow "
              + version
              + " is not resolved in "
              + runtime
              + ": run `mvn -f src/it/arrow-runtime/pom.xml -Darrow.version="
              + version
              + " clean package` (the pre-integration-test phase does it)");
    }
    Path work = Path.of(System.getProperty("it.work.dir", "target/it")).resolve("engines");
    Path scratch = Files.createDirectories(work.resolve("arrow-" + version + "-answers"));
    Path logFile = work.resolve("arrow-" + version + ".log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-XX:+UseSerialGC",
            // Arrow's memory module reads direct buffers' addresses (its documented JVM flag).
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("arrow-tmp")),
            "-cp",
            runtime.resolve("lib") + "/*",
            "dev.parquetconnect.engines.ArrowOracleMain");
    return new ArrowOracle(
        OracleProcess.start(
            "Arrow " + version, command, work, logFile, scratch, ANSWER_TIMEOUT_SECONDS));
  }

  /** Every row of the Parquet file {@code file} as Arrow C++'s dataset scan reads it. */
  public Answer read(Path file) throws IOException {
    OracleProcess.Reply reply = process.ask(file.toAbsolutePath().toString());
    return new Answer(reply.schema(), reply.rows(), reply.error());
  }

  @Override
  public void close() {
    process.close();
  }

  /**
   * Arrow's answer: the Arrow schema it read the file as and one canonical line per row (see {@link
   * EngineCanonical}), or the error it threw.
   */
  public record Answer(String schema, List<String> rows, String error) {
    public boolean failed() {
      return error != null;
    }
  }
}
