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
 * An engine's reader program in a child JVM and the line protocol both oracle programs speak: the
 * program prints {@code ready ...} once, then reads one request per line (the file to write its
 * answer into, a tab, the rest of the request) and prints {@code ok} or {@code error <message>} per
 * request. The answer file holds the schema the engine saw on its first line and one canonical row
 * per line after it (see {@link EngineCanonical}). Answers go through files so that a row never has
 * to be escaped for the pipe; four of them are reused in turn.
 */
final class OracleProcess implements AutoCloseable {
  private final String engine;
  private final Process process;
  private final Writer requests;
  private final BufferedReader answers;
  private final Path logFile;
  private final Path scratch;
  private final long answerTimeoutSeconds;
  private final ExecutorService waiter;
  private int requestCount;

  /** What the engine answered: the schema it saw and its rows, or the error it threw. */
  record Reply(String schema, List<String> rows, String error) {}

  private OracleProcess(
      String engine, Process process, Path logFile, Path scratch, long answerTimeoutSeconds) {
    this.engine = engine;
    this.process = process;
    this.logFile = logFile;
    this.scratch = scratch;
    this.answerTimeoutSeconds = answerTimeoutSeconds;
    this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.answers =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.waiter =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, engine + "-oracle-answers");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Runs {@code command} in {@code work} (its standard error appended to {@code logFile}) and waits
   * for its {@code ready} line.
   */
  static OracleProcess start(
      String engine,
      List<String> command,
      Path work,
      Path logFile,
      Path scratch,
      long answerTimeoutSeconds)
      throws IOException {
    Process process =
        new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectError(Redirect.appendTo(logFile.toFile()))
            .start();
    OracleProcess oracle =
        new OracleProcess(engine, process, logFile, scratch, answerTimeoutSeconds);
    String ready = oracle.awaitLine();
    if (ready == null || !ready.startsWith("ready ")) {
      oracle.close();
      throw new IllegalStateException(engine + " did not start (" + ready + "); log " + logFile);
    }
    return oracle;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Sends one request ({@code fields} after the answer file, tab-separated) and reads back. */
  synchronized Reply ask(String fields) throws IOException {
    Path out = scratch.resolve("answer-" + (requestCount++ % 4) + ".txt");
    Files.deleteIfExists(out);
    requests.write(out + "\t" + fields + "\n");
    requests.flush();
    String status = awaitLine();
    if (status == null) {
      throw new IllegalStateException(engine + " ended; log " + logFile);
    }
    if (status.startsWith("error ")) {
      return new Reply(null, List.of(), status.substring("error ".length()));
    }
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    return new Reply(lines.get(0), lines.subList(1, lines.size()), null);
  }

  private String awaitLine() throws IOException {
    Future<String> line = waiter.submit(answers::readLine);
    try {
      return line.get(answerTimeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      process.destroyForcibly();
      throw new IllegalStateException(
          engine
              + " gave no answer within "
              + answerTimeoutSeconds
              + " s and was killed; log "
              + logFile);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + engine, e);
    } catch (ExecutionException e) {
      throw new IOException("reading " + engine + "'s answer", e.getCause());
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
}
