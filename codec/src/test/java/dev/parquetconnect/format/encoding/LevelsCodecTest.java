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
import java.io.IOException;
import java.util.Random;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesReader;
import org.junit.jupiter.api.Test;

class LevelsCodecTest {

  /** A v1 page body: repetition levels, definition levels, then values (here 3 marker bytes). */
  @Test
  void v1PageSectionsFollowEachOther() throws ParquetException {
    Random random = new Random(51);
    for (Encoding encoding : new Encoding[] {Encoding.RLE, Encoding.BIT_PACKED}) {
      for (int maxRep : new int[] {0, 1, 3}) {
        for (int maxDef : new int[] {0, 1, 2, 7}) {
          int n = 1 + random.nextInt(3000);
          int[] rep = TestValues.ints(random, n, 2, 3);
          int[] def = TestValues.ints(random, n, 3, 3);
          clamp(rep, maxRep);
          clamp(def, maxDef);
          LevelsEncoder repEncoder =
              encoding == Encoding.RLE
                  ? LevelsEncoder.v1(maxRep)
                  : LevelsEncoder.v1BitPacked(maxRep);
          LevelsEncoder defEncoder =
              encoding == Encoding.RLE
                  ? LevelsEncoder.v1(maxDef)
                  : LevelsEncoder.v1BitPacked(maxDef);
          assertEquals(encoding, repEncoder.encoding());
          repEncoder.write(rep, 0, n);
          defEncoder.write(def, 0, n);
          long repEstimate = repEncoder.estimatedSize();
          GrowableBuffer body = new GrowableBuffer();
          int repBytes = repEncoder.flushTo(body);
          int defBytes = defEncoder.flushTo(body);
          assertEquals(repEstimate, repBytes);
          assertEquals(maxRep == 0, repBytes == 0);
          body.write(new byte[] {7, 8, 9});
          byte[] page = body.toByteArray();

          LevelsDecoder repDecoder = new LevelsDecoder();
          LevelsDecoder defDecoder = new LevelsDecoder();
          int at = repDecoder.initV1(encoding, maxRep, page, 0, page.length, n);
          assertEquals(repBytes, at);
          at += defDecoder.initV1(encoding, maxDef, page, at, page.length - at, n);
          assertEquals(repBytes + defBytes, at);
          assertEquals(7, page[at], "values start right after the levels");
          assertArrayEquals(rep, readAll(repDecoder, n, random));
          assertArrayEquals(def, readAll(defDecoder, n, random));
        }
      }
    }
  }

  @Test
  void v2LevelsHaveNoPrefixAndAGivenLength() throws ParquetException {
    Random random = new Random(52);
    for (int maxLevel : new int[] {0, 1, 2, 5, 200}) {
      int n = 1 + random.nextInt(3000);
      int[] levels = TestValues.ints(random, n, BitPacking.bitWidth(maxLevel), 1);
      clamp(levels, maxLevel);
      LevelsEncoder encoder = LevelsEncoder.v2(maxLevel);
      encoder.write(levels, 0, n);
      GrowableBuffer out = new GrowableBuffer();
      int length = encoder.flushTo(out);
      byte[] bytes = out.toByteArray();
      assertEquals(bytes.length, length);
      if (maxLevel > 0) {
        assertArrayEquals(
            levels, RleBitPackedHybridTest.decode(bytes, BitPacking.bitWidth(maxLevel), false, n));
      }
      LevelsDecoder decoder = new LevelsDecoder();
      decoder.initV2(maxLevel, bytes, 0, length, n);
      assertArrayEquals(levels, readAll(decoder, n, random), "max level " + maxLevel);
    }
  }

  @Test
  void parquetJavaReadsOurLevels() throws IOException {
    Random random = new Random(53);
    for (int maxLevel = 1; maxLevel < 20; maxLevel++) {
      int n = 1 + random.nextInt(2000);
      int width = BitPacking.bitWidth(maxLevel);
      int[] levels = TestValues.ints(random, n, width, maxLevel);
      clamp(levels, maxLevel);
      LevelsEncoder v1 = LevelsEncoder.v1(maxLevel);
      v1.write(levels, 0, n);
      GrowableBuffer out = new GrowableBuffer();
      v1.flushTo(out);
      RunLengthBitPackingHybridValuesReader reader =
          new RunLengthBitPackingHybridValuesReader(width);
      reader.initFromPage(n, ParquetJava.stream(out.toByteArray()));
      LevelsEncoder v2 = LevelsEncoder.v2(maxLevel);
      v2.write(levels, 0, n);
      GrowableBuffer out2 = new GrowableBuffer();
      v2.flushTo(out2);
      RunLengthBitPackingHybridDecoder decoder =
          new RunLengthBitPackingHybridDecoder(
              width, new java.io.ByteArrayInputStream(out2.toByteArray()));
      for (int i = 0; i < n; i++) {
        assertEquals(levels[i], reader.readInteger());
        assertEquals(levels[i], decoder.readInt());
      }
    }
  }

  @Test
  void levelAboveTheMaximumIsCorrupt() throws ParquetException {
    // Max level 2 has width 2, so the data can say 3: an RLE run of eight 3s.
    byte[] page = {2, 0, 0, 0, 0x10, 0x03};
    LevelsDecoder decoder = new LevelsDecoder();
    decoder.initV1(Encoding.RLE, 2, page, 0, page.length, 8);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decoder.read(new int[8], 0, 8));
    assertTrue(
        e.getMessage().contains("level 3 of value 0 exceeds the column's maximum level 2"),
        e.getMessage());
  }

  @Test
  void badLayoutsAreRejected() throws ParquetException {
    LevelsDecoder decoder = new LevelsDecoder();
    byte[] page = new byte[16];
    assertThrows(
        UnsupportedFeatureException.class,
        () -> decoder.initV1(Encoding.PLAIN, 1, page, 0, page.length, 8));
    // v2 bytes for a column without levels are ignored (a real writer emits them)
    decoder.initV2(0, page, 0, 3, 8);
    decoder.read(new int[8], 0, 8);
    // fewer levels in the data than the page's value count
    decoder.initV2(1, new byte[] {0x10, 0x01}, 0, 2, 9);
    assertThrows(CorruptDataException.class, () -> decoder.read(new int[9], 0, 9));
    // maximum level 0: zeros, and no more than the value count
    decoder.initV1(Encoding.RLE, 0, page, 0, 0, 4);
    int[] zeros = {5, 5, 5, 5};
    decoder.read(zeros, 0, 4);
    assertArrayEquals(new int[4], zeros);
    assertThrows(CorruptDataException.class, () -> decoder.skip(1));
    LevelsEncoder encoder = LevelsEncoder.v1(1);
    assertThrows(IllegalArgumentException.class, () -> encoder.write(new int[] {2}, 0, 1));
  }

  private static void clamp(int[] levels, int max) {
    for (int i = 0; i < levels.length; i++) {
      levels[i] = Math.min(levels[i], max);
    }
  }

  private static int[] readAll(LevelsDecoder decoder, int n, Random random)
      throws ParquetException {
    int[] out = new int[n];
    for (int at = 0; at < n; ) {
      int k = TestValues.nextBatch(random, n - at);
      decoder.read(out, at, k);
      at += k;
    }
    return out;
  }
}
