package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.DeltaFuzzHarness.Sample;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Fuzzes {@link GroupVarIntDecoder} for INT32 and INT64; see {@link DeltaFuzzHarness}. */
class GroupVarIntFuzzTest {

  @Test
  @Timeout(60)
  void groupVarInt() throws ParquetException {
    Random random = new Random(501);
    List<Sample> samples = new ArrayList<>();
    for (int count : new int[] {0, 1, 4, 5, 6, 50}) {
      samples.add(
          new Sample(
              GroupVarIntTest.encodeInts(DeltaBinaryPackedTest.ints(random, 5, count)), count));
      samples.add(
          new Sample(
              GroupVarIntTest.encodeLongs(DeltaBinaryPackedTest.longs(random, 5, count)), count));
    }
    GroupVarIntDecoder[] decoders = {
      GroupVarIntDecoder.forType(PhysicalType.INT32), GroupVarIntDecoder.forType(PhysicalType.INT64)
    };
    int[] ints = new int[600];
    long[] longs = new long[600];
    DeltaFuzzHarness.fuzz(
        "GroupVarIntDecoder",
        502,
        samples,
        (array, offset, length, valueCount, r) -> {
          int which = r.nextInt(2);
          GroupVarIntDecoder decoder = decoders[which];
          decoder.init(array, offset, length, valueCount);
          int left = Math.min(valueCount, DeltaFuzzHarness.MAX_VALUES);
          while (left > 0) {
            int n = DeltaFuzzHarness.batch(r, left);
            int op = r.nextInt(8);
            if (op == 0) {
              decoder.skip(n);
            } else if (op == 1 ? which == 1 : which == 0) {
              decoder.readInts(ints, 0, n);
            } else {
              decoder.readLongs(longs, 0, n);
            }
            left -= n;
          }
        });
  }
}
