package dev.parquetconnect.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * POSIX signals to a child process that Java's {@link ProcessHandle} cannot send: {@link #pause}
 * (SIGSTOP) freezes every thread of a worker JVM at once, as a long GC pause or a stalled VM would,
 * and {@link #resume} (SIGCONT) lets it run on as if no time had passed, which makes a zombie: a
 * worker that still believes it owns the partitions that moved away while it was frozen.
 */
public final class ProcessSignals {
  private static final long TIMEOUT_SECONDS = 10;

  private ProcessSignals() {}

  /** SIGSTOP: the process stops at once and cannot ignore it. */
  public static void pause(long pid) {
    signal("STOP", pid);
  }

  /** SIGCONT: a stopped process runs on. */
  public static void resume(long pid) {
    signal("CONT", pid);
  }

  private static void signal(String name, long pid) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + name, Long.toString(pid))
              .redirectErrorStream(true)
              .start();
      if (!kill.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new IllegalStateException("kill -" + name + " " + pid + " did not return");
      }
      String output =
          new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (kill.exitValue() != 0) {
        throw new IllegalStateException(
            "kill -" + name + " " + pid + " exited with " + kill.exitValue() + ": " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot send SIG" + name + " to " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted sending SIG" + name + " to " + pid, e);
    }
  }
}
