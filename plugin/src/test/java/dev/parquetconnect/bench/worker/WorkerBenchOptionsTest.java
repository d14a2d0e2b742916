package dev.parquetconnect.bench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line of {@code bin/bench worker}; the bench itself never runs in the test suite. */
class WorkerBenchOptionsTest {

  @Test
  void withoutArgumentsEveryDatasetAndLegRunsTwiceOverAMillionRecords() {
    WorkerBenchOptions options = WorkerBenchOptions.parse();

    assertEquals(1_000_000, options.records());
    assertEquals(2, options.repeat());
    assertEquals(200_000, options.warmup());
    assertEquals(List.of(BenchDataset.values()), options.datasets());
    assertEquals(List.of(LegKind.values()), options.legs());
    assertEquals(2, options.partitions());
    assertEquals(10_000, options.commitIntervalMs());
    assertFalse(options.profile());
    assertEquals(Path.of("plugin", "target", "bench", "worker"), options.workDir());
  }

  @Test
  void everyOptionIsRead() {
    WorkerBenchOptions options =
        WorkerBenchOptions.parse(
            "--records",
            "200_000",
            "--repeat",
            "3",
            "--warmup",
            "50_000",
            "--datasets",
            "wide,nested",
            "--legs",
            "iceberg-jsonconverter,ours-jsonconverter",
            "--partitions",
            "4",
            "--commit-interval-ms",
            "5000",
            "--profile",
            "--work-dir",
            "/tmp/wb");

    assertEquals(200_000, options.records());
    assertEquals(3, options.repeat());
    assertEquals(50_000, options.warmup());
    assertEquals(List.of(BenchDataset.WIDE, BenchDataset.NESTED), options.datasets());
    assertEquals(
        List.of(LegKind.ICEBERG_JSON_CONVERTER, LegKind.OURS_JSON_CONVERTER), options.legs());
    assertEquals(4, options.partitions());
    assertEquals(5000, options.commitIntervalMs());
    assertTrue(options.profile());
    assertEquals(Path.of("/tmp/wb"), options.workDir());
  }

  @Test
  void theOrderOfTheLegsAlternatesBetweenRounds() {
    WorkerBenchOptions options =
        WorkerBenchOptions.parse(
            "--legs", "ours-jsonconverter,ours-input-json,iceberg-jsonconverter");

    List<LegKind> given =
        List.of(
            LegKind.OURS_JSON_CONVERTER, LegKind.OURS_INPUT_JSON, LegKind.ICEBERG_JSON_CONVERTER);
    assertEquals(given, options.legsOfRound(0));
    assertEquals(List.of(given.get(2), given.get(1), given.get(0)), options.legsOfRound(1));
    assertEquals(given, options.legsOfRound(2));
  }

  @Test
  void theWarmUpNeverExceedsTheRecordsAndZeroTurnsItOff() {
    assertEquals(100_000, WorkerBenchOptions.parse("--records", "100000").warmup());
    assertEquals(0, WorkerBenchOptions.parse("--warmup", "0").warmup());
  }

  @Test
  void aNameListedTwiceRunsOnce() {
    assertEquals(
        List.of(BenchDataset.NESTED),
        WorkerBenchOptions.parse("--datasets", "nested,NESTED").datasets());
  }

  @Test
  void mistakesAreNamedWithTheOption() {
    assertMessage("unknown option --record", "--record", "5");
    assertMessage("--records needs a value", "--records");
    assertMessage("--records needs a whole number, not 'many'", "--records", "many");
    assertMessage("--repeat must be between 1 and 2147483647, not 0", "--repeat", "0");
    assertMessage("--warmup must be between 0 and 2147483647, not -1", "--warmup", "-1");
    assertMessage(
        "--commit-interval-ms must be between 100 and 2147483647, not 10",
        "--commit-interval-ms",
        "10");
    assertMessage(
        "--legs: unknown name 'table'; known: ours-jsonconverter,ours-input-json,"
            + "ours-table-jsonconverter,ours-table-input-json,iceberg-jsonconverter",
        "--legs",
        "table");
    assertMessage(
        "--datasets: unknown name 'flat'; known: nested,schemaless,wide", "--datasets", "flat");
  }

  private static void assertMessage(String message, String... args) {
    IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> WorkerBenchOptions.parse(args));
    assertEquals(message, thrown.getMessage());
  }
}
