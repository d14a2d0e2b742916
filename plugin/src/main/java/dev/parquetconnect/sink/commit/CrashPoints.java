package dev.parquetconnect.sink.commit;

/**
 * The one hook the sink calls at named places of a commit, where the crash tests stop a task:
 * {@code put} (after a record is written), {@code before-intent} (files finished and uploaded,
 * nothing claimed yet), {@code after-intent}, {@code before-file} (before each file of a commit is
 * made visible, after its deadline check), {@code mid-commit} (after the first file of a commit
 * became visible), {@code before-done} (all files visible, no outcome yet) and {@code after-done}
 * (for an Iceberg table: the range staged); and in an Iceberg table's commit round {@code
 * before-table-commit} and {@code after-table-commit}. Production passes {@link #NONE}; tests
 * install one that throws or halts at a point ({@link FaultInjector} in a real worker).
 */
public interface CrashPoints {
  /** No crash points: production. */
  CrashPoints NONE = point -> {};

  String PUT = "put";
  String BEFORE_INTENT = "before-intent";
  String AFTER_INTENT = "after-intent";
  String BEFORE_FILE = "before-file";
  String MID_COMMIT = "mid-commit";
  String BEFORE_DONE = "before-done";
  String AFTER_DONE = "after-done";

  /** An Iceberg table commit's round: ranges listed and chosen, before the catalog commit. */
  String BEFORE_TABLE_COMMIT = "before-table-commit";

  /** An Iceberg table commit's round: after the catalog commit, before its clean-up. */
  String AFTER_TABLE_COMMIT = "after-table-commit";

  void at(String point);
}
