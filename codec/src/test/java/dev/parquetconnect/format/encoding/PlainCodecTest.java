package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.plain.BinaryPlainValuesReader;
import org.apache.parquet.column.values.plain.BooleanPlainValuesReader;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesReader;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesReader;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

class PlainCodecTest {
  private static final int FLBA_LENGTH = 5;

  // ---- exact bytes from the spec's layout ----

  @Test
  void layoutOfEveryType() throws ParquetException {
    PlainEncoder booleans = new PlainEncoder(PhysicalType.BOOLEAN);
    booleans.writeBooleans(
        new boolean[] {true, false, true, true, false, false, false, false, true}, 0, 9);
    // LSB first: the first value is bit 0 of the first byte; the last byte is zero-padded.
    assertArrayEquals(new byte[] {0b00001101, 0b00000001}, TestValues.flush(booleans));

    PlainEncoder ints = new PlainEncoder(PhysicalType.INT32);
    ints.writeInts(new int[] {1, -2}, 0, 2);
    assertArrayEquals(
        new byte[] {1, 0, 0, 0, (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
        TestValues.flush(ints));

    PlainEncoder longs = new PlainEncoder(PhysicalType.INT64);
    longs.writeLongs(new long[] {0x0102030405060708L}, 0, 1);
    assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, TestValues.flush(longs));

    PlainEncoder floats = new PlainEncoder(PhysicalType.FLOAT);
    floats.writeFloats(new float[] {1.0f}, 0, 1); // 0x3F800000
    assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3F}, TestValues.flush(floats));

