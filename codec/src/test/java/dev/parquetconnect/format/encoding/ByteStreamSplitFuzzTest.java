package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.DeltaFuzzHarness.Sample;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Fuzzes {@link ByteStreamSplitDecoder} for every type; see {@link DeltaFuzzHarness}. */
class ByteStreamSplitFuzzTest {

  @Test
  @Timeout(60)
  void byteStreamSplit() throws ParquetException {
    Random random = new Random(401);
    List<Sample> samples = new ArrayList<>();
    for (int count : new int[] {0, 1, 5, 64}) {
      ByteStreamSplitEncoder encoder = ByteStreamSplitEncoder.forType(PhysicalType.DOUBLE, 0);
      encoder.writeDoubles(ByteStreamSplitTest.doubles(random, count), 0, count);
      GrowableBuffer page = new GrowableBuffer();
      encoder.flushTo(page);
      samples.add(new Sample(page.toByteArray(), count));
      // Read as another type, the same bytes hold twice as many 4-byte values.
      samples.add(new Sample(page.toByteArray(), 2 * count));
    }
    // In the order of the reads below: FLOAT, DOUBLE, INT32, INT64, then the byte arrays.
    ByteStreamSplitDecoder[] decoders = {
      ByteStreamSplitDecoder.forType(PhysicalType.FLOAT, 0),
      ByteStreamSplitDecoder.forType(PhysicalType.DOUBLE, 0),
      ByteStreamSplitDecoder.forType(PhysicalType.INT32, 0),
      ByteStreamSplitDecoder.forType(PhysicalType.INT64, 0),
      ByteStreamSplitDecoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3),
      ByteStreamSplitDecoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 16)
    };
    float[] floats = new float[600];
    double[] doubles = new double[600];
    int[] ints = new int[600];
    long[] longs = new long[600];
    BinaryBatch binaries = new BinaryBatch();
    DeltaFuzzHarness.fuzz(
        "ByteStreamSplitDecoder",
        402,
        samples,
        (array, offset, length, valueCount, r) -> {
          int which = r.nextInt(decoders.length);
          ByteStreamSplitDecoder decoder = decoders[which];
          decoder.init(array, offset, length, valueCount);
          // Sometimes ask for one value more than the page holds.
          int left =
              Math.min(
                  decoder.valueCount() + (r.nextInt(8) == 0 ? 1 : 0), DeltaFuzzHarness.MAX_VALUES);
          while (left > 0) {
            int n = DeltaFuzzHarness.batch(r, left);
            // Mostly the read of the decoder's type; now and then another one.
            int op = r.nextInt(8);
            int read = op == 0 ? 0 : op == 1 ? 1 + r.nextInt(5) : 1 + Math.min(which, 4);
            switch (read) {
              case 0 -> decoder.skip(n);
              case 1 -> decoder.readFloats(floats, 0, n);
              case 2 -> decoder.readDoubles(doubles, 0, n);
              case 3 -> decoder.readInts(ints, 0, n);
              case 4 -> decoder.readLongs(longs, 0, n);
              default -> {
                binaries.clear();
                decoder.readBinaries(binaries, n);
              }
            }
            left -= n;
          }
        });
  }
}
