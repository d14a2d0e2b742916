package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  @Test
  void generatedKernelsAreUpToDate() throws IOException {
    String committed = Files.readString(BitPackingKernelsGenerator.TARGET, StandardCharsets.UTF_8);
    assertEquals(
        BitPackingKernelsGenerator.generate(),
        committed,
        "BitPackingKernels.java differs from its generator: run BitPackingKernelsGenerator.main");
  }

  @Test
  void kernelsMatchBitByBitReferenceAtEveryOffsetAndArrayEnd() {
    // Every width, every start offset within a word, and arrays that end exactly at the data
    // or a few bytes later, so that groups switch between the kernels and the tail path.
    Random random = new Random(2024);
    for (int width = 1; width <= 64; width++) {
      for (int count : new int[] {8, 16, 24, 40, 64, 200}) {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
          values[i] = random.nextLong() & BitPacking.mask(width);
        }
        int bytes = (int) BitPacking.bytesFor(count, width);
        for (int off = 0; off < 9; off++) {
          for (int slack = 0; slack < 9; slack += 4) {
            byte[] packed = new byte[off + bytes + slack];
            random.nextBytes(packed); // stale bytes around the data must not leak in
            byte[] reference = packed.clone();
            referencePackLsb(values, width, reference, off);
            assertEquals(bytes, BitPacking.packLongs(values, 0, count, width, packed, off));
            assertArrayEquals(reference, packed, "packLongs width " + width + " off " + off);
            long[] back = new long[count];
            BitPacking.unpackLongs(packed, off, back, 0, count, width);
            assertArrayEquals(values, back, "unpackLongs width " + width + " off " + off);
            if (width <= 32) {
              int[] ints = new int[count];
              for (int i = 0; i < count; i++) {
                ints[i] = (int) values[i];
              }
              random.nextBytes(packed);
              reference = packed.clone();
              referencePackLsb(values, width, reference, off);
              assertEquals(bytes, BitPacking.packInts(ints, 0, count, width, packed, off));
              assertArrayEquals(reference, packed, "packInts width " + width + " off " + off);
              int[] intsBack = new int[count + 2];
              BitPacking.unpackInts(packed, off, intsBack, 1, count, width);
              for (int i = 0; i < count; i++) {
                assertEquals(ints[i], intsBack[i + 1], "unpackInts width " + width + " i " + i);
              }
            }
          }
        }
      }
    }
  }

  @Test
  void packIgnoresBitsAboveTheWidth() {
    int[] noisy = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
    for (int width = 1; width <= 32; width++) {
      byte[] lsb = new byte[(int) BitPacking.bytesFor(9, width)];
      BitPacking.packInts(noisy, 0, 9, width, lsb, 0);
      int[] back = new int[9];
      BitPacking.unpackInts(lsb, 0, back, 0, 9, width);
      byte[] msb = new byte[lsb.length];
      BitPacking.packIntsMsbFirst(noisy, 0, 9, width, msb, 0);
      int[] backMsb = new int[9];
      BitPacking.unpackIntsMsbFirst(msb, 0, backMsb, 0, 9, width);
      for (int i = 0; i < 9; i++) {
        assertEquals((int) BitPacking.mask(width), back[i], "LSB width " + width);
        assertEquals((int) BitPacking.mask(width), backMsb[i], "MSB width " + width);
      }
    }
  }

  @Test
  void msbFirstResumesInsideAByte() {
    Random random = new Random(11);
    for (int width = 1; width <= 32; width++) {
      int[] values = new int[50];
      for (int i = 0; i < values.length; i++) {
        values[i] = (int) (random.nextLong() & BitPacking.mask(width));
      }
      byte[] packed = new byte[(int) BitPacking.bytesFor(values.length, width)];
      BitPacking.packIntsMsbFirst(values, 0, values.length, width, packed, 0);
      for (int from = 0; from < values.length; from += 7) {
        int n = Math.min(7, values.length - from);
        int[] part = new int[n];
        BitPacking.unpackIntsMsbFirstAtBit(packed, (long) from * width, part, 0, n, width);
        for (int i = 0; i < n; i++) {
          assertEquals(values[from + i], part[i], "width " + width + " value " + (from + i));
        }
      }
    }
  }

  /** Bit-at-a-time LSB-first packing straight from the definition, into a dirty array. */
  private static void referencePackLsb(long[] values, int width, byte[] dst, int off) {
    int bytes = (int) BitPacking.bytesFor(values.length, width);
    java.util.Arrays.fill(dst, off, off + bytes, (byte) 0);
    long bit = 0;
    for (long v : values) {
      for (int b = 0; b < width; b++, bit++) {
        if (((v >>> b) & 1) != 0) {
          dst[off + (int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
        }
      }
    }
  }
}
