package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForDouble;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForFLBA;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForFloat;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForInteger;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForLong;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * BYTE_STREAM_SPLIT against parquet-java 1.16 as the oracle, both ways and for every type it
 * defines. The format has no choices to make, so the pages must also be byte-identical, except that
 * parquet-java's float and double writers store {@code floatToIntBits}, which turns every NaN into
 * the canonical one: their pages are compared with ours for the canonicalized values, and
 * parquet-java's readers (which keep raw bits) must return our NaN payloads unchanged.
 */
class ByteStreamSplitParquetJavaCrossCheckTest {
  private static final HeapByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();
  private static final long[] SEEDS = {1, 2, 3};
  private static final int[] COUNTS = {0, 1, 7, 8, 33, 1000};

  private static byte[] bytesOf(ValuesWriter writer) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    writer.getBytes().writeAllTo(bytes);
    writer.close();
    return bytes.toByteArray();
  }

  private static void init(ValuesReader reader, int count, byte[] page) throws IOException {
    reader.initFromPage(count, ByteBufferInputStream.wrap(ByteBuffer.wrap(page)));
  }

  private static byte[] flush(ByteStreamSplitEncoder encoder) {
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    return out.toByteArray();
  }

  private static ByteStreamSplitDecoder decoder(
      PhysicalType type, int length, byte[] page, int count) throws ParquetException {
    ByteStreamSplitDecoder decoder = ByteStreamSplitDecoder.forType(type, length);
    decoder.init(page, 0, page.length, count);
    return decoder;
  }

  private static float[] canonical(float[] values) {
    float[] out = new float[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Float.intBitsToFloat(Float.floatToIntBits(values[i]));
    }
    return out;
  }

  private static double[] canonical(double[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Double.longBitsToDouble(Double.doubleToLongBits(values[i]));
    }
    return out;
  }

  @Test
  void floatsAndDoubles() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int count : COUNTS) {
        float[] floats = ByteStreamSplitTest.floats(random, count);
        ValuesWriter theirFloats =
            new ByteStreamSplitValuesWriter.FloatByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        for (float v : floats) {
          theirFloats.writeFloat(v);
        }
        byte[] theirPage = bytesOf(theirFloats);
        ByteStreamSplitEncoder ourFloats = ByteStreamSplitEncoder.forType(PhysicalType.FLOAT, 0);
        ourFloats.writeFloats(canonical(floats), 0, count);
        assertArrayEquals(theirPage, flush(ourFloats));
        ourFloats.writeFloats(floats, 0, count);
        byte[] ourPage = flush(ourFloats);
        float[] back = new float[count];
        decoder(PhysicalType.FLOAT, 0, theirPage, count).readFloats(back, 0, count);
        ValuesReader reader = new ByteStreamSplitValuesReaderForFloat();
        init(reader, count, ourPage);
        for (int i = 0; i < count; i++) {
          assertEquals(Float.floatToIntBits(floats[i]), Float.floatToRawIntBits(back[i]));
          assertEquals(
              Float.floatToRawIntBits(floats[i]), Float.floatToRawIntBits(reader.readFloat()));
        }

        double[] doubles = ByteStreamSplitTest.doubles(random, count);
        ValuesWriter theirDoubles =
            new ByteStreamSplitValuesWriter.DoubleByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        for (double v : doubles) {
          theirDoubles.writeDouble(v);
        }
        byte[] theirDoublePage = bytesOf(theirDoubles);
        ByteStreamSplitEncoder ourDoubles = ByteStreamSplitEncoder.forType(PhysicalType.DOUBLE, 0);
        ourDoubles.writeDoubles(canonical(doubles), 0, count);
        assertArrayEquals(theirDoublePage, flush(ourDoubles));
        ourDoubles.writeDoubles(doubles, 0, count);
        byte[] ourDoublePage = flush(ourDoubles);
        double[] doublesBack = new double[count];
        decoder(PhysicalType.DOUBLE, 0, theirDoublePage, count).readDoubles(doublesBack, 0, count);
        ValuesReader doubleReader = new ByteStreamSplitValuesReaderForDouble();
        init(doubleReader, count, ourDoublePage);
        for (int i = 0; i < count; i++) {
          assertEquals(
              Double.doubleToLongBits(doubles[i]), Double.doubleToRawLongBits(doublesBack[i]));
          assertEquals(
              Double.doubleToRawLongBits(doubles[i]),
              Double.doubleToRawLongBits(doubleReader.readDouble()));
        }
      }
    }
  }

  @Test
  void integers() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int count : COUNTS) {
        int[] ints = DeltaBinaryPackedTest.ints(random, (int) (seed % 3) * 2, count);
        ValuesWriter theirInts =
            new ByteStreamSplitValuesWriter.IntegerByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        for (int v : ints) {
          theirInts.writeInteger(v);
        }
        byte[] theirPage = bytesOf(theirInts);
        ByteStreamSplitEncoder ourInts = ByteStreamSplitEncoder.forType(PhysicalType.INT32, 0);
        ourInts.writeInts(ints, 0, count);
        byte[] ourPage = flush(ourInts);
        assertArrayEquals(theirPage, ourPage);
        int[] back = new int[count];
        decoder(PhysicalType.INT32, 0, theirPage, count).readInts(back, 0, count);
        assertArrayEquals(ints, back);
        ValuesReader reader = new ByteStreamSplitValuesReaderForInteger();
        init(reader, count, ourPage);
        for (int i = 0; i < count; i++) {
          assertEquals(ints[i], reader.readInteger());
        }

        long[] longs = DeltaBinaryPackedTest.longs(random, (int) (seed % 3) * 2, count);
        ValuesWriter theirLongs =
            new ByteStreamSplitValuesWriter.LongByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        for (long v : longs) {
          theirLongs.writeLong(v);
        }
        byte[] theirLongPage = bytesOf(theirLongs);
        ByteStreamSplitEncoder ourLongs = ByteStreamSplitEncoder.forType(PhysicalType.INT64, 0);
        ourLongs.writeLongs(longs, 0, count);
        byte[] ourLongPage = flush(ourLongs);
        assertArrayEquals(theirLongPage, ourLongPage);
        long[] longsBack = new long[count];
        decoder(PhysicalType.INT64, 0, theirLongPage, count).readLongs(longsBack, 0, count);
        assertArrayEquals(longs, longsBack);
        ValuesReader longReader = new ByteStreamSplitValuesReaderForLong();
        init(longReader, count, ourLongPage);
        for (int i = 0; i < count; i++) {
          assertEquals(longs[i], longReader.readLong());
        }
      }
    }
  }

  @Test
  void fixedLenByteArrays() throws IOException, ParquetException {
    for (long seed : SEEDS) {
      Random random = new Random(seed);
      for (int width : new int[] {1, 2, 5, 16}) {
        for (int count : COUNTS) {
          BinaryBatch values = new BinaryBatch();
          ValuesWriter theirs =
              new ByteStreamSplitValuesWriter.FixedLenByteArrayByteStreamSplitValuesWriter(
                  width, 64, 1 << 20, HEAP);
          byte[] value = new byte[width];
          for (int i = 0; i < count; i++) {
            random.nextBytes(value);
            values.add(value);
            theirs.writeBytes(Binary.fromConstantByteArray(value.clone()));
          }
          byte[] theirPage = bytesOf(theirs);
          ByteStreamSplitEncoder ours =
              ByteStreamSplitEncoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, width);
          ours.writeBinaries(values, 0, count);
          byte[] ourPage = flush(ours);
          assertArrayEquals(theirPage, ourPage);
          BinaryBatch back = new BinaryBatch();
          decoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, width, theirPage, count)
              .readBinaries(back, count);
          ValuesReader reader = new ByteStreamSplitValuesReaderForFLBA(width);
          init(reader, count, ourPage);
          for (int i = 0; i < count; i++) {
            assertArrayEquals(values.get(i), back.get(i));
            assertArrayEquals(values.get(i), reader.readBytes().getBytes());
          }
        }
      }
    }
  }
}
