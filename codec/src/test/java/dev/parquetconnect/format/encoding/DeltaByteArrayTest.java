package dev.parquetconnect.format.encoding;

import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.ascii;
import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.assertSameValues;
import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.batch;
import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.toList;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeltaByteArrayTest {

  static byte[] encode(DeltaByteArrayEncoder encoder, List<byte[]> values) {
    encoder.writeBinaries(batch(values), 0, values.size());
    assertEquals(values.size(), encoder.valueCount());
    long estimate = encoder.estimatedSize();
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    assertTrue(out.size() <= estimate);
    return out.toByteArray();
  }

  static List<byte[]> decode(DeltaByteArrayDecoder decoder, byte[] page, int count)
      throws ParquetException {
    decoder.init(page, 0, page.length, count);
    assertEquals(count, decoder.valueCount());
    BinaryBatch out = new BinaryBatch();
    decoder.readBinaries(out, count);
    return toList(out);
  }

  @Test
  void specExample() throws ParquetException {
    // "axis", "axle", "babble", "babyhood": prefix lengths 0, 2, 0, 3; suffix lengths 4, 2, 6, 5;
    // suffixes "axislebabbleyhood".
    List<byte[]> values = ascii("axis", "axle", "babble", "babyhood");
    byte[] page = encode(DeltaByteArrayEncoder.forByteArray(), values);
    GrowableBuffer expected = new GrowableBuffer();
    expected.write(DeltaBinaryPackedTest.encodeInts(new int[] {0, 2, 0, 3}, 128, 4));
    expected.write(DeltaBinaryPackedTest.encodeInts(new int[] {4, 2, 6, 5}, 128, 4));
    expected.write("axislebabbleyhood".getBytes(US_ASCII));
    assertArrayEquals(expected.toByteArray(), page);
    assertSameValues(values, decode(DeltaByteArrayDecoder.forByteArray(), page, 4), "spec");
    assertEquals(Encoding.DELTA_BYTE_ARRAY, DeltaByteArrayEncoder.forByteArray().encoding());
  }

  /** Values that share prefixes often: sorted random words over a small alphabet. */
  static List<byte[]> prefixHeavy(Random random, int count, int maxLength, boolean sorted) {
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] v = new byte[random.nextInt(maxLength + 1)];
      for (int k = 0; k < v.length; k++) {
        v[k] = (byte) ('a' + random.nextInt(3));
      }
      values.add(v);
    }
    if (sorted) {
      values.sort(Arrays::compare);
    }
    return values;
  }

  static List<byte[]> fixed(Random random, int count, int length) {
    List<byte[]> values = new ArrayList<>();
    byte[] base = new byte[length];
    random.nextBytes(base);
    for (int i = 0; i < count; i++) {
      byte[] v = base.clone();
      for (int k = random.nextInt(length + 1); k < length; k++) {
        v[k] = (byte) random.nextInt(4);
      }
      values.add(v);
    }
    return values;
  }

  @Test
  void roundTripsByteArray() throws ParquetException {
    Random random = new Random(21);
    DeltaByteArrayDecoder decoder = DeltaByteArrayDecoder.forByteArray();
    for (int count : DeltaBinaryPackedTest.LENGTHS) {
      for (int maxLength : new int[] {0, 3, 12, 300}) {
        for (boolean sorted : new boolean[] {true, false}) {
          List<byte[]> values = prefixHeavy(random, count, maxLength, sorted);
          byte[] page = encode(DeltaByteArrayEncoder.forByteArray(), values);
          String label = count + " values up to " + maxLength + (sorted ? " sorted" : "");
          assertSameValues(values, decode(decoder, page, count), label);
          assertSameValues(values, readInPieces(decoder, page, values, random), label);
        }
      }
    }
  }

  @Test
  void roundTripsFixedLenByteArray() throws ParquetException {
    Random random = new Random(22);
    for (int length : new int[] {0, 1, 2, 16, 33}) {
      DeltaByteArrayDecoder decoder = DeltaByteArrayDecoder.forFixedLenByteArray(length);
      for (int count : new int[] {0, 1, 8, 32, 129, 1024}) {
        List<byte[]> values = fixed(random, count, length);
        byte[] page = encode(DeltaByteArrayEncoder.forFixedLenByteArray(length), values);
        String label = count + " FLBA(" + length + ")";
        assertSameValues(values, decode(decoder, page, count), label);
        assertSameValues(values, readInPieces(decoder, page, values, random), label);
      }
    }
  }

  /**
   * Reads with random batch sizes, skips and clears of the destination, checking each value read
   * against the original; returns the original list for the caller's assertion.
   */
  private static List<byte[]> readInPieces(
      DeltaByteArrayDecoder decoder, byte[] page, List<byte[]> values, Random random)
      throws ParquetException {
    decoder.init(page, 0, page.length, values.size());
    BinaryBatch out = new BinaryBatch(1, 8);
    for (int done = 0; done < values.size(); ) {
      int n = Math.min(values.size() - done, 1 + random.nextInt(random.nextBoolean() ? 4 : 600));
      if (random.nextInt(3) == 0) {
        decoder.skip(n);
      } else {
        out.clear();
        decoder.readBinaries(out, n);
        assertSameValues(values.subList(done, done + n), toList(out), "at " + done);
      }
      done += n;
    }
    return values;
  }

  @Test
  void encoderCarriesThePreviousValueAcrossBatches() throws ParquetException {
    List<byte[]> values = prefixHeavy(new Random(23), 700, 20, true);
    BinaryBatch batch = batch(values);
    DeltaByteArrayEncoder encoder = DeltaByteArrayEncoder.forByteArray();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < values.size(); i += 7) {
        encoder.writeBinaries(batch, i, Math.min(7, values.size() - i));
      }
      GrowableBuffer out = new GrowableBuffer();
      encoder.flushTo(out);
      assertArrayEquals(encode(DeltaByteArrayEncoder.forByteArray(), values), out.toByteArray());
    }
    assertThrows(
        IllegalArgumentException.class,
        () ->
            DeltaByteArrayEncoder.forFixedLenByteArray(3)
                .writeBinaries(batch(ascii("abcd")), 0, 1));
  }

  /** Builds a page from explicit prefix lengths, suffix lengths and suffix bytes. */
  private static byte[] rawPage(int[] prefixes, int[] suffixLengths, String suffixes) {
    GrowableBuffer page = new GrowableBuffer();
    DeltaBinaryPackedEncoder prefixEncoder = new DeltaBinaryPackedEncoder(PhysicalType.INT32);
    prefixEncoder.writeInts(prefixes, 0, prefixes.length);
    prefixEncoder.flushTo(page);
    DeltaBinaryPackedEncoder suffixEncoder = new DeltaBinaryPackedEncoder(PhysicalType.INT32);
    suffixEncoder.writeInts(suffixLengths, 0, suffixLengths.length);
    suffixEncoder.flushTo(page);
    page.write(suffixes.getBytes(US_ASCII));
    return page.toByteArray();
  }

  @Test
  void rejectsPrefixLongerThanPreviousValue() {
    byte[] page = rawPage(new int[] {0, 5}, new int[] {4, 1}, "axisz");
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () -> decode(DeltaByteArrayDecoder.forByteArray(), page, 2));
    assertTrue(e.getMessage().contains("prefix length 5"), e.getMessage());
    assertThrows(
        CorruptDataException.class,
        () -> {
          DeltaByteArrayDecoder decoder = DeltaByteArrayDecoder.forByteArray();
          decoder.init(page, 0, page.length, 2);
          decoder.skip(2);
        });
    byte[] negative = rawPage(new int[] {0, -1}, new int[] {4, 1}, "axisz");
    assertThrows(
        CorruptDataException.class,
        () -> decode(DeltaByteArrayDecoder.forByteArray(), negative, 2));
    // The first value of a page has no previous value to share.
    byte[] first = rawPage(new int[] {1}, new int[] {1}, "a");
    assertThrows(
        CorruptDataException.class, () -> decode(DeltaByteArrayDecoder.forByteArray(), first, 1));
  }

  @Test
  void rejectsFixedLenValuesOfWrongLength() {
    byte[] page = rawPage(new int[] {0, 2}, new int[] {3, 2}, "abcde");
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () -> decode(DeltaByteArrayDecoder.forFixedLenByteArray(3), page, 2));
    assertTrue(e.getMessage().contains("FIXED_LEN_BYTE_ARRAY(3)"), e.getMessage());
  }

  @Test
  void rejectsSectionsOfDifferentCounts() {
    byte[] page = rawPage(new int[] {0, 1, 1}, new int[] {2, 1}, "abc");
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () -> decode(DeltaByteArrayDecoder.forByteArray(), page, 3));
    assertTrue(e.getMessage().contains("3 prefix lengths but 2 suffixes"), e.getMessage());
  }

  @Test
  void rejectsSuffixesBeyondThePage() {
    byte[] page = rawPage(new int[] {0, 1}, new int[] {2, 5}, "abc");
    assertThrows(
        CorruptDataException.class, () -> decode(DeltaByteArrayDecoder.forByteArray(), page, 2));
  }

  @Test
  void longSharedPrefixesExpandBeyondThePageSize() throws ParquetException {
    // Every value repeats 1000 bytes of its predecessor: output far larger than the page.
    byte[] first = new byte[1000];
    new Random(24).nextBytes(first);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      values.add(first);
    }
    byte[] page = encode(DeltaByteArrayEncoder.forByteArray(), values);
    assertTrue(page.length < 2000, "page " + page.length);
    assertSameValues(values, decode(DeltaByteArrayDecoder.forByteArray(), page, 2000), "repeat");
  }

  @Test
  void batchesPastTwoGibibytesFailWithACheckedException() {
    // The guard runs before any allocation, so asking for it directly costs nothing.
    assertThrows(
        UnsupportedFeatureException.class,
        () ->
            DeltaLengthByteArrayDecoder.reserve(
                new BinaryBatch(), 2, Integer.MAX_VALUE, "DELTA_BYTE_ARRAY"));
  }
}
