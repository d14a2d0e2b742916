package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.junit.jupiter.api.Test;

class RleBitPackedHybridTest {

  // ---- spec worked examples ----

  @Test
  void specBitPackedRunOfZeroToSevenAtWidth3() throws ParquetException {
    // Encodings.md: 0..7 at width 3 packs to 10001000 11000110 11111010; one group of eight
    // values has the header (1 << 1) | 1.
    int[] zeroToSeven = {0, 1, 2, 3, 4, 5, 6, 7};
    byte[] expected = {0x03, (byte) 0b10001000, (byte) 0b11000110, (byte) 0b11111010};
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(3, false);
    encoder.writeInts(zeroToSeven, 0, 8);
    assertArrayEquals(expected, TestValues.flush(encoder));
    assertArrayEquals(zeroToSeven, decode(expected, 3, false, 8));
  }

  @Test
  void specRepeatedRuns() throws ParquetException {
    // rle-header = varint(run length << 1), then the value in ceil(width / 8) bytes.
    // Eight 4s at width 3: 0x10 0x04.
    assertArrayEquals(
        new int[] {4, 4, 4, 4, 4, 4, 4, 4}, decode(new byte[] {0x10, 0x04}, 3, false, 8));
    // 300 times 0x0102 at width 9: header varint(600) = 0xD8 0x04, value 0x02 0x01.
    int[] expected = new int[300];
    Arrays.fill(expected, 0x102);
    byte[] bytes = {(byte) 0xD8, 0x04, 0x02, 0x01};
    assertArrayEquals(expected, decode(bytes, 9, false, 300));
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(9, false);
    encoder.writeInts(expected, 0, expected.length);
    assertArrayEquals(bytes, TestValues.flush(encoder));
  }

  @Test
  void specThousandNullsAsDefinitionLevels() throws ParquetException {
    // File format, nulls: 1000 nulls are the definition level 0 run-length encoded 1000 times;
    // a v1 page prefixes the runs with their 4-byte length.
    byte[] expected = {3, 0, 0, 0, (byte) 0xD0, 0x0F, 0x00};
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(1, true);
    encoder.writeInts(new int[1000], 0, 1000);
    assertArrayEquals(expected, TestValues.flush(encoder));
    assertArrayEquals(new int[1000], decode(expected, 1, true, 1000));
  }

  @Test
  void mixedRunsDecodeInOrder() throws ParquetException {
    // A repeated run, a bit-packed run of two groups, a repeated run: widths 2.
    GrowableBuffer out = new GrowableBuffer();
    out.writeUnsignedVarInt(5 << 1);
    out.writeByte(2);
    out.writeUnsignedVarInt((2 << 1) | 1);
    int[] packed = {0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    byte[] bits = new byte[4];
    BitPacking.packInts(packed, 0, 16, 2, bits, 0);
    out.write(bits);
    out.writeUnsignedVarInt(3 << 1);
    out.writeByte(1);
    int[] expected = new int[24];
    Arrays.fill(expected, 0, 5, 2);
    System.arraycopy(packed, 0, expected, 5, 16);
    Arrays.fill(expected, 21, 24, 1);
    assertArrayEquals(expected, decode(out.toByteArray(), 2, false, 24));
  }

  // ---- round trips ----

  @Test
  void roundTripEveryWidthLengthAndShape() throws ParquetException {
    Random random = new Random(3);
    for (int width = 0; width <= 32; width++) {
      for (int length : TestValues.LENGTHS) {
        for (int shape = 0; shape < TestValues.SHAPES; shape++) {
          int[] values = TestValues.ints(random, length, width, shape);
          for (boolean prefixed : new boolean[] {false, true}) {
            RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, prefixed);
            writeInBatches(encoder, values, random);
            assertEquals(length, encoder.valueCount());
            long estimate = encoder.estimatedSize();
            byte[] bytes = TestValues.flush(encoder);
            String what = "width " + width + " length " + length + " shape " + shape;
            assertEquals(bytes.length, estimate, what + ": estimated size");
            assertArrayEquals(
                values, decodeInBatches(bytes, width, prefixed, length, random), what);
          }
        }
      }
    }
  }