    PlainEncoder doubles = new PlainEncoder(PhysicalType.DOUBLE);
    doubles.writeDoubles(new double[] {-2.0}, 0, 1); // 0xC000000000000000
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) 0xC0}, TestValues.flush(doubles));

    BinaryBatch strings = new BinaryBatch();
    strings.add("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    strings.add(new byte[0]);
    PlainEncoder byteArrays = new PlainEncoder(PhysicalType.BYTE_ARRAY);
    byteArrays.writeBinaries(strings, 0, 2);
    assertArrayEquals(
        new byte[] {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0}, TestValues.flush(byteArrays));

    BinaryBatch fixed = new BinaryBatch();
    fixed.add(new byte[] {1, 2});
    fixed.add(new byte[] {3, 4});
    PlainEncoder flba = new PlainEncoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2);
    flba.writeBinaries(fixed, 0, 2);
    assertArrayEquals(new byte[] {1, 2, 3, 4}, TestValues.flush(flba));
    assertEquals(Encoding.PLAIN, flba.encoding());
  }

  // ---- round trips ----

  @Test
  void roundTripEveryTypeAndLength() throws ParquetException {
    Random random = new Random(31);
    for (PhysicalType type : PhysicalType.values()) {
      for (int length : TestValues.LENGTHS) {
        for (boolean allEqual : new boolean[] {false, true}) {
          Column column = Column.random(type, length, random);
          if (allEqual) {
            column = column.allEqual();
          }
          PlainEncoder encoder = new PlainEncoder(type, FLBA_LENGTH);
          column.write(encoder, random);
          assertEquals(length, encoder.valueCount());
          long estimate = encoder.estimatedSize();
          byte[] bytes = TestValues.flush(encoder);
          assertEquals(bytes.length, estimate, type + " estimate");
          assertEquals(0, encoder.valueCount());
          byte[] page = TestValues.embed(bytes, 3, 4, random);
          PlainDecoder decoder = new PlainDecoder(type, FLBA_LENGTH);
          decoder.init(page, 3, bytes.length, length);
          Column back = Column.read(decoder, type, length, random);
          column.assertSame(back, type + " length " + length);
          assertEquals(0, decoder.remaining());
          assertEquals(3 + bytes.length, decoder.position());
        }
      }
    }
  }

  @Test
  void floatingPointIsBitExact() throws ParquetException {
    float[] floats = {
      -0.0f,
      0.0f,
      Float.NaN,
      Float.intBitsToFloat(0x7FC00001),
      Float.intBitsToFloat(0xFF800001),
      Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY,
      Float.MIN_VALUE,
      Float.MAX_VALUE
    };
    PlainEncoder encoder = new PlainEncoder(PhysicalType.FLOAT);
    encoder.writeFloats(floats, 0, floats.length);
    byte[] bytes = TestValues.flush(encoder);
    PlainDecoder decoder = new PlainDecoder(PhysicalType.FLOAT);
    decoder.init(bytes, 0, bytes.length, floats.length);
    float[] back = new float[floats.length];
    decoder.readFloats(back, 0, floats.length);
    for (int i = 0; i < floats.length; i++) {
      assertEquals(
          Float.floatToRawIntBits(floats[i]), Float.floatToRawIntBits(back[i]), "float " + i);
    }
    double[] doubles = {
      -0.0,
      0.0,
      Double.NaN,
      Double.longBitsToDouble(0x7FF8000000000001L),
      Double.longBitsToDouble(0xFFF0000000000001L),
      Double.MIN_VALUE,
      Double.MAX_VALUE
    };
    PlainEncoder doubleEncoder = new PlainEncoder(PhysicalType.DOUBLE);
    doubleEncoder.writeDoubles(doubles, 0, doubles.length);
    bytes = TestValues.flush(doubleEncoder);
    PlainDecoder doubleDecoder = new PlainDecoder(PhysicalType.DOUBLE);
    doubleDecoder.init(bytes, 0, bytes.length, doubles.length);
    double[] doublesBack = new double[doubles.length];
    doubleDecoder.readDoubles(doublesBack, 0, doubles.length);
    for (int i = 0; i < doubles.length; i++) {
      assertEquals(
          Double.doubleToRawLongBits(doubles[i]),
          Double.doubleToRawLongBits(doublesBack[i]),
          "double " + i);
    }
  }

  @Test
  void skipEveryType() throws ParquetException {
    Random random = new Random(32);
    for (PhysicalType type : PhysicalType.values()) {
      Column column = Column.random(type, 300, random);
      PlainEncoder encoder = new PlainEncoder(type, FLBA_LENGTH);
      column.write(encoder, random);
      byte[] bytes = TestValues.flush(encoder);
      PlainDecoder decoder = new PlainDecoder(type, FLBA_LENGTH);
      decoder.init(bytes, 0, bytes.length, 300);
      decoder.skip(17);
      Column rest = Column.read(decoder, type, 283, random);
      column.slice(17, 300).assertSame(rest, type + " after skip");
    }
  }

  // ---- corrupt input and misuse ----

  @Test
  void truncatedPagesAreCorrupt() throws ParquetException {
    for (PhysicalType type : PhysicalType.values()) {
      Column column = Column.random(type, 20, new Random(33));
      PlainEncoder encoder = new PlainEncoder(type, FLBA_LENGTH);
      column.write(encoder, new Random(1));
      byte[] bytes = TestValues.flush(encoder);
      PlainDecoder decoder = new PlainDecoder(type, FLBA_LENGTH);
      decoder.init(bytes, 0, bytes.length - 1, 20);
      assertThrows(
          CorruptDataException.class,
          () -> Column.read(decoder, type, 20, new Random(2)),
          type.name());
      // Asking for more values than the page holds.
      PlainDecoder full = new PlainDecoder(type, FLBA_LENGTH);
      full.init(bytes, 0, bytes.length, 19);
      assertThrows(CorruptDataException.class, () -> full.skip(20), type.name());
    }
  }

  @Test
  void badByteArrayLengthsAreCorrupt() throws ParquetException {
    PlainDecoder decoder = new PlainDecoder(PhysicalType.BYTE_ARRAY);
    byte[] tooLong = {5, 0, 0, 0, 'a', 'b'};
    decoder.init(tooLong, 0, tooLong.length, 1);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decoder.readBinaries(new BinaryBatch(), 1));
    assertTrue(e.getMessage().contains("value length 5 at byte 0"), e.getMessage());
    byte[] negative = {0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
    decoder.init(negative, 0, negative.length, 2);
    BinaryBatch batch = new BinaryBatch();
    e = assertThrows(CorruptDataException.class, () -> decoder.readBinaries(batch, 2));
    assertTrue(e.getMessage().contains("4294967295 at byte 4"), e.getMessage());
    assertEquals(0, batch.count(), "a failed batch adds nothing");
    byte[] shortLength = {1, 0};
    decoder.init(shortLength, 0, 2, 1);
    assertThrows(CorruptDataException.class, () -> decoder.skip(1));
  }

  @Test
  void wrongTypeIsUnsupportedAndBadSchemaIsCorrupt() throws ParquetException {
    PlainDecoder decoder = new PlainDecoder(PhysicalType.INT32);
    decoder.init(new byte[8], 0, 8, 2);
    assertThrows(UnsupportedFeatureException.class, () -> decoder.readLongs(new long[2], 0, 2));
    assertThrows(
        UnsupportedFeatureException.class, () -> decoder.readBinaries(new BinaryBatch(), 1));
    assertThrows(
        CorruptDataException.class, () -> new PlainDecoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, 0));
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[8], 0, 8, -1));
    PlainEncoder encoder = new PlainEncoder(PhysicalType.INT32);
    assertThrows(UnsupportedOperationException.class, () -> encoder.writeLongs(new long[1], 0, 1));
    PlainEncoder flba = new PlainEncoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, 4);
    BinaryBatch three = new BinaryBatch();
    three.add(new byte[3]);
    assertThrows(IllegalArgumentException.class, () -> flba.writeBinaries(three, 0, 1));
  }

  // ---- parquet-java as the oracle ----

  @Test
  void identicalBytesToParquetJavaBothWays() throws IOException, ParquetException {
    Random random = new Random(34);
    for (int seed = 0; seed < 4; seed++) {
      for (PhysicalType type : PhysicalType.values()) {
        int length = TestValues.LENGTHS[random.nextInt(TestValues.LENGTHS.length)];
        // parquet-java writes floats through floatToIntBits, which makes NaN canonical.
        Column column = Column.random(type, length, random).canonicalNaN();
        ValuesWriter theirs = parquetJavaWriter(type);
        column.writeTo(theirs);
        byte[] theirBytes = ParquetJava.bytes(theirs);

        PlainEncoder encoder = new PlainEncoder(type, FLBA_LENGTH);
        column.write(encoder, random);
        byte[] ours = TestValues.flush(encoder);
        assertArrayEquals(theirBytes, ours, type + " bytes");

        PlainDecoder decoder = new PlainDecoder(type, FLBA_LENGTH);
        decoder.init(theirBytes, 0, theirBytes.length, length);
        column.assertSame(
            Column.read(decoder, type, length, random), type + " ours reading theirs");

        ValuesReader reader = parquetJavaReader(type);
        reader.initFromPage(length, ParquetJava.stream(ours));
        column.assertSame(Column.readFrom(reader, type, length), type + " theirs reading ours");
      }
    }
  }

  private static ValuesWriter parquetJavaWriter(PhysicalType type) {
    return switch (type) {
      case BOOLEAN -> new BooleanPlainValuesWriter();
      case FIXED_LEN_BYTE_ARRAY ->
          new FixedLenByteArrayPlainValuesWriter(
              FLBA_LENGTH, 64, ParquetJava.PAGE, ParquetJava.HEAP);
      case INT96 ->
          new FixedLenByteArrayPlainValuesWriter(12, 64, ParquetJava.PAGE, ParquetJava.HEAP);
      default -> new PlainValuesWriter(64, ParquetJava.PAGE, ParquetJava.HEAP);
    };
  }

  private static ValuesReader parquetJavaReader(PhysicalType type) {
    return switch (type) {
      case BOOLEAN -> new BooleanPlainValuesReader();
      case INT32 -> new PlainValuesReader.IntegerPlainValuesReader();
      case INT64 -> new PlainValuesReader.LongPlainValuesReader();
      case FLOAT -> new PlainValuesReader.FloatPlainValuesReader();
      case DOUBLE -> new PlainValuesReader.DoublePlainValuesReader();
      case BYTE_ARRAY -> new BinaryPlainValuesReader();
      case FIXED_LEN_BYTE_ARRAY -> new FixedLenByteArrayPlainValuesReader(FLBA_LENGTH);
      case INT96 -> new FixedLenByteArrayPlainValuesReader(12);
    };
  }

  /** One column's worth of values of any physical type, with the operations the tests need. */
  static final class Column {
    final PhysicalType type;
    boolean[] booleans;
    int[] ints;
    long[] longs;
    float[] floats;
    double[] doubles;
    BinaryBatch binaries;
    final int length;

    private Column(PhysicalType type, int length) {
      this.type = type;
      this.length = length;
    }

    static Column random(PhysicalType type, int length, Random random) {
      Column c = new Column(type, length);
      switch (type) {
        case BOOLEAN -> {
          c.booleans = new boolean[length];
          boolean runs = random.nextBoolean();
          for (int i = 0; i < length; i++) {
            c.booleans[i] = runs ? (i / 10) % 2 == 0 : random.nextBoolean();
          }
        }
        case INT32 -> {
          int[] edges = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
          c.ints = new int[length];
          for (int i = 0; i < length; i++) {
            c.ints[i] = i < edges.length ? edges[i] : random.nextInt();
          }
        }
        case INT64 -> {
          long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE};
          c.longs = new long[length];
          for (int i = 0; i < length; i++) {
            c.longs[i] = i < edges.length ? edges[i] : random.nextLong();
          }
        }
        case FLOAT -> {
          float[] edges = {
            0.0f,
            -0.0f,
            Float.NaN,
            Float.intBitsToFloat(0x7FC00005),
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE,
            Float.MAX_VALUE,
            -Float.MAX_VALUE
          };
          c.floats = new float[length];
          for (int i = 0; i < length; i++) {
            c.floats[i] = i < edges.length ? edges[i] : Float.intBitsToFloat(random.nextInt());
          }
        }
        case DOUBLE -> {
          double[] edges = {
            0.0,
            -0.0,
            Double.NaN,
            Double.longBitsToDouble(0x7FF8000000000005L),
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            Double.MAX_VALUE
          };
          c.doubles = new double[length];
          for (int i = 0; i < length; i++) {
            c.doubles[i] = i < edges.length ? edges[i] : Double.longBitsToDouble(random.nextLong());
          }
        }
        case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> {
          c.binaries = new BinaryBatch();
          for (int i = 0; i < length; i++) {
            int len =
                type == PhysicalType.INT96
                    ? 12
                    : type == PhysicalType.FIXED_LEN_BYTE_ARRAY
                        ? FLBA_LENGTH
                        : i == 0 ? 0 : random.nextInt(i % 50 == 0 ? 300 : 20);
            byte[] value = new byte[len];
            random.nextBytes(value);
            c.binaries.add(value);
          }
        }
      }
      return c;
    }

    Column canonicalNaN() {
      for (int i = 0; floats != null && i < length; i++) {
        floats[i] = Float.intBitsToFloat(Float.floatToIntBits(floats[i]));
      }
      for (int i = 0; doubles != null && i < length; i++) {
        doubles[i] = Double.longBitsToDouble(Double.doubleToLongBits(doubles[i]));
      }
      return this;
    }

    /** Every value replaced by the first one (no values stay no values). */
    Column allEqual() {
      Column c = slice(0, length);
      for (int i = 1; i < length; i++) {
        switch (type) {
          case BOOLEAN -> c.booleans[i] = booleans[0];
          case INT32 -> c.ints[i] = ints[0];
          case INT64 -> c.longs[i] = longs[0];
          case FLOAT -> c.floats[i] = floats[0];
          case DOUBLE -> c.doubles[i] = doubles[0];
          default -> {}
        }
      }
      if (binaries != null && length > 0) {
        c.binaries = new BinaryBatch();
        for (int i = 0; i < length; i++) {
          c.binaries.add(binaries.get(0));
        }
      }
      return c;
    }

    Column slice(int from, int to) {
      Column c = new Column(type, to - from);
      c.booleans = booleans == null ? null : Arrays.copyOfRange(booleans, from, to);
      c.ints = ints == null ? null : Arrays.copyOfRange(ints, from, to);
      c.longs = longs == null ? null : Arrays.copyOfRange(longs, from, to);
      c.floats = floats == null ? null : Arrays.copyOfRange(floats, from, to);
      c.doubles = doubles == null ? null : Arrays.copyOfRange(doubles, from, to);
      if (binaries != null) {
        c.binaries = new BinaryBatch();
        for (int i = from; i < to; i++) {
          c.binaries.add(binaries.get(i));
        }
      }
      return c;
    }

    /** Writes through the batch API in irregular batches. */
    void write(ValuesEncoder encoder, Random random) {
      for (int at = 0; at < length; ) {
        int n = TestValues.nextBatch(random, length - at);
        switch (type) {
          case BOOLEAN -> encoder.writeBooleans(booleans, at, n);
          case INT32 -> encoder.writeInts(ints, at, n);
          case INT64 -> encoder.writeLongs(longs, at, n);
          case FLOAT -> encoder.writeFloats(floats, at, n);
          case DOUBLE -> encoder.writeDoubles(doubles, at, n);
          default -> encoder.writeBinaries(binaries, at, n);
        }
        at += n;
      }
    }

    /** Reads {@code length} values through the batch API in irregular batches. */
    static Column read(ValuesDecoder decoder, PhysicalType type, int length, Random random)
        throws ParquetException {
      Column c = new Column(type, length);
      switch (type) {
        case BOOLEAN -> c.booleans = new boolean[length];
        case INT32 -> c.ints = new int[length];
        case INT64 -> c.longs = new long[length];
        case FLOAT -> c.floats = new float[length];
        case DOUBLE -> c.doubles = new double[length];
        default -> c.binaries = new BinaryBatch(1, 16);
      }
      for (int at = 0; at < length; ) {
        int n = TestValues.nextBatch(random, length - at);
        switch (type) {
          case BOOLEAN -> decoder.readBooleans(c.booleans, at, n);
          case INT32 -> decoder.readInts(c.ints, at, n);
          case INT64 -> decoder.readLongs(c.longs, at, n);
          case FLOAT -> decoder.readFloats(c.floats, at, n);
          case DOUBLE -> decoder.readDoubles(c.doubles, at, n);
          default -> decoder.readBinaries(c.binaries, n);
        }
        at += n;
      }
      return c;
    }

    void writeTo(ValuesWriter writer) {
      for (int i = 0; i < length; i++) {
        switch (type) {
          case BOOLEAN -> writer.writeBoolean(booleans[i]);
          case INT32 -> writer.writeInteger(ints[i]);
          case INT64 -> writer.writeLong(longs[i]);
          case FLOAT -> writer.writeFloat(floats[i]);
          case DOUBLE -> writer.writeDouble(doubles[i]);
          default -> writer.writeBytes(Binary.fromConstantByteArray(binaries.get(i)));
        }
      }
    }

    static Column readFrom(ValuesReader reader, PhysicalType type, int length) {
      Column c = new Column(type, length);
      switch (type) {
        case BOOLEAN -> c.booleans = new boolean[length];
        case INT32 -> c.ints = new int[length];
        case INT64 -> c.longs = new long[length];
        case FLOAT -> c.floats = new float[length];
        case DOUBLE -> c.doubles = new double[length];
        default -> c.binaries = new BinaryBatch();
      }
      for (int i = 0; i < length; i++) {
        switch (type) {
          case BOOLEAN -> c.booleans[i] = reader.readBoolean();
          case INT32 -> c.ints[i] = reader.readInteger();
          case INT64 -> c.longs[i] = reader.readLong();
          case FLOAT -> c.floats[i] = reader.readFloat();
          case DOUBLE -> c.doubles[i] = reader.readDouble();
          default -> c.binaries.add(reader.readBytes().getBytes());
        }
      }
      return c;
    }

    /** Bit-exact comparison (floats by raw bits). */
    void assertSame(Column other, String what) {
      assertEquals(length, other.length, what);
      switch (type) {
        case BOOLEAN -> assertArrayEquals(booleans, other.booleans, what);
        case INT32 -> assertArrayEquals(ints, other.ints, what);
        case INT64 -> assertArrayEquals(longs, other.longs, what);
        case FLOAT -> {
          for (int i = 0; i < length; i++) {
            assertEquals(
                Float.floatToRawIntBits(floats[i]),
                Float.floatToRawIntBits(other.floats[i]),
                what + " value " + i);
          }
        }
        case DOUBLE -> {
          for (int i = 0; i < length; i++) {
            assertEquals(
                Double.doubleToRawLongBits(doubles[i]),
                Double.doubleToRawLongBits(other.doubles[i]),
                what + " value " + i);
          }
        }
        default -> {
          assertEquals(binaries.count(), other.binaries.count(), what);
          for (int i = 0; i < length; i++) {
            assertArrayEquals(binaries.get(i), other.binaries.get(i), what + " value " + i);
          }
        }
      }
    }
  }

  @Test
  void byteArraysOfEveryShortLengthInBatchesAppendAndBadLengthsLeaveTheBatch() throws Exception {
    // Lengths 0..100 around the word-copy bounds (32, 64), read in batches of 1..17 into a
    // batch that already holds a value; the page sits at an offset inside a larger array.
    Random random = new Random(3);
    GrowableBuffer page = new GrowableBuffer();
    page.write(new byte[7]);
    java.util.List<byte[]> values = new java.util.ArrayList<>();
    for (int length = 0; length <= 100; length++) {
      byte[] v = new byte[length];
      random.nextBytes(v);
      values.add(v);
      page.writeIntLE(length);
      page.write(v);
    }
    int n = values.size();
    byte[] bytes = page.toByteArray();
    PlainDecoder decoder = new PlainDecoder(PhysicalType.BYTE_ARRAY);
    decoder.init(bytes, 7, bytes.length - 7, n);
    BinaryBatch batch = new BinaryBatch(1, 16);
    batch.add(new byte[] {42});
    for (int done = 0, size = 1; done < n; done += size, size = size % 17 + 1) {
      size = Math.min(size, n - done);
      decoder.readBinaries(batch, size);
    }
    assertEquals(n + 1, batch.count());
    assertArrayEquals(new byte[] {42}, batch.get(0));
    for (int i = 0; i < n; i++) {
      assertArrayEquals(values.get(i), batch.get(i + 1), "value " + i);
    }

    // A length running past the page, in the middle of a batch: nothing of the batch is taken.
    byte[] bad = Arrays.copyOf(bytes, bytes.length);
    LittleEndian.putInt(bad, 7 + 4 + 0 + 4 + 1, 1 << 20); // the third value's length
    decoder.init(bad, 7, bad.length - 7, n);
    BinaryBatch untouched = new BinaryBatch();
    untouched.add(new byte[] {1, 2});
    assertThrows(CorruptDataException.class, () -> decoder.readBinaries(untouched, 5));
    assertEquals(1, untouched.count());
    assertArrayEquals(new byte[] {1, 2}, untouched.get(0));
  }
}
