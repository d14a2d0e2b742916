package dev.parquetconnect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker, storage tool or Connect worker running in its own JVM. Its stdout and stderr are
 * appended to one log file (kept across restarts, so a test can read the whole history). A shutdown
 * hook stops every child still running, so a test that fails or is interrupted leaves no JVM
 * behind.
 */
final class ChildJvm {

  private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);
  private static final Set<ChildJvm> LIVE = ConcurrentHashMap.newKeySet();
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);

  /** How long the shutdown hook lets children end by themselves before it kills them. */
  private static final Duration EXIT_GRACE = Duration.ofSeconds(10);

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ChildJvm::stopAllLive, "stop-it-child-jvms"));
  }

  private final String role;
  private final Process process;
  private final Path logFile;

  private ChildJvm(String role, Process process, Path logFile) {
    this.role = role;
    this.process = process;
    this.logFile = logFile;
  }

  static ChildJvm start(String role, List<String> command, Path workDir, Path logFile) {
    return start(role, command, workDir, logFile, Map.of());
  }

  /**
   * As {@link #start(String, List, Path, Path)}, with {@code environment} replacing variables of
   * the test JVM's environment; a null value removes the variable.
   */
  static ChildJvm start(
      String role,
      List<String> command,
      Path workDir,
      Path logFile,
      Map<String, String> environment) {
    try {
      Files.createDirectories(workDir);
      Files.createDirectories(logFile.getParent());
      Files.writeString(
          logFile,
          "==== " + role + ": " + String.join(" ", command) + System.lineSeparator(),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(logFile.toFile()));
      environment.forEach(
          (name, value) -> {
            if (value == null) {
              builder.environment().remove(name);
            } else {
              builder.environment().put(name, value);
            }
          });
      Process process = builder.start();
      // Nothing is ever written to a child's stdin.
      process.getOutputStream().close();
      ChildJvm child = new ChildJvm(role, process, logFile);
      LIVE.add(child);
      LOG.info("Started {} (pid {}), log {}", role, process.pid(), logFile);
      return child;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + role, e);
    }
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path logFile() {
    return logFile;
  }

  /**
   * Waits for the process to end by itself (e.g. the storage tool).
   *
   * @return its exit code
   */
  int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
        throw new IllegalStateException(
            role
                + " did not exit within "
                + timeout.toSeconds()
                + " s and was killed; log "
                + logFile
                + ":\n"
                + ItPaths.tail(logFile, 30));
      }
      LIVE.remove(this);
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
      throw new IllegalStateException("Interrupted while waiting for " + role, e);
    }
  }

  /**
   * SIGTERM (the process's own shutdown), then SIGKILL if it has not ended within {@code grace}.
   */
  void stop(Duration grace) {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.warn(
              "{} (pid {}) did not stop within {} s after SIGTERM; killing it, thread dump in {}",
              role,
              pid(),
              grace.toSeconds(),
              logFile);
          dumpThreads();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    kill();
  }

  /**
   * SIGQUIT makes a JVM print its threads to stdout, which is the log file: the evidence of why a
   * shutdown hung, kept before the process is killed.
   */
  private void dumpThreads() {
    try {
      Process quit = new ProcessBuilder("kill", "-QUIT", Long.toString(pid())).inheritIO().start();
      if (quit.waitFor(5, TimeUnit.SECONDS)) {
        Thread.sleep(1000);
      }
    } catch (IOException e) {
      LOG.warn("Cannot ask {} for a thread dump: {}", this, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGKILL to the process and its descendants: a crash, with no shutdown code run. */
  void kill() {
    killTree();
    try {
      if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            role + " (pid " + pid() + ") survived SIGKILL for " + KILL_TIMEOUT.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while killing " + role, e);
    }
    LIVE.remove(this);
  }

  private void killTree() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /**
   * The shutdown hook: SIGTERM to every child still running (a broker then closes its logs
   * cleanly), SIGKILL to those still there after {@link #EXIT_GRACE}. Bounded, so that a test JVM
   * that is exiting after a failure or a timeout never waits long.
   */
  private static void stopAllLive() {
    List<ChildJvm> children = List.copyOf(LIVE);
    children.forEach(child -> child.process.destroy());
    long deadline = System.nanoTime() + EXIT_GRACE.toNanos();
    for (ChildJvm child : children) {
      try {
        child.process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    children.forEach(ChildJvm::killTree);
  }

  @Override
  public String toString() {
    return role + " (pid " + process.pid() + ")";
  }
}