  @Test
  void encoderChoosesRepeatedRunsForEightOrMoreEqualValues() throws ParquetException {
    // 1000 equal values at width 20: one repeated run, 2 header bytes + 3 value bytes.
    int[] values = new int[1000];
    Arrays.fill(values, 0xABCDE);
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(20, false);
    encoder.writeInts(values, 0, values.length);
    assertEquals(5, TestValues.flush(encoder).length);
    // Alternating values cannot repeat: bit-packed, 1000 * 1 bit = 125 bytes + 2 headers.
    int[] alternating = TestValues.ints(new Random(1), 1000, 1, 6);
    encoder = new RleBitPackedHybridEncoder(1, false);
    encoder.writeInts(alternating, 0, 1000);
    assertEquals(125 + 2, TestValues.flush(encoder).length);
  }

  @Test
  void encoderIsReusableAcrossPagesAndWidths() throws ParquetException {
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(4, false);
    Random random = new Random(5);
    for (int page = 0; page < 20; page++) {
      int width = page % 33;
      encoder.reset(width);
      int[] values = TestValues.ints(random, 1 + random.nextInt(600), width, page);
      encoder.writeInts(values, 0, values.length);
      assertArrayEquals(values, decode(TestValues.flush(encoder), width, false, values.length));
      assertEquals(0, encoder.valueCount());
    }
  }

  @Test
  void booleansRoundTripWithPrefix() throws ParquetException {
    Random random = new Random(8);
    for (int length : TestValues.LENGTHS) {
      boolean[] values = new boolean[length];
      for (int i = 0; i < length; i++) {
        values[i] = random.nextInt(3) == 0;
      }
      RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(1, true);
      encoder.writeBooleans(values, 0, length);
      byte[] bytes = TestValues.flush(encoder);
      RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(1, true);
      decoder.init(bytes, 0, bytes.length, length);
      boolean[] back = new boolean[length];
      decoder.readBooleans(back, 0, length);
      assertArrayEquals(values, back);
    }
  }

