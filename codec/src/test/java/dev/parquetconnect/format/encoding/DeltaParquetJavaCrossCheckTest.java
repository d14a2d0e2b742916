package dev.parquetconnect.format.encoding;

import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.assertSameValues;
import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.batch;
import static dev.parquetconnect.format.encoding.DeltaLengthByteArrayTest.toList;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesReader;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesReader;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayReader;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * The delta encodings against parquet-java 1.16 as the oracle, both ways: parquet-java writes and
 * we read the same values; we write and parquet-java reads the same values. parquet-java leaves
 * stale bits in the last miniblock's padding and in unused miniblocks' widths, so its pages also
 * exercise the reader leniency the specification asks for.
 */
class DeltaParquetJavaCrossCheckTest {
  private static final HeapByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();
  private static final long[] SEEDS = {1, 2, 3};
  private static final int[] COUNTS = {0, 1, 5, 129, 700};

  private static byte[] bytesOf(ValuesWriter writer) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    writer.getBytes().writeAllTo(bytes);
    writer.close();
    return bytes.toByteArray();
  }

  private static void init(ValuesReader reader, int count, byte[] page) throws IOException {
    reader.initFromPage(count, ByteBufferInputStream.wrap(ByteBuffer.wrap(page)));
  }

  private static byte[] ours(DeltaBinaryPackedEncoder encoder) {
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    return out.toByteArray();
  }

  @Test
  void int32EveryBitWidthBothWays() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int width = 0; width <= 32; width++) {
        for (int[] config : new int[][] {{128, 4}, {256, 8}, {128, 1}}) {
          for (int count : COUNTS) {
            // Several blocks of different widths: the last one in the page at `width` bits.
            int[] values = DeltaBinaryPackedTest.valuesWithDeltaWidth32(random, width, count);
            String label =
                "seed "
                    + seed
                    + " width "
                    + width
                    + " config "
                    + config[0]
                    + "/"
                    + config[1]
                    + " count "
                    + count;

            // A noise page first, so the reused writer leaves stale widths and padding bits.
            DeltaBinaryPackingValuesWriterForInteger theirs =
                new DeltaBinaryPackingValuesWriterForInteger(
                    config[0], config[1], 64, 1 << 20, HEAP);
            int[] noise = DeltaBinaryPackedTest.ints(random, 0, 2 * config[0]);
            for (int v : noise) {
              theirs.writeInteger(v);
            }
            theirs.getBytes();
            theirs.reset();
            for (int v : values) {
              theirs.writeInteger(v);
            }
            byte[] theirPage = bytesOf(theirs);
            assertArrayEquals(values, DeltaBinaryPackedTest.decodeInts(theirPage, count), label);

            DeltaBinaryPackedEncoder encoder =
                new DeltaBinaryPackedEncoder(PhysicalType.INT32, config[0], config[1]);
            encoder.writeInts(values, 0, count);
            DeltaBinaryPackingValuesReader reader = new DeltaBinaryPackingValuesReader();
            init(reader, count, ours(encoder));
            for (int i = 0; i < count; i++) {
              assertEquals(values[i], reader.readInteger(), label + " value " + i);
            }
          }
        }
      }
    }
  }

  @Test
  void int64EveryBitWidthBothWays() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int width = 0; width <= 64; width++) {
        for (int[] config : new int[][] {{128, 4}, {512, 16}}) {
          for (int count : COUNTS) {
            long[] values = DeltaBinaryPackedTest.valuesWithDeltaWidth64(random, width, count);
            String label =
                "seed "
                    + seed
                    + " width "
                    + width
                    + " config "
                    + config[0]
                    + "/"
                    + config[1]
                    + " count "
                    + count;

            DeltaBinaryPackingValuesWriterForLong theirs =
                new DeltaBinaryPackingValuesWriterForLong(config[0], config[1], 64, 1 << 20, HEAP);
            // A noise page first, so the reused writer leaves stale widths and padding bits.
            long[] noise = DeltaBinaryPackedTest.longs(random, 0, 2 * config[0]);
            for (long v : noise) {
              theirs.writeLong(v);
            }
            theirs.getBytes();
            theirs.reset();
            for (long v : values) {
              theirs.writeLong(v);
            }
            assertArrayEquals(
                values, DeltaBinaryPackedTest.decodeLongs(bytesOf(theirs), count), label);

            DeltaBinaryPackedEncoder encoder =
                new DeltaBinaryPackedEncoder(PhysicalType.INT64, config[0], config[1]);
            encoder.writeLongs(values, 0, count);
            DeltaBinaryPackingValuesReader reader = new DeltaBinaryPackingValuesReader();
            init(reader, count, ours(encoder));
            for (int i = 0; i < count; i++) {
              assertEquals(values[i], reader.readLong(), label + " value " + i);
            }
          }
        }
      }
    }
  }

  @Test
  void staleWidthsOfUnusedMiniblocksFromParquetJavaAreAccepted()
      throws IOException, ParquetException {
    DeltaBinaryPackingValuesWriterForInteger theirs =
        new DeltaBinaryPackingValuesWriterForInteger(64, 1 << 20, HEAP);
    for (int v : DeltaBinaryPackedTest.ints(new Random(5), 0, 128)) {
      theirs.writeInteger(v);
    }
    theirs.getBytes();
    theirs.reset();
    int[] values = {3, 1, 4, 1, 5};
    for (int v : values) {
      theirs.writeInteger(v);
    }
    byte[] page = bytesOf(theirs);
    // Header (block 128 as two bytes, 4 miniblocks, count, first), min delta, then 4 widths:
    // only the first miniblock holds values; the others keep widths from the noise block.
    int widths = 2 + 1 + 1 + 1 + 1;
    assertTrue(
        page[widths + 1] != 0 || page[widths + 2] != 0 || page[widths + 3] != 0,
        "expected stale widths in " + Arrays.toString(page));
    assertArrayEquals(values, DeltaBinaryPackedTest.decodeInts(page, values.length));
  }

  @Test
  void extremePatternsBothWays() throws IOException, ParquetException {
    Random random = new Random(4);
    for (int pattern = 0; pattern < DeltaBinaryPackedTest.PATTERNS; pattern++) {
      for (int count : DeltaBinaryPackedTest.LENGTHS) {
        int[] ints = DeltaBinaryPackedTest.ints(random, pattern, count);
        DeltaBinaryPackingValuesWriterForInteger theirInts =
            new DeltaBinaryPackingValuesWriterForInteger(64, 1 << 20, HEAP);
        for (int v : ints) {
          theirInts.writeInteger(v);
        }
        assertArrayEquals(ints, DeltaBinaryPackedTest.decodeInts(bytesOf(theirInts), count));
        DeltaBinaryPackingValuesReader intReader = new DeltaBinaryPackingValuesReader();
        init(intReader, count, DeltaBinaryPackedTest.encodeInts(ints, 128, 4));
        for (int i = 0; i < count; i++) {
          assertEquals(ints[i], intReader.readInteger());
        }

        long[] longs = DeltaBinaryPackedTest.longs(random, pattern, count);
        DeltaBinaryPackingValuesWriterForLong theirLongs =
            new DeltaBinaryPackingValuesWriterForLong(64, 1 << 20, HEAP);
        for (long v : longs) {
          theirLongs.writeLong(v);
        }
        assertArrayEquals(longs, DeltaBinaryPackedTest.decodeLongs(bytesOf(theirLongs), count));
        DeltaBinaryPackingValuesReader longReader = new DeltaBinaryPackingValuesReader();
        init(longReader, count, DeltaBinaryPackedTest.encodeLongs(longs, 128, 4));
        for (int i = 0; i < count; i++) {
          assertEquals(longs[i], longReader.readLong());
        }
      }
    }
  }

  private static List<byte[]> read(ValuesReader reader, int count) {
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add(reader.readBytes().getBytes());
    }
    return values;
  }

  @Test
  void deltaLengthByteArrayBothWays() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int count : DeltaBinaryPackedTest.LENGTHS) {
        List<byte[]> values = DeltaLengthByteArrayTest.randomValues(random, count, 1 + count % 90);
        DeltaLengthByteArrayValuesWriter theirs =
            new DeltaLengthByteArrayValuesWriter(64, 1 << 20, HEAP);
        for (byte[] v : values) {
          theirs.writeBytes(Binary.fromConstantByteArray(v));
        }
        assertSameValues(
            values,
            DeltaLengthByteArrayTest.decode(bytesOf(theirs), count),
            "parquet-java wrote " + count);

        DeltaLengthByteArrayValuesReader reader = new DeltaLengthByteArrayValuesReader();
        init(reader, count, DeltaLengthByteArrayTest.encode(values));
        assertSameValues(values, read(reader, count), "parquet-java read " + count);
      }
    }
  }

  @Test
  void deltaByteArrayBothWays() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int count : DeltaBinaryPackedTest.LENGTHS) {
        for (boolean sorted : new boolean[] {true, false}) {
          List<byte[]> values =
              DeltaByteArrayTest.prefixHeavy(random, count, 1 + count % 40, sorted);
          checkDeltaByteArray(
              values,
              DeltaByteArrayEncoder.forByteArray(),
              DeltaByteArrayDecoder.forByteArray(),
              "seed " + seed + " count " + count);
        }
        for (int length : new int[] {1, 12, 16}) {
          List<byte[]> values = DeltaByteArrayTest.fixed(random, count, length);
          checkDeltaByteArray(
              values,
              DeltaByteArrayEncoder.forFixedLenByteArray(length),
              DeltaByteArrayDecoder.forFixedLenByteArray(length),
              "seed " + seed + " count " + count + " FLBA(" + length + ")");
        }
      }
    }
  }

  private static void checkDeltaByteArray(
      List<byte[]> values,
      DeltaByteArrayEncoder encoder,
      DeltaByteArrayDecoder decoder,
      String label)
      throws IOException, ParquetException {
    int count = values.size();
    DeltaByteArrayWriter theirs = new DeltaByteArrayWriter(64, 1 << 20, HEAP);
    for (byte[] v : values) {
      theirs.writeBytes(Binary.fromConstantByteArray(v));
    }
    byte[] theirPage = bytesOf(theirs);
    decoder.init(theirPage, 0, theirPage.length, count);
    BinaryBatch out = new BinaryBatch();
    decoder.readBinaries(out, count);
    assertSameValues(values, toList(out), "parquet-java wrote, " + label);

    encoder.writeBinaries(batch(values), 0, count);
    GrowableBuffer ours = new GrowableBuffer();
    encoder.flushTo(ours);
    DeltaByteArrayReader reader = new DeltaByteArrayReader();
    init(reader, count, ours.toByteArray());
    assertSameValues(values, read(reader, count), "parquet-java read, " + label);
  }
}
