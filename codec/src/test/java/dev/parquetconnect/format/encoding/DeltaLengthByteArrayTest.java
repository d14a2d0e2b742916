package dev.parquetconnect.format.encoding;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeltaLengthByteArrayTest {

  static BinaryBatch batch(List<byte[]> values) {
    BinaryBatch batch = new BinaryBatch();
    for (byte[] v : values) {
      batch.add(v);
    }
    return batch;
  }

  static List<byte[]> ascii(String... values) {
    List<byte[]> list = new ArrayList<>();
    for (String v : values) {
      list.add(v.getBytes(US_ASCII));
    }
    return list;
  }

  static byte[] encode(List<byte[]> values) {
    DeltaLengthByteArrayEncoder encoder = new DeltaLengthByteArrayEncoder();
    encoder.writeBinaries(batch(values), 0, values.size());
    assertEquals(values.size(), encoder.valueCount());
    long estimate = encoder.estimatedSize();
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    assertTrue(out.size() <= estimate);
    return out.toByteArray();
  }

  static List<byte[]> decode(byte[] page, int count) throws ParquetException {
    DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();
    decoder.init(page, 0, page.length, count);
    assertEquals(count, decoder.valueCount());
    BinaryBatch out = new BinaryBatch();
    decoder.readBinaries(out, count);
    return toList(out);
  }

  static List<byte[]> toList(BinaryBatch batch) {
    List<byte[]> list = new ArrayList<>();
    for (int i = 0; i < batch.count(); i++) {
      list.add(batch.get(i));
    }
    return list;
  }

  static void assertSameValues(List<byte[]> expected, List<byte[]> actual, String label) {
    assertEquals(expected.size(), actual.size(), label);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), label + " value " + i);
    }
  }

  @Test
  void specExample() throws ParquetException {
    // "Hello", "World", "Foobar", "ABCDEF": DeltaEncoding(5, 5, 6, 6) then
    // "HelloWorldFoobarABCDEF".
    List<byte[]> values = ascii("Hello", "World", "Foobar", "ABCDEF");
    byte[] page = encode(values);
    byte[] lengths = DeltaBinaryPackedTest.encodeInts(new int[] {5, 5, 6, 6}, 128, 4);
    // Lengths by hand: 128/4 blocks, 4 values, first 5; min delta 0, deltas 0,1,0 on 1 bit.
    assertArrayEquals(
        new byte[] {(byte) 0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 1, 0, 0, 0, 0b010, 0, 0, 0},
        lengths);
    GrowableBuffer expected = new GrowableBuffer();
    expected.write(lengths);
    expected.write("HelloWorldFoobarABCDEF".getBytes(US_ASCII));
    assertArrayEquals(expected.toByteArray(), page);
    assertSameValues(values, decode(page, 4), "spec example");
    assertEquals(Encoding.DELTA_LENGTH_BYTE_ARRAY, new DeltaLengthByteArrayEncoder().encoding());
  }

  static List<byte[]> randomValues(Random random, int count, int maxLength) {
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int length = random.nextInt(5) == 0 ? 0 : random.nextInt(maxLength + 1);
      byte[] v = new byte[length];
      random.nextBytes(v);
      values.add(v);
    }
    return values;
  }

  @Test
  void roundTrips() throws ParquetException {
    Random random = new Random(11);
    for (int count : DeltaBinaryPackedTest.LENGTHS) {
      for (int maxLength : new int[] {0, 1, 8, 100, 5000}) {
        List<byte[]> values = randomValues(random, count, maxLength);
        byte[] page = encode(values);
        String label = count + " values up to " + maxLength;
        assertSameValues(values, decode(page, count), label);
        assertSameValues(values, readWithSkips(page, values, random), label + " with skips");
      }
    }
  }

  /** Reads in random batches, skipping some; returns the values expected at the read places. */
  private static List<byte[]> readWithSkips(byte[] page, List<byte[]> values, Random random)
      throws ParquetException {
    DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();
    decoder.init(page, 0, page.length, values.size());
    BinaryBatch out = new BinaryBatch(1, 16);
    List<byte[]> expected = new ArrayList<>();
    for (int done = 0; done < values.size(); ) {
      int n = Math.min(values.size() - done, 1 + random.nextInt(400));
      if (random.nextBoolean()) {
        decoder.skip(n);
      } else {
        decoder.readBinaries(out, n);
        expected.addAll(values.subList(done, done + n));
      }
      done += n;
    }
    assertSameValues(expected, toList(out), "read parts");
    return values;
  }

  @Test
  void encoderWritesSlicesOfABatchAndIsReusable() throws ParquetException {
    List<byte[]> values = randomValues(new Random(12), 1000, 40);
    BinaryBatch batch = batch(values);
    DeltaLengthByteArrayEncoder encoder = new DeltaLengthByteArrayEncoder(256, 8);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 1000; i += 300) {
        encoder.writeBinaries(batch, i, Math.min(300, 1000 - i));
      }
      GrowableBuffer out = new GrowableBuffer();
      encoder.flushTo(out);
      assertSameValues(values, decode(out.toByteArray(), 1000), "round " + round);
    }
  }

  @Test
  void rejectsNegativeLength() {
    GrowableBuffer page = new GrowableBuffer();
    DeltaBinaryPackedEncoder lengths = new DeltaBinaryPackedEncoder(PhysicalType.INT32);
    lengths.writeInts(new int[] {2, -1, 3}, 0, 3);
    lengths.flushTo(page);
    page.write(new byte[] {1, 2, 3, 4, 5});
    byte[] bytes = page.toByteArray();
    CorruptDataException e = assertThrows(CorruptDataException.class, () -> decode(bytes, 3));
    assertTrue(e.getMessage().contains("negative length -1"), e.getMessage());
  }

  @Test
  void rejectsLengthsBeyondThePage() throws ParquetException {
    byte[] page = encode(ascii("abc", "defg", "hi"));
    byte[] cut = Arrays.copyOf(page, page.length - 1);
    CorruptDataException e = assertThrows(CorruptDataException.class, () -> decode(cut, 3));
    assertTrue(e.getMessage().contains("remain"), e.getMessage());
    // The first two values are still readable before the shortfall.
    DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();
    decoder.init(cut, 0, cut.length, 3);
    BinaryBatch out = new BinaryBatch();
    decoder.readBinaries(out, 2);
    assertSameValues(ascii("abc", "defg"), toList(out), "prefix");
    assertThrows(CorruptDataException.class, () -> decoder.readBinaries(out, 1));
  }

  @Test
  void rejectsReadingPastTheCount() throws ParquetException {
    byte[] page = encode(ascii("x", "y"));
    DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();
    decoder.init(page, 0, page.length, 5);
    assertEquals(2, decoder.valueCount());
    assertThrows(CorruptDataException.class, () -> decoder.readBinaries(new BinaryBatch(), 3));
    assertThrows(CorruptDataException.class, () -> decoder.init(page, 0, page.length, 1));
  }
}
