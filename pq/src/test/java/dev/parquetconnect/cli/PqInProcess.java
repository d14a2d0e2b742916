package dev.parquetconnect.cli;

/** {@code pq} run in this JVM, for tests of other packages (the engine oracles rewrite files). */
public final class PqInProcess {
  private PqInProcess() {}

  /** Runs {@code pq args}; fails with its output when the exit code is not 0. */
  public static void runOrFail(String... args) {
    PqRun run = PqRun.run(args);
    if (run.exit() != 0) {
      throw new AssertionError("pq " + String.join(" ", args) + ": " + run.describe());
    }
  }
}
