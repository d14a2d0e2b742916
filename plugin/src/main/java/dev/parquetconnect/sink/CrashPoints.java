package dev.parquetconnect.sink;

/**
 * Named places in the commit protocol where the crash tests stop a task: {@code put} (after a
 * record is written), {@code before-intent} (files finished and uploaded, nothing claimed yet),
 * {@code after-intent}, {@code before-file} (before each file of a commit is made visible, after
 * its deadline check), {@code mid-commit} (after the first file of a commit became visible),
 * {@code before-done} (all files visible, no outcome yet) and {@code after-done}.
 */
interface CrashPoints {
  /** No crash points: production. */
  CrashPoints NONE = point -> {};

  void at(String point);
}
