package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sample a large page's fallback encoding is measured on. */
class FallbackEncodingsTest {
  @Test
  void smallPagesAreMeasuredWhole() {
    assertArrayEquals(new int[] {0, 0}, FallbackEncodings.sampleRuns(0));
    assertArrayEquals(new int[] {0, 1}, FallbackEncodings.sampleRuns(1));
    assertArrayEquals(
        new int[] {0, FallbackEncodings.WHOLE_PAGE_VALUES},
        FallbackEncodings.sampleRuns(FallbackEncodings.WHOLE_PAGE_VALUES));
  }

  @Test
  void largePagesAreSampledInRunsFromStartToEndWithoutOverlap() {
    int[] sizes = {
      FallbackEncodings.WHOLE_PAGE_VALUES + 1, 20_000, 131_072, 1_000_000, Integer.MAX_VALUE / 2
    };
    for (int values : sizes) {
      int[] runs = FallbackEncodings.sampleRuns(values);
      assertEquals(0, runs.length % 2);
      assertEquals(0, runs[0], "the first run starts the page");
      int end = runs[runs.length - 2] + runs[runs.length - 1];
      assertEquals(values, end, "the last run ends the page");
      long sampled = 0;
      int previousEnd = 0;
      for (int i = 0; i < runs.length; i += 2) {
        assertTrue(runs[i] >= previousEnd, "runs in order, apart: " + values);
        assertTrue(runs[i + 1] > 0);
        previousEnd = runs[i] + runs[i + 1];
        sampled += runs[i + 1];
      }
      assertTrue(sampled >= 4000, "at least about 4096 values: " + values + " -> " + sampled);
      assertTrue(
          sampled <= Math.max(4096, values / 20),
          "about a twentieth: " + values + " -> " + sampled);
      assertTrue(sampled < values);
    }
  }
}