  @Test
  void skipLandsOnTheRightValue() throws ParquetException {
    Random random = new Random(13);
    for (int width : new int[] {0, 1, 3, 8, 13, 32}) {
      for (int shape = 0; shape < TestValues.SHAPES; shape++) {
        int[] values = TestValues.ints(random, 2000, width, shape);
        RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, false);
        encoder.writeInts(values, 0, values.length);
        byte[] bytes = TestValues.flush(encoder);
        RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(width, false);
        decoder.init(bytes, 0, bytes.length, values.length);
        int at = 0;
        int[] one = new int[64];
        while (at < values.length) {
          int skip = Math.min(values.length - at, random.nextInt(40));
          decoder.skip(skip);
          at += skip;
          int n = Math.min(values.length - at, random.nextInt(64));
          decoder.readInts(one, 0, n);
          assertArrayEquals(
              Arrays.copyOfRange(values, at, at + n), Arrays.copyOf(one, n), "width " + width);
          at += n;
        }
        assertEquals(0, decoder.remaining());
      }
    }
  }

  @Test
  void paddedLastGroupIsAccepted() throws ParquetException {
    // Three values in a bit-packed group of eight: the five padding values are ignored.
    byte[] bytes = {0x03, (byte) 0b10001000, (byte) 0b11000110, (byte) 0b11111010};
    assertArrayEquals(new int[] {0, 1, 2}, decode(bytes, 3, false, 3));
    // And a page of 3 values written by us is padded the same way.
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(3, false);
    encoder.writeInts(new int[] {5, 6, 7}, 0, 3);
    byte[] ours = TestValues.flush(encoder);
    assertEquals(4, ours.length);
    assertArrayEquals(new int[] {5, 6, 7}, decode(ours, 3, false, 3));
  }

  @Test
  void endTellsWhereThePrefixedRunsStop() throws ParquetException {
    byte[] bytes = {3, 0, 0, 0, (byte) 0xD0, 0x0F, 0x00, 0x55, 0x66};
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(1, true);
    decoder.init(bytes, 0, bytes.length, 1000);
    assertEquals(7, decoder.end());
  }

  // ---- corrupt input ----

  @Test
  void corruptRunsAreRejected() {
    // zero-length repeated run
    assertCorrupt(new byte[] {0x00, 0x01}, 1, false, 1, "zero-length");
    // zero-group bit-packed run
    assertCorrupt(new byte[] {0x01, 0x01}, 1, false, 1, "groups");
    // bit-packed run whose bytes are missing: 2 groups of width 8 need 16 bytes
    assertCorrupt(new byte[] {0x05, 1, 2, 3}, 8, false, 16, "needs 16 bytes");
    // repeated value missing
    assertCorrupt(new byte[] {0x10}, 9, false, 8, "repeated value needs 2 bytes");
    // repeated value wider than the bit width
    assertCorrupt(new byte[] {0x10, 0x09}, 3, false, 8, "does not fit bit width 3");
    // header varint that never ends / overflows 32 bits
    assertCorrupt(new byte[] {(byte) 0x80, (byte) 0x80}, 1, false, 1, "past the end");
    assertCorrupt(
        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x7F, 0},
        1,
        false,
        1,
        "overflows 32 bits");
    assertCorrupt(
        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0},
        1,
        false,
        1,
        "longer than 5 bytes");
    // a bit-packed run of 2^31 - 1 groups at width 0 (no bytes) is still too long
    assertCorrupt(
        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
        0,
        false,
        1,
        "groups");
    // more values asked than the runs hold
    assertCorrupt(new byte[] {0x10, 0x01}, 1, false, 9, "runs end");
    // length prefix longer than the data, or negative
    assertCorrupt(new byte[] {9, 0, 0, 0, 0x10, 0x01}, 1, true, 8, "length prefix");
    assertCorrupt(new byte[] {0, 0, 0, (byte) 0x80, 0x10, 0x01}, 1, true, 8, "length prefix");
    assertCorrupt(new byte[] {2, 0, 0}, 1, true, 8, "4-byte length prefix");
  }

  @Test
  void askingForMoreValuesThanThePageHoldsIsCorrupt() throws ParquetException {
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(1, false);
    byte[] bytes = {0x10, 0x01};
    decoder.init(bytes, 0, 2, 8);
    decoder.readInts(new int[8], 0, 8);
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[1], 0, 1));
    assertThrows(CorruptDataException.class, () -> decoder.skip(1));
  }

  @Test
  void dataBitWidthAbove32IsCorrupt() {
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(1, false);
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[] {0x10, 0}, 0, 2, 8, 33));
  }

  // ---- parquet-java as the oracle ----

  @Test
  void parquetJavaDecodesOurs() throws IOException {
    Random random = new Random(21);
    for (int seed = 0; seed < 3; seed++) {
      for (int width = 0; width <= 32; width++) {
        for (int shape = 0; shape < TestValues.SHAPES; shape++) {
          int length = TestValues.LENGTHS[random.nextInt(TestValues.LENGTHS.length)];
          int[] values = TestValues.ints(random, length, width, shape);
          RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, false);
          encoder.writeInts(values, 0, length);
          byte[] bytes = TestValues.flush(encoder);
          RunLengthBitPackingHybridDecoder theirs =
              new RunLengthBitPackingHybridDecoder(width, new ByteArrayInputStream(bytes));
          for (int i = 0; i < length; i++) {
            assertEquals(values[i], theirs.readInt(), "width " + width + " value " + i);
          }
        }
      }
    }
  }

  @Test
  void weDecodeParquetJava() throws IOException, ParquetException {
    Random random = new Random(22);
    for (int seed = 0; seed < 3; seed++) {
      for (int width = 0; width <= 32; width++) {
        for (int shape = 0; shape < TestValues.SHAPES; shape++) {
          int length = TestValues.LENGTHS[random.nextInt(TestValues.LENGTHS.length)];
          int[] values = TestValues.ints(random, length, width, shape);
          RunLengthBitPackingHybridEncoder theirs =
              new RunLengthBitPackingHybridEncoder(width, 64, ParquetJava.PAGE, ParquetJava.HEAP);
          for (int v : values) {
            theirs.writeInt(v);
          }
          byte[] bytes = ParquetJava.bytes(theirs.toBytes());
          assertArrayEquals(
              values, decodeInBatches(bytes, width, false, length, random), "width " + width);
        }
      }
    }
  }

  @Test
  void prefixedLayoutMatchesParquetJavaValuesWriterAndReader()
      throws IOException, ParquetException {
    Random random = new Random(23);
    for (int width = 0; width <= 32; width++) {
      for (int shape = 0; shape < TestValues.SHAPES; shape++) {
        int[] values = TestValues.ints(random, 500 + random.nextInt(500), width, shape);
        // Theirs (with prefix) -> ours.
        RunLengthBitPackingHybridValuesWriter writer =
            new RunLengthBitPackingHybridValuesWriter(
                width, 64, ParquetJava.PAGE, ParquetJava.HEAP);
        for (int v : values) {
          writer.writeInteger(v);
        }
        assertEquals(Encoding.RLE.name(), writer.getEncoding().name());
        byte[] theirs = ParquetJava.bytes(writer);
        assertArrayEquals(values, decode(theirs, width, true, values.length));
        // Ours (with prefix) -> theirs.
        RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, true);
        encoder.writeInts(values, 0, values.length);
        byte[] ours = TestValues.flush(encoder);
        assertEquals(ours.length - 4, LittleEndian.getInt(ours, 0));
        RunLengthBitPackingHybridValuesReader reader =
            new RunLengthBitPackingHybridValuesReader(width);
        reader.initFromPage(values.length, ParquetJava.stream(ours));
        for (int i = 0; i < values.length; i++) {
          assertEquals(values[i], reader.readInteger(), "width " + width + " value " + i);
        }
      }
    }
  }

  @Test
  void rleBooleansMatchParquetJava() throws IOException, ParquetException {
    Random random = new Random(24);
    boolean[] values = new boolean[3000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i % 500 < 200 ? random.nextBoolean() : (i / 100) % 2 == 0;
    }
    RunLengthBitPackingHybridValuesWriter writer =
        new RunLengthBitPackingHybridValuesWriter(1, 64, ParquetJava.PAGE, ParquetJava.HEAP);
    for (boolean v : values) {
      writer.writeBoolean(v);
    }
    byte[] theirs = ParquetJava.bytes(writer);
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(1, true);
    decoder.init(theirs, 0, theirs.length, values.length);
    boolean[] back = new boolean[values.length];
    decoder.readBooleans(back, 0, values.length);
    assertArrayEquals(values, back);

    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(1, true);
    encoder.writeBooleans(values, 0, values.length);
    byte[] ours = TestValues.flush(encoder);
    RunLengthBitPackingHybridValuesReader reader = new RunLengthBitPackingHybridValuesReader(1);
    reader.initFromPage(values.length, ParquetJava.stream(ours));
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], reader.readBoolean(), "value " + i);
    }
  }

  // ---- helpers ----

  private static void writeInBatches(
      RleBitPackedHybridEncoder encoder, int[] values, Random random) {
    for (int at = 0; at < values.length; ) {
      int n = TestValues.nextBatch(random, values.length - at);
      encoder.writeInts(values, at, n);
      at += n;
    }
  }

  static int[] decode(byte[] bytes, int width, boolean prefixed, int count)
      throws ParquetException {
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(width, prefixed);
    decoder.init(bytes, 0, bytes.length, count);
    int[] values = new int[count];
    decoder.readInts(values, 0, count);
    return values;
  }

  /** Decodes from inside a larger array with junk around it, in irregular batches. */
  private static int[] decodeInBatches(
      byte[] bytes, int width, boolean prefixed, int count, Random random) throws ParquetException {
    byte[] page = TestValues.embed(bytes, 5, 3, random);
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(width, prefixed);
    decoder.init(page, 5, bytes.length, count);
    int[] values = new int[count + 2];
    for (int at = 0; at < count; ) {
      int n = TestValues.nextBatch(random, count - at);
      decoder.readInts(values, 1 + at, n);
      at += n;
    }
    return Arrays.copyOfRange(values, 1, 1 + count);
  }

  private static void assertCorrupt(
      byte[] bytes, int width, boolean prefixed, int count, String messagePart) {
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decode(bytes, width, prefixed, count));
    assertTrue(
        e.getMessage().contains(messagePart),
        "message '" + e.getMessage() + "' should contain '" + messagePart + "'");
  }
}
