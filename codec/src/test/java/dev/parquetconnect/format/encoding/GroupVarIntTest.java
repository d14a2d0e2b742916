package dev.parquetconnect.format.encoding;

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
import java.util.Random;
import org.junit.jupiter.api.Test;

class GroupVarIntTest {

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  static byte[] encodeInts(int... values) {
    GroupVarIntEncoder encoder = new GroupVarIntEncoder(PhysicalType.INT32);
    encoder.writeInts(values, 0, values.length);
    assertEquals(values.length, encoder.valueCount());
    long estimate = encoder.estimatedSize();
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    assertTrue(out.size() <= estimate);
    return out.toByteArray();
  }

  static byte[] encodeLongs(long... values) {
    GroupVarIntEncoder encoder = new GroupVarIntEncoder(PhysicalType.INT64);
    encoder.writeLongs(values, 0, values.length);
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    return out.toByteArray();
  }

  static int[] decodeInts(byte[] page, int count) throws ParquetException {
    GroupVarIntDecoder decoder = GroupVarIntDecoder.forType(PhysicalType.INT32);
    decoder.init(page, 0, page.length, count);
    int[] out = new int[count];
    decoder.readInts(out, 0, count);
    return out;
  }

  static long[] decodeLongs(byte[] page, int count) throws ParquetException {
    GroupVarIntDecoder decoder = GroupVarIntDecoder.forType(PhysicalType.INT64);
    decoder.init(page, 0, page.length, count);
    long[] out = new long[count];
    decoder.readLongs(out, 0, count);
    return out;
  }

