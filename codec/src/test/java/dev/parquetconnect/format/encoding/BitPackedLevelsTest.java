package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.Encoding;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.bitpacking.BitPackingValuesReader;
import org.apache.parquet.column.values.bitpacking.BitPackingValuesWriter;
import org.apache.parquet.column.values.bitpacking.ByteBitPackingValuesReader;
import org.apache.parquet.column.values.bitpacking.ByteBitPackingValuesWriter;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.junit.jupiter.api.Test;

class BitPackedLevelsTest {

  @Test
  void specExampleZeroToSevenAtWidth3() throws ParquetException {
    // Encodings.md, BIT_PACKED: 0..7 at width 3 is 00000101 00111001 01110111.
    int[] zeroToSeven = {0, 1, 2, 3, 4, 5, 6, 7};
    byte[] expected = {0b00000101, 0b00111001, 0b01110111};
    BitPackedLevelsEncoder encoder = new BitPackedLevelsEncoder(3);
    encoder.writeInts(zeroToSeven, 0, 8);
    assertEquals(Encoding.BIT_PACKED, encoder.encoding());
    assertEquals(3, encoder.estimatedSize());
    assertArrayEquals(expected, TestValues.flush(encoder));
    BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(3);
    decoder.init(expected, 0, 3, 8);
    int[] back = new int[8];
    decoder.readInts(back, 0, 8);
    assertArrayEquals(zeroToSeven, back);
  }

  @Test
  void specExampleThirtyLevelsOfTwoBitsTakeEightBytes() throws ParquetException {
    // Encodings.md: 30 values of 2 bits are 60 bits, 8 bytes; the end tells the caller so.
    byte[] page = new byte[20];
    BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(2);
    decoder.init(page, 4, 16, 30);
    assertEquals(12, decoder.end());
  }

  @Test
  void roundTripEveryWidthAndLengthInBatches() throws ParquetException {
    Random random = new Random(41);
    for (int width = 0; width <= 32; width++) {
      for (int length : TestValues.LENGTHS) {
        int[] values = TestValues.ints(random, length, width, random.nextInt(TestValues.SHAPES));
        BitPackedLevelsEncoder encoder = new BitPackedLevelsEncoder(width);
        for (int at = 0; at < length; ) {
          int n = TestValues.nextBatch(random, length - at);
          encoder.writeInts(values, at, n);
          at += n;
        }
        byte[] bytes = TestValues.flush(encoder);
        assertEquals(BitPacking.bytesFor(length, width), bytes.length);
        byte[] page = TestValues.embed(bytes, 2, 5, random);
        BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(width);
        decoder.init(page, 2, bytes.length + 5, length);
        int[] back = new int[length];
        for (int at = 0; at < length; ) {
          int n = TestValues.nextBatch(random, length - at);
          if (random.nextInt(4) == 0) {
            decoder.skip(n);
            System.arraycopy(values, at, back, at, n);
          } else {
            decoder.readInts(back, at, n);
          }
          at += n;
        }
        assertArrayEquals(values, back, "width " + width + " length " + length);
        assertEquals(2 + bytes.length, decoder.end());
      }
    }
  }

  @Test
  void missingBytesAndExcessReadsAreCorrupt() throws ParquetException {
    BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(3);
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[2], 0, 2, 8));
    decoder.init(new byte[3], 0, 3, 8);
    decoder.readInts(new int[8], 0, 8);
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[1], 0, 1));
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[3], 0, 3, 8, 33));
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[3], 0, 3, -1));
  }

  @Test
  void parquetJavaBothWays() throws IOException, ParquetException {
    Random random = new Random(42);
    for (int seed = 0; seed < 3; seed++) {
      for (int width = 1; width <= 32; width++) {
        int length = 1 + random.nextInt(700);
        int[] values = TestValues.ints(random, length, width, random.nextInt(TestValues.SHAPES));
        int bound = (int) BitPacking.mask(width);

        BitPackedLevelsEncoder encoder = new BitPackedLevelsEncoder(width);
        encoder.writeInts(values, 0, length);
        byte[] ours = TestValues.flush(encoder);
        byte[] theirBytes;
        if (width <= 8) {
          // The original BIT_PACKED writer (widths up to 8): the same bytes exactly.
          BitPackingValuesWriter theirs =
              new BitPackingValuesWriter(bound, 64, ParquetJava.PAGE, ParquetJava.HEAP);
          for (int v : values) {
            theirs.writeInteger(v);
          }
          theirBytes = ParquetJava.bytes(theirs);
          assertArrayEquals(theirBytes, ours, "width " + width);
        } else {
          // The byte-based writer pads its last group of eight: ours is a prefix of it.
          ByteBitPackingValuesWriter theirs =
              new ByteBitPackingValuesWriter(bound, Packer.BIG_ENDIAN);
          for (int v : values) {
            theirs.writeInteger(v);
          }
          theirBytes = ParquetJava.bytes(theirs);
          assertArrayEquals(ours, Arrays.copyOf(theirBytes, ours.length), "width " + width);
        }

        BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(width);
        decoder.init(theirBytes, 0, theirBytes.length, length);
        int[] back = new int[length];
        decoder.readInts(back, 0, length);
        assertArrayEquals(values, back, "ours reading theirs, width " + width);

        ValuesReader[] readers =
            width <= 8
                ? new ValuesReader[] {
                  new BitPackingValuesReader(bound),
                  new ByteBitPackingValuesReader(bound, Packer.BIG_ENDIAN)
                }
                : new ValuesReader[] {new ByteBitPackingValuesReader(bound, Packer.BIG_ENDIAN)};
        for (ValuesReader reader : readers) {
          // ByteBitPackingValuesReader reads whole groups of eight: give it the padded size.
          byte[] padded =
              Arrays.copyOf(ours, (int) BitPacking.bytesFor((length + 7) / 8 * 8, width));
          reader.initFromPage(length, ParquetJava.stream(padded));
          for (int i = 0; i < length; i++) {
            assertEquals(
                values[i],
                reader.readInteger(),
                reader.getClass().getSimpleName() + " width " + width);
          }
        }
      }
    }
  }

  @Test
  void bitPackingMatchesParquetJavaPackersBothOrders() {
    Random random = new Random(43);
    for (int width = 0; width <= 32; width++) {
      for (Packer packer : Packer.values()) {
        BytePacker theirs = packer.newBytePacker(width);
        boolean msbFirst = packer == Packer.BIG_ENDIAN;
        for (int seed = 0; seed < 20; seed++) {
          int[] values = TestValues.ints(random, 32, width, seed);
          byte[] theirBytes = new byte[4 * width];
          theirs.pack32Values(values, 0, theirBytes, 0);
          byte[] ours = new byte[4 * width];
          if (msbFirst) {
            BitPacking.packIntsMsbFirst(values, 0, 32, width, ours, 0);
          } else {
            BitPacking.packInts(values, 0, 32, width, ours, 0);
          }
          assertArrayEquals(theirBytes, ours, packer + " width " + width);
          int[] back = new int[32];
          if (msbFirst) {
            BitPacking.unpackIntsMsbFirst(theirBytes, 0, back, 0, 32, width);
          } else {
            BitPacking.unpackInts(theirBytes, 0, back, 0, 32, width);
          }
          assertArrayEquals(values, back, packer + " width " + width);
        }
      }
    }
  }
}
