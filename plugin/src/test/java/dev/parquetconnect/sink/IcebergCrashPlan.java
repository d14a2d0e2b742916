package dev.parquetconnect.sink;

import dev.parquetconnect.sink.commit.CrashPoints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The crash plan of {@link IcebergCrashIT}: which crashes a run makes, in which order (from the
 * run's seed), and how many passes of its point each fault waits for.
 */
final class IcebergCrashPlan {
  /**
   * The crash points the table commit passes (after-intent is the file mode's alone): a task's
   * staging of its ranges, then the round that commits every task's staged ranges.
   */
  static final List<String> POINTS =
      List.of(
          CrashPoints.PUT,
          CrashPoints.BEFORE_INTENT,
          CrashPoints.BEFORE_FILE,
          CrashPoints.MID_COMMIT,
          CrashPoints.BEFORE_DONE,
          CrashPoints.AFTER_DONE,
          CrashPoints.BEFORE_TABLE_COMMIT,
          CrashPoints.AFTER_TABLE_COMMIT);

  /** The points of the round, where a failure is retried by the task instead of failing it. */
  static final Set<String> ROUND_POINTS =
      Set.of(CrashPoints.BEFORE_TABLE_COMMIT, CrashPoints.AFTER_TABLE_COMMIT);

  enum Kind {
    /** The task throws at the point; the test restarts it. */
    FAIL,
    /** The worker JVM halts at the point (no shutdown, as SIGKILL there); the test restarts it. */
    HALT,
    /** SIGKILL to a worker at a random moment; the test restarts it. */
    SIGKILL,
    /** SIGSTOP to a worker until its tasks moved and committed, then SIGCONT. */
    ZOMBIE,
    /**
     * The oldest staged descriptor deleted while its writer goes on (as a zombie's recovery or a
     * clean-up after a crash point can): the writer must heal in place, without a rebalance.
     */
    WITHDRAW
  }

  record Crash(Kind kind, String point) {
    @Override
    public String toString() {
      return point == null ? kind.toString() : kind + " at " + point;
    }
  }

  private IcebergCrashPlan() {}

  /**
   * The crashes of a run, in a random order: a task failed at every crash point of the table commit
   * and at one of them again, a worker halted at one, a SIGKILL and a zombie. (A worker's restart
   * is the slowest part of a crash: two of them.)
   */
  static List<Crash> plan(Random random) {
    List<Crash> crashes = new ArrayList<>();
    for (String point : POINTS) {
      crashes.add(new Crash(Kind.FAIL, point));
    }
    crashes.add(new Crash(Kind.FAIL, POINTS.get(random.nextInt(POINTS.size()))));
    crashes.add(new Crash(Kind.HALT, POINTS.get(random.nextInt(POINTS.size()))));
    crashes.add(new Crash(Kind.SIGKILL, null));
    crashes.add(new Crash(Kind.ZOMBIE, null));
    crashes.add(new Crash(Kind.WITHDRAW, null));
    Collections.shuffle(crashes, random);
    return crashes;
  }

  /** How many passes of {@code point} the fault waits for. */
  static int hits(String point, Random random) {
    // put is passed once a record, the others once a commit of one partition (before-file and
    // mid-commit once a file).
    return point.equals(CrashPoints.PUT) ? 1 + random.nextInt(300) : 1 + random.nextInt(3);
  }
}
