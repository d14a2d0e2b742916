package dev.parquetconnect.it;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Bounded polling for the integration tests. Every wait of the harness goes through here, so a hung
 * broker or worker fails the test with a message that says what was awaited, for how long, and the
 * last error the probe saw, instead of hanging the build.
 */
public final class Await {

  private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

  private Await() {}

  /**
   * Thrown by a probe to stop waiting at once, e.g. when the awaited process has exited and can no
   * longer become ready.
   */
  public static final class Aborted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Aborted(String message) {
      super(message);
    }
  }

  /**
   * Polls {@code probe} until it returns true. A probe that throws counts as "not yet" (its
   * exception is reported if time runs out), except {@link Aborted}, which ends the wait.
   *
   * @throws IllegalStateException when {@code timeout} passes first
   */
  public static void until(String what, Duration timeout, Callable<Boolean> probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception lastFailure = null;
    while (true) {
      try {
        if (Boolean.TRUE.equals(probe.call())) {
          return;
        }
        lastFailure = null;
      } catch (Aborted aborted) {
        throw aborted;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + what, e);
      } catch (Exception e) {
        lastFailure = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        String message =
            "Timed out after "
                + timeout.toSeconds()
                + " s waiting for "
                + what
                + (lastFailure == null ? "" : "; last failure: " + lastFailure);
        throw new IllegalStateException(message, lastFailure);
      }
      sleep(POLL_INTERVAL);
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting", e);
    }
  }
}
