package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.Set;

/** One {@code pq} sub-command: its name, its help and what it does. */
interface Command {
  /** The word that selects the command ({@code pq NAME ...}). */
  String name();

  /** One line for the overview of {@code pq --help}. */
  String summary();

  /** The command's own help: synopsis, what it does, its options. */
  String help();

  /** The options that take a value, without their leading dashes. */
  Set<String> valuedOptions();

  /** The options that take no value, without their leading dashes. */
  default Set<String> flags() {
    return Set.of();
  }

  /**
   * Runs the command and returns its exit code. Problems with the files are thrown, for {@link Pq}
   * to report in one line with the right exit code.
   */
  int run(Arguments args, CommandOutput output)
      throws UsageException, InputException, IOException, ParquetException;
}
