package dev.parquetconnect.format.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How often each repetition and definition level occurs, per page (for the column index) and per
 * chunk (for SizeStatistics). As parquet-java does, a histogram is kept only where it says more
 * than the counts already do: repetition levels when the column repeats, definition levels when the
 * maximum is above 1.
 */
final class LevelHistograms {
  final boolean recordsRepetition;
  final boolean recordsDefinition;
  final long[] pageRepetition;
  final long[] pageDefinition;
  private final long[] chunkRepetition;
  private final long[] chunkDefinition;

  LevelHistograms(int maxRepetitionLevel, int maxDefinitionLevel) {
    recordsRepetition = maxRepetitionLevel > 0;
    recordsDefinition = maxDefinitionLevel > 1;
    pageRepetition = new long[maxRepetitionLevel + 1];
    pageDefinition = new long[maxDefinitionLevel + 1];
    chunkRepetition = new long[maxRepetitionLevel + 1];
    chunkDefinition = new long[maxDefinitionLevel + 1];
  }

  /** Counts the levels of a closed page, into the page's and the chunk's histograms. */
  void count(PageBuffer page) {
    count(
        page.hasRepetitionLevels ? page.repetitionLevels : null,
        page.entries,
        pageRepetition,
        chunkRepetition);
    count(
        page.hasDefinitionLevels ? page.definitionLevels : null,
        page.entries,
        pageDefinition,
        chunkDefinition);
  }

  private static void count(int[] levels, int n, long[] page, long[] chunk) {
    Arrays.fill(page, 0);
    if (levels == null) {
      page[0] = n; // no levels stored: every entry is at level 0
    } else if (page.length <= 3) {
      // Levels up to 2 (most columns): counted from sums, a loop the JIT vectorizes, where
      // incrementing a counter per level makes each increment wait for the one before.
      // Int sums cannot overflow: a page holds fewer than 2^29 entries (4 bytes of heap per
      // level, within an int byte limit).
      int sum = 0;
      int twos = 0;
      for (int i = 0; i < n; i++) {
        int level = levels[i];
        sum += level;
        twos += level >>> 1;
      }
      if (page.length == 3) {
        page[2] = twos;
      }
      page[1] = sum - 2 * twos;
      page[0] = n - page[1] - (page.length == 3 ? twos : 0);
    } else {
      for (int i = 0; i < n; i++) {
        page[levels[i]]++;
      }
    }
    for (int i = 0; i < page.length; i++) {
      chunk[i] += page[i];
    }
  }

  /** The chunk's repetition histogram, or null when not recorded. */
  List<Long> chunkRepetition() {
    return recordsRepetition ? toList(chunkRepetition) : null;
  }

  /** The chunk's definition histogram, or null when not recorded. */
  List<Long> chunkDefinition() {
    return recordsDefinition ? toList(chunkDefinition) : null;
  }

  private static List<Long> toList(long[] values) {
    List<Long> list = new ArrayList<>(values.length);
    for (long v : values) {
      list.add(v);
    }
    return list;
  }

  /** Starts the next chunk. */
  void clearChunk() {
    Arrays.fill(chunkRepetition, 0);
    Arrays.fill(chunkDefinition, 0);
  }
}
