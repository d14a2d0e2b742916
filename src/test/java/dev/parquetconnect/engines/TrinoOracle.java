package dev.parquetconnect.engines;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Trino's Parquet reader in a child JVM, started once and asked many questions: the reader
 * program {@code src/it/trino-runtime} (TrinoOracleMain) on the jars the build resolved into
 * {@code target/engine-runtime/trino-<version>}, run by the newer JDK that Trino needs
 * ({@code trino.it.java.home}). No server, no network: the reader library alone, as Trino's
 * Hive connector drives it. Its log goes to {@code target/it/engines/trino-<version>.log}.
 */
public final class TrinoOracle implements AutoCloseable {
  private static final long ANSWER_TIMEOUT_SECONDS = 120;

  private final String version;
  private final Process process;
  private final Writer requests;
  private final BufferedReader answers;
  private final Path logFile;
  private final Path scratch;
  private final ExecutorService waiter = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "trino-oracle-answers");
    t.setDaemon(true);
    return t;
  });
  private int requestCount;

  private TrinoOracle(String version, Process process, Path logFile, Path scratch) {
    this.version = version;
    this.process = process;
    this.logFile = logFile;
    this.scratch = scratch;
    this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.answers = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** The trino-parquet version the build resolved ({@code trino.it.version}). */
  public static String version() {
    return System.getProperty("trino.it.version", "483");
  }

  /** Starts the reader program of {@link #version()} and waits until it is ready. */
  public static TrinoOracle start() throws IOException {
    String version = version();
    Path runtime = Path.of(System.getProperty("engine.runtime.dir", "target/engine-runtime"))
        .resolve("trino-" + version);
    Path javaHome = Path.of(System.getProperty("trino.it.java.home",
        "/usr/lib/jvm/temurin-25-jdk-amd64"));
    if (!Files.isRegularFile(runtime.resolve("dependencies.txt"))) {
      throw new IllegalStateException("Trino " + version + " is not resolved in " + runtime
          + ": run `JAVA_HOME=" + javaHome + " mvn -f src/it/trino-runtime/pom.xml"
          + " -Dtrino.version=" + version + " clean package`"
          + " (the pre-integration-test phase does it)");
    }
    Path java = javaHome.resolve("bin/java");
    if (!Files.isExecutable(java)) {
      throw new IllegalStateException("Trino " + version + " needs a JDK 25 or newer: none at "
          + javaHome + " (set -Dtrino.it.java.home)");
    }
    Path work = Path.of(System.getProperty("it.work.dir", "target/it")).resolve("engines");
    Path scratch = Files.createDirectories(work.resolve("trino-" + version + "-answers"));
    Path logFile = work.resolve("trino-" + version + ".log");
    List<String> command = List.of(java.toString(), "-Xmx512m", "-XX:+UseSerialGC",
        // As Trino's own launcher starts its JVM: the reader's vectorized decoders use the
        // incubating Vector API, and its memory accounting (JOL) attaches to its own JVM.
        "--add-modules=jdk.incubator.vector", "-Djdk.attach.allowAttachSelf=true",
        "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("trino-tmp")),
        "-cp", runtime.resolve("lib") + "/*", "dev.parquetconnect.engines.TrinoOracleMain");
    Process process = new ProcessBuilder(command)
        .directory(work.toFile())
        .redirectError(Redirect.appendTo(logFile.toFile()))
        .start();
    TrinoOracle oracle = new TrinoOracle(version, process, logFile, scratch);
    String ready = oracle.awaitLine();
    if (ready == null || !ready.startsWith("ready ")) {
      oracle.close();
      throw new IllegalStateException("Trino " + version + " did not start (" + ready + "); log "
          + logFile);
    }
    return oracle;
  }

  /** Every row of the Parquet file {@code file} as Trino's reader reads it. */
  public synchronized Answer read(Path file) throws IOException {
    Path out = scratch.resolve("answer-" + (requestCount++ % 4) + ".txt");
    Files.deleteIfExists(out);
    requests.write(out + "\t" + file.toAbsolutePath() + "\n");
    requests.flush();
    String status = awaitLine();
    if (status == null) {
      throw new IllegalStateException("Trino " + version + " ended; log " + logFile);
    }
    if (status.startsWith("error ")) {
      return new Answer(null, List.of(), status.substring("error ".length()));
    }
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    return new Answer(lines.get(0), lines.subList(1, lines.size()), null);
  }

  private String awaitLine() throws IOException {
    Future<String> line = waiter.submit(answers::readLine);
    try {
      return line.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException("Trino " + version + " gave no answer within "
          + ANSWER_TIMEOUT_SECONDS + " s and was killed; log " + logFile);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for Trino", e);
    } catch (ExecutionException e) {
      throw new IOException("reading Trino's answer", e.getCause());
    }
  }

  @Override
  public void close() {
    try {
      requests.close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      waiter.shutdownNow();
    }
  }

  /**
   * Trino's answer: the row type it read the file as and one canonical line per row (see
   * {@link EngineCanonical}), or the error it threw.
   */
  public record Answer(String schema, List<String> rows, String error) {
    public boolean failed() {
      return error != null;
    }
  }
}
