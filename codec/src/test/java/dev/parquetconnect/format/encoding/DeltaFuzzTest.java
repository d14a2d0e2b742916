package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.encoding.DeltaFuzzHarness.Sample;
import dev.parquetconnect.format.io.GrowableBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Fuzzes the three delta decoders; see {@link DeltaFuzzHarness}. */
class DeltaFuzzTest {

  private static List<Sample> binaryPackedSamples(Random random) {
    List<Sample> samples = new ArrayList<>();
    for (int count : new int[] {0, 1, 2, 5, 33, 129, 300}) {
      for (int[] config : new int[][] {{128, 4}, {128, 1}, {256, 8}}) {
        int pattern = random.nextInt(DeltaBinaryPackedTest.PATTERNS);
        samples.add(
            new Sample(
                DeltaBinaryPackedTest.encodeInts(
                    DeltaBinaryPackedTest.ints(random, pattern, count), config[0], config[1]),
                count));
        samples.add(
            new Sample(
                DeltaBinaryPackedTest.encodeLongs(
                    DeltaBinaryPackedTest.longs(random, pattern, count), config[0], config[1]),
                count));
      }
    }
    return samples;
  }

  @Test
  @Timeout(60)
  void deltaBinaryPacked() {
    Random random = new Random(101);
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    int[] ints = new int[600];
    long[] longs = new long[600];
    DeltaFuzzHarness.fuzz(
        "DeltaBinaryPackedDecoder",
        102,
        binaryPackedSamples(random),
        (array, offset, length, valueCount, r) -> {
          decoder.init(array, offset, length, valueCount);
          int left = Math.min(decoder.valueCount(), DeltaFuzzHarness.MAX_VALUES);
          while (left > 0) {
            int n = DeltaFuzzHarness.batch(r, left);
            switch (r.nextInt(5)) {
              case 0 -> decoder.skip(n);
              case 1, 2 -> decoder.readInts(ints, 0, n);
              default -> decoder.readLongs(longs, 0, n);
            }
            left -= n;
          }
        });
  }

  private static List<Sample> lengthSamples(Random random) {
    List<Sample> samples = new ArrayList<>();
    for (int count : new int[] {0, 1, 3, 40, 200}) {
      samples.add(
          new Sample(
              DeltaLengthByteArrayTest.encode(
                  DeltaLengthByteArrayTest.randomValues(random, count, 12)),
              count));
    }
    return samples;
  }

  @Test
  @Timeout(60)
  void deltaLengthByteArray() {
    Random random = new Random(201);
    DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();
    BinaryBatch out = new BinaryBatch();
    DeltaFuzzHarness.fuzz(
        "DeltaLengthByteArrayDecoder",
        202,
        lengthSamples(random),
        (array, offset, length, valueCount, r) -> {
          decoder.init(array, offset, length, valueCount);
          int left = Math.min(decoder.valueCount(), DeltaFuzzHarness.MAX_VALUES);
          while (left > 0) {
            int n = DeltaFuzzHarness.batch(r, left);
            if (r.nextInt(4) == 0) {
              decoder.skip(n);
            } else {
              out.clear();
              decoder.readBinaries(out, n);
            }
            left -= n;
          }
        });
  }

  private static List<Sample> byteArraySamples(Random random) {
    List<Sample> samples = new ArrayList<>();
    for (int count : new int[] {0, 1, 3, 40, 200}) {
      List<byte[]> values = DeltaByteArrayTest.prefixHeavy(random, count, 10, random.nextBoolean());
      DeltaByteArrayEncoder encoder = DeltaByteArrayEncoder.forByteArray();
      encoder.writeBinaries(DeltaLengthByteArrayTest.batch(values), 0, count);
      GrowableBuffer page = new GrowableBuffer();
      encoder.flushTo(page);
      samples.add(new Sample(page.toByteArray(), count));
      List<byte[]> fixed = DeltaByteArrayTest.fixed(random, count, 2);
      DeltaByteArrayEncoder fixedEncoder = DeltaByteArrayEncoder.forFixedLenByteArray(2);
      fixedEncoder.writeBinaries(DeltaLengthByteArrayTest.batch(fixed), 0, count);
      GrowableBuffer fixedPage = new GrowableBuffer();
      fixedEncoder.flushTo(fixedPage);
      samples.add(new Sample(fixedPage.toByteArray(), count));
    }
    return samples;
  }

  @Test
  @Timeout(60)
  void deltaByteArray() {
    Random random = new Random(301);
    DeltaByteArrayDecoder[] decoders = {
      DeltaByteArrayDecoder.forByteArray(),
      DeltaByteArrayDecoder.forFixedLenByteArray(2),
      DeltaByteArrayDecoder.forFixedLenByteArray(0)
    };
    BinaryBatch out = new BinaryBatch();
    DeltaFuzzHarness.fuzz(
        "DeltaByteArrayDecoder",
        302,
        byteArraySamples(random),
        (array, offset, length, valueCount, r) -> {
          DeltaByteArrayDecoder decoder = decoders[r.nextInt(decoders.length)];
          decoder.init(array, offset, length, valueCount);
          int left = Math.min(decoder.valueCount(), DeltaFuzzHarness.MAX_VALUES);
          while (left > 0) {
            int n = DeltaFuzzHarness.batch(r, left);
            if (r.nextInt(4) == 0) {
              decoder.skip(n);
            } else {
              out.clear();
              decoder.readBinaries(out, n);
            }
            left -= n;
          }
        });
  }
}