  @Test
  void draftExampleLengthByte() throws ParquetException {
    // 0b00101101: 1, 3, 4 and 2 bytes; 11 bytes in all; values at offsets 1, 2, 5 and 9, each at
    // the largest value its byte count allows.
    byte[] group = bytes(0b00101101, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
    assertEquals(11, group.length);
    int[] values = {0xFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFF};
    assertArrayEquals(values, decodeInts(group, 4));
    assertArrayEquals(group, encodeInts(values));
    // Little-endian data: distinct bytes land where the draft says.
    byte[] distinct = bytes(0b00101101, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A);
    assertArrayEquals(new int[] {0x01, 0x040302, 0x08070605, 0x0A09}, decodeInts(distinct, 4));
    assertEquals(Encoding.GROUP_VAR_INT, new GroupVarIntEncoder(PhysicalType.INT32).encoding());
  }

  @Test
  void draftZeroPaddingRule() throws ParquetException {
    // (1,2,3,4,5) is written as if it were (1,2,3,4,5,0,0,0): two complete groups.
    byte[] page = encodeInts(1, 2, 3, 4, 5);
    assertArrayEquals(bytes(0x00, 1, 2, 3, 4, 0x00, 5, 0, 0, 0), page);
    assertArrayEquals(new int[] {1, 2, 3, 4, 5}, decodeInts(page, 5));
    assertArrayEquals(new int[] {1, 2, 3, 4, 5, 0, 0, 0}, decodeInts(page, 8));
    // Three ints make one padded group.
    assertArrayEquals(bytes(0x00, 7, 8, 9, 0), encodeInts(7, 8, 9));
    // Padding values are read and dropped, whatever they hold.
    assertArrayEquals(
        new int[] {1, 2, 3, 4, 5},
        decodeInts(bytes(0x00, 1, 2, 3, 4, 0x03, 5, 0, 0, 0xAA, 0xBB, 0xCC, 0xDD), 5));
    // But the last group must be complete.
    assertThrows(CorruptDataException.class, () -> decodeInts(bytes(0x00, 1, 2, 3, 4, 0x00, 5), 5));
  }

  @Test
  void int64LayoutThreeBitsPerValueBigEndianHeader() throws ParquetException {
    // Byte counts 1, 2, 8, 3, 1: codes 0, 1, 7, 2, 0 -> 0b0_000_001_111_010_000 = 0x03D0.
    long[] values = {0x7F, 0x1234, -1L, 0xABCDEF, 0};
    byte[] page = encodeLongs(values);
    byte[] expected =
        bytes(
            0x03, 0xD0, 0x7F, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF,
            0xCD, 0xAB, 0x00);
    assertArrayEquals(expected, page);
    assertArrayEquals(values, decodeLongs(page, 5));
    // Six values: a second group padded with four zeros.
    byte[] six = encodeLongs(1, 2, 3, 4, 5, 6);
    assertEquals(2 + 5 + 2 + 5, six.length);
    assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6}, decodeLongs(six, 6));
  }

  @Test
  void roundTripsEveryByteCount() throws ParquetException {
    Random random = new Random(41);
    for (int count : new int[] {0, 1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 1000, 1025}) {
      int[] ints = new int[count];
      long[] longs = new long[count];
      for (int i = 0; i < count; i++) {
        ints[i] = random.nextInt() >>> random.nextInt(32);
        longs[i] = random.nextLong() >>> random.nextInt(64);
        if (i % 7 == 0) {
          ints[i] = i % 2 == 0 ? Integer.MIN_VALUE : -1;
          longs[i] = i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
      }
      byte[] intPage = encodeInts(ints);
      assertArrayEquals(ints, decodeInts(intPage, count), "ints " + count);
      assertArrayEquals(ints, readInPieces(intPage, ints, random), "ints in pieces " + count);
      byte[] longPage = encodeLongs(longs);
      assertArrayEquals(longs, decodeLongs(longPage, count), "longs " + count);
      GroupVarIntDecoder decoder = GroupVarIntDecoder.forType(PhysicalType.INT64);
      decoder.init(longPage, 0, longPage.length, count);
      long[] back = new long[count];
      for (int done = 0; done < count; ) {
        int n = Math.min(count - done, 1 + random.nextInt(13));
        if (random.nextInt(3) == 0) {
          decoder.skip(n);
          System.arraycopy(longs, done, back, done, n);
        } else {
          decoder.readLongs(back, done, n);
        }
        done += n;
      }
      assertArrayEquals(longs, back, "longs in pieces " + count);
    }
  }

  private static int[] readInPieces(byte[] page, int[] values, Random random)
      throws ParquetException {
    GroupVarIntDecoder decoder = GroupVarIntDecoder.forType(PhysicalType.INT32);
    decoder.init(page, 0, page.length, values.length);
    int[] back = new int[values.length];
    for (int done = 0; done < values.length; ) {
      int n = Math.min(values.length - done, 1 + random.nextInt(11));
      if (random.nextInt(3) == 0) {
        decoder.skip(n);
        System.arraycopy(values, done, back, done, n);
      } else {
        decoder.readInts(back, done, n);
      }
      done += n;
    }
    return back;
  }

  @Test
  void rejectsTruncatedGroupsAndWrongTypes() throws ParquetException {
    assertThrows(CorruptDataException.class, () -> decodeInts(new byte[0], 1));
    assertThrows(CorruptDataException.class, () -> decodeInts(bytes(0xFF, 1, 2, 3), 4));
    assertThrows(CorruptDataException.class, () -> decodeLongs(bytes(0x00), 1));
    assertThrows(CorruptDataException.class, () -> decodeLongs(bytes(0x7F, 0xFF, 1, 2), 1));
    CorruptDataException past =
        assertThrows(CorruptDataException.class, () -> decodeInts(encodeInts(1, 2), 9));
    assertTrue(past.getMessage().startsWith("GROUP_VAR_INT"), past.getMessage());
    GroupVarIntDecoder decoder = GroupVarIntDecoder.forType(PhysicalType.INT32);
    decoder.init(bytes(0, 1, 2, 3, 4), 0, 5, 4);
    assertThrows(UnsupportedFeatureException.class, () -> decoder.readLongs(new long[1], 0, 1));
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[5], 0, 5));
    assertThrows(
        UnsupportedFeatureException.class, () -> GroupVarIntDecoder.forType(PhysicalType.DOUBLE));
    assertThrows(IllegalArgumentException.class, () -> new GroupVarIntEncoder(PhysicalType.FLOAT));
  }
}
