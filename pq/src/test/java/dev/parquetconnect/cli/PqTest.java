package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The command line itself: help, usage errors, exit codes, one-line failures, --debug. */
class PqTest {
  private static final String[] COMMANDS = {"schema", "meta", "cat", "verify", "rewrite", "merge"};

  @Test
  void helpListsEveryCommandOnStdout() {
    for (String help : new String[] {"--help", "-h", "help"}) {
      PqRun run = PqRun.run(help);
      assertEquals(Pq.OK, run.exit());
      assertEquals("", run.err());
      assertTrue(run.out().startsWith("usage: pq COMMAND [ARGS]"), run.out());
      for (String command : COMMANDS) {
        assertTrue(run.out().contains("\n  " + command + " "), command + " in " + run.out());
      }
    }
  }

  @Test
  void everyCommandHasItsHelp() {
    for (String command : COMMANDS) {
      PqRun run = PqRun.run(command, "--help");
      assertEquals(Pq.OK, run.exit(), command);
      assertTrue(run.out().startsWith("usage: pq " + command + " "), run.out());
      assertEquals(run.out(), PqRun.run("help", command).out());
      assertEquals(run.out(), PqRun.run(command, "some.parquet", "-h").out());
    }
  }

  @Test
  void noArgumentsOrUnknownCommandIsUsageOnStderr() {
    PqRun none = PqRun.run();
    assertEquals(Pq.USAGE, none.exit());
    assertEquals("", none.out());
    assertTrue(none.err().startsWith("usage: pq COMMAND"), none.err());

    PqRun unknown = PqRun.run("frobnicate", "x");
    assertEquals(Pq.USAGE, unknown.exit());
    assertTrue(
        unknown.err().startsWith("pq: unknown command 'frobnicate'\nusage: pq COMMAND"),
        unknown.err());
    assertEquals(Pq.USAGE, PqRun.run("help", "frobnicate").exit());
  }

  @Test
  void wrongArgumentsAreUsageErrors() {
    String file = Corpus.file("data/alltypes_plain.parquet").toString();
    assertUsage(PqRun.run("cat"), "pq cat: missing FILE");
    assertUsage(PqRun.run("schema", file, "extra"), "pq schema: unexpected argument extra");
    assertUsage(PqRun.run("cat", file, "--bogus", "1"), "pq cat: unknown option --bogus");
    assertUsage(PqRun.run("cat", file, "--limit"), "pq cat: option --limit needs a value");
    assertUsage(
        PqRun.run("cat", file, "--limit", "1", "--limit", "2"),
        "pq cat: option --limit given twice");
    assertUsage(PqRun.run("verify", file, "--limit=3"), "pq verify: unknown option --limit");
  }

  private static void assertUsage(PqRun run, String firstLine) {
    assertEquals(Pq.USAGE, run.exit(), run.describe());
    assertEquals("", run.out());
    assertEquals(2, run.errLines().size(), run.err());
    assertEquals(firstLine, run.errLines().get(0));
    assertTrue(run.errLines().get(1).startsWith("usage: pq "), run.err());
  }

  @Test
  void optionsTakeEqualsFormAndDoubleDashEndsOptions() {
    Path file = Corpus.file("data/alltypes_plain.parquet");
    assertEquals(2, PqRun.run("cat", file.toString(), "--limit=2").outLines().size());
    PqRun run = PqRun.run("cat", "--limit", "1", "--", file.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(1, run.outLines().size());
  }

  @Test
  void debugAddsTheStackTrace() {
    Path file = Corpus.file("data/datapage_v1-corrupt-checksum.parquet");
    PqRun plain = PqRun.run("cat", file.toString());
    assertEquals(Pq.FAILED, plain.exit());
    assertEquals(1, plain.errLines().size(), plain.err());
    PqRun debug = PqRun.run("--debug", "cat", file.toString());
    assertEquals(Pq.FAILED, debug.exit());
    assertEquals(plain.errLines().get(0), debug.errLines().get(0));
    assertTrue(debug.err().contains("\tat dev.parquetconnect."), debug.err());
  }

  @Test
  void aFailureWhileCattingIsOneLineAfterTheOutput() {
    // The corrupt page is the first of column a: no row can be printed, and none is.
    PqRun run =
        PqRun.run("cat", Corpus.file("data/datapage_v1-corrupt-checksum.parquet").toString());
    assertEquals(Pq.FAILED, run.exit());
    assertEquals("", run.out());
    assertEquals(1, run.errLines().size(), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
  }
}
