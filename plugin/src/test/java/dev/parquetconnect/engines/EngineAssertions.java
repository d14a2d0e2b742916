package dev.parquetconnect.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Comparisons of an engine's rows with the oracle's, with messages that show where they part. */
final class EngineAssertions {
  private EngineAssertions() {}

  /** Both lists sorted, then equal line by line; the message names the first difference. */
  static void assertSameRows(List<String> expected, List<String> actual, String what) {
    List<String> e = new ArrayList<>(expected);
    List<String> a = new ArrayList<>(actual);
    e.sort(null);
    a.sort(null);
    if (e.equals(a)) {
      return;
    }
    int i = 0;
    while (i < e.size() && i < a.size() && e.get(i).equals(a.get(i))) {
      i++;
    }
    throw new AssertionError(
        what
            + ": "
            + a.size()
            + " rows where "
            + e.size()
            + " were expected; first difference at sorted row "
            + i
            + ":\n  expected: "
            + (i < e.size() ? abbreviate(e.get(i)) : "(no more rows)")
            + "\n  actual:   "
            + (i < a.size() ? abbreviate(a.get(i)) : "(no more rows)"));
  }

  static String abbreviate(String s) {
    return s.length() <= 1500 ? s : s.substring(0, 1500) + "...";
  }

  /**
   * The Parquet files under {@code dir}, sorted (Spark's rule: names starting with _ or . are not
   * data).
   */
  static List<Path> parquetFiles(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".parquet"))
          .filter(f -> !dir.relativize(f).toString().matches("(^|.*/)[._].*"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
