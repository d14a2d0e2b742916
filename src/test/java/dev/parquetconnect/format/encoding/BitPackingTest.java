package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BitPackingTest {
  private static final int[] ZERO_TO_SEVEN = {0, 1, 2, 3, 4, 5, 6, 7};

  @Test
  void specExampleLsbFirstWidth3() {
    // Encodings.md, RLE/bit-packing hybrid: 0..7 at width 3 is 10001000 11000110 11111010.
    byte[] packed = new byte[3];
    assertEquals(3, BitPacking.packInts(ZERO_TO_SEVEN, 0, 8, 3, packed, 0));
    assertArrayEquals(new byte[] {(byte) 0b10001000, (byte) 0b11000110, (byte) 0b11111010}, packed);
    int[] back = new int[8];
    BitPacking.unpackInts(packed, 0, back, 0, 8, 3);
    assertArrayEquals(ZERO_TO_SEVEN, back);
  }

  @Test
  void specExampleMsbFirstWidth3() {
    // Encodings.md, BIT_PACKED: 0..7 at width 3 is 00000101 00111001 01110111.
    byte[] packed = new byte[3];
    assertEquals(3, BitPacking.packIntsMsbFirst(ZERO_TO_SEVEN, 0, 8, 3, packed, 0));
    assertArrayEquals(new byte[] {0b00000101, 0b00111001, 0b01110111}, packed);
    int[] back = new int[8];
    BitPacking.unpackIntsMsbFirst(packed, 0, back, 0, 8, 3);
    assertArrayEquals(ZERO_TO_SEVEN, back);
  }

  @Test
  void intsRoundTripEveryWidthAndLength() {
    Random random = new Random(42);
    for (int width = 0; width <= 32; width++) {
      for (int count : new int[] {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 1024}) {
        int[] values = new int[count];
        long mask = BitPacking.mask(width);
        for (int i = 0; i < count; i++) {
          values[i] = (int) (random.nextLong() & mask);
        }
        // Pack at an odd offset into an exactly sized array, so the tail path is exercised.
        byte[] packed = new byte[3 + (int) BitPacking.bytesFor(count, width)];
        BitPacking.packInts(values, 0, count, width, packed, 3);
        int[] back = new int[count];
        BitPacking.unpackInts(packed, 3, back, 0, count, width);
        assertArrayEquals(values, back, "width " + width + " count " + count);

        int[] msb = new int[count];
        byte[] packedMsb = new byte[(int) BitPacking.bytesFor(count, width)];
        BitPacking.packIntsMsbFirst(values, 0, count, width, packedMsb, 0);
        BitPacking.unpackIntsMsbFirst(packedMsb, 0, msb, 0, count, width);
        assertArrayEquals(values, msb, "MSB width " + width + " count " + count);
      }
    }
  }

  @Test
  void longsRoundTripEveryWidthAndLength() {
    Random random = new Random(7);
    for (int width = 0; width <= 64; width++) {
      for (int count : new int[] {0, 1, 7, 8, 9, 32, 33, 128, 1024}) {
        long[] values = new long[count];
        long mask = BitPacking.mask(width);
        for (int i = 0; i < count; i++) {
          values[i] = random.nextLong() & mask;
        }
        byte[] packed = new byte[1 + (int) BitPacking.bytesFor(count, width)];
        BitPacking.packLongs(values, 0, count, width, packed, 1);
        long[] back = new long[count];
        BitPacking.unpackLongs(packed, 1, back, 0, count, width);
        assertArrayEquals(values, back, "width " + width + " count " + count);
      }
    }
  }
}
