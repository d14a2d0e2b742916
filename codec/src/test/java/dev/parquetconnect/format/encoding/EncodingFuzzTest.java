package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.encoding.PlainCodecTest.Column;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Feeds every decoder of this package random bytes and mutated valid pages for a fixed time ({@code
 * -Dfuzz.millis}, default 1500 ms per decoder) with fixed seeds. The only acceptable failures are
 * the checked {@link CorruptDataException} and {@link UnsupportedFeatureException}; anything else
 * (an unchecked exception, an error) fails the test with the input that caused it. A hang is caught
 * by {@link Timeout}.
 */
@Timeout(60)
class EncodingFuzzTest {
  private static final long BUDGET_MILLIS = Long.getLong("fuzz.millis", 1500);
  private static final int MAX_BATCH = 3000;

  /** One fuzz iteration; records its input in {@code last} before decoding it. */
  private interface Iteration {
    void run(Random random, Input last) throws ParquetException;
  }

  /** The input of the current iteration, for the failure message. */
  private static final class Input {
    String description = "";
    byte[] bytes = new byte[0];

    void set(String description, byte[] bytes) {
      this.description = description;
      this.bytes = bytes;
    }
  }

  @Test
  void plainDecoder() {
    fuzz(
        "PLAIN",
        101,
        (random, last) -> {
          PhysicalType type = PhysicalType.values()[random.nextInt(PhysicalType.values().length)];
          int typeLength = random.nextInt(8) == 0 ? random.nextInt(3) - 1 : 1 + random.nextInt(16);
          Column column = Column.random(type, random.nextInt(200), random);
          byte[] bytes;
          if (random.nextInt(4) == 0) {
            bytes = randomBytes(random);
          } else {
            PlainEncoder encoder =
                new PlainEncoder(type, type == PhysicalType.FIXED_LEN_BYTE_ARRAY ? 5 : typeLength);
            column.write(encoder, random);
            bytes = mutate(TestValues.flush(encoder), random);
          }
          int count = count(random, column.length);
          last.set(type + " typeLength " + typeLength + " count " + count, bytes);
          PlainDecoder decoder = new PlainDecoder(type, typeLength);
          int off = random.nextInt(4);
          decoder.init(
              TestValues.embed(bytes, off, random.nextInt(4), random), off, bytes.length, count);
          readRandomly(decoder, random, random.nextInt(10) == 0 ? randomType(random) : type);
        });
  }

  @Test
  void rleBitPackedHybridDecoder() {
    fuzz(
        "RLE",
        102,
        (random, last) -> {
          int width = random.nextInt(33);
          boolean prefixed = random.nextBoolean();
          int length = random.nextInt(2000);
          byte[] bytes;
          if (random.nextInt(4) == 0) {
            bytes = randomBytes(random);
          } else {
            RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, prefixed);
            encoder.writeInts(
                TestValues.ints(random, length, width, random.nextInt(TestValues.SHAPES)),
                0,
                length);
            bytes = mutate(TestValues.flush(encoder), random);
          }
          int count = count(random, length);
          last.set("width " + width + " prefixed " + prefixed + " count " + count, bytes);
          RleBitPackedHybridDecoder decoder =
              new RleBitPackedHybridDecoder(random.nextInt(33), prefixed);
          int off = random.nextInt(4);
          byte[] page = TestValues.embed(bytes, off, random.nextInt(4), random);
          if (random.nextInt(10) == 0) {
            decoder.init(page, off, bytes.length, count, random.nextInt(40) - 2);
          } else {
            decoder.init(page, off, bytes.length, count, width);
          }
          readRandomly(
              decoder, random, random.nextInt(5) == 0 ? PhysicalType.BOOLEAN : PhysicalType.INT32);
        });
  }

  @Test
  void bitPackedLevelsDecoder() {
    fuzz(
        "BIT_PACKED",
        103,
        (random, last) -> {
          int width = random.nextInt(33);
          int length = random.nextInt(2000);
          byte[] bytes;
          if (random.nextInt(4) == 0) {
            bytes = randomBytes(random);
          } else {
            BitPackedLevelsEncoder encoder = new BitPackedLevelsEncoder(width);
            encoder.writeInts(
                TestValues.ints(random, length, width, random.nextInt(TestValues.SHAPES)),
                0,
                length);
            bytes = mutate(TestValues.flush(encoder), random);
          }
          int count = count(random, length);
          last.set("width " + width + " count " + count, bytes);
          BitPackedLevelsDecoder decoder = new BitPackedLevelsDecoder(width);
          decoder.init(
              bytes,
              0,
              bytes.length,
              count,
              random.nextInt(8) == 0 ? random.nextInt(40) - 2 : width);
          readRandomly(decoder, random, PhysicalType.INT32);
        });
  }

  @Test
  void levelsDecoder() {
    fuzz(
        "levels",
        104,
        (random, last) -> {
          int maxLevel =
              random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 4 : 1000);
          int length = random.nextInt(2000);
          int[] levels =
              TestValues.ints(
                  random, length, BitPacking.bitWidth(maxLevel), random.nextInt(TestValues.SHAPES));
          for (int i = 0; i < length; i++) {
            levels[i] = Math.min(levels[i], maxLevel);
          }
          int version = random.nextInt(3); // 0: v1 RLE, 1: v1 BIT_PACKED, 2: v2
          LevelsEncoder encoder =
              switch (version) {
                case 0 -> LevelsEncoder.v1(maxLevel);
                case 1 -> LevelsEncoder.v1BitPacked(maxLevel);
                default -> LevelsEncoder.v2(maxLevel);
              };
          encoder.write(levels, 0, length);
          GrowableBuffer out = new GrowableBuffer();
          encoder.flushTo(out);
          byte[] bytes =
              random.nextInt(4) == 0 ? randomBytes(random) : mutate(out.toByteArray(), random);
          int count = count(random, length);
          last.set("version " + version + " max level " + maxLevel + " count " + count, bytes);
          LevelsDecoder decoder = new LevelsDecoder();
          if (version == 2) {
            decoder.initV2(maxLevel, bytes, 0, bytes.length, count);
          } else {
            Encoding encoding =
                random.nextInt(20) == 0
                    ? Encoding.PLAIN
                    : version == 0 ? Encoding.RLE : Encoding.BIT_PACKED;
            int used = decoder.initV1(encoding, maxLevel, bytes, 0, bytes.length, count);
            assertTrue(used >= 0 && used <= bytes.length, "levels claim " + used + " bytes");
          }
          int[] dst = new int[MAX_BATCH];
          for (int op = 0; op < 20; op++) {
            int n = random.nextInt(random.nextBoolean() ? 20 : MAX_BATCH);
            if (random.nextInt(4) == 0) {
              decoder.skip(n);
            } else {
              decoder.read(dst, 0, n);
            }
          }
        });
  }

  @Test
  void dictionaryPageAndDictionaryDecoder() {
    fuzz(
        "dictionary",
        105,
        (random, last) -> {
          PhysicalType type = randomType(random);
          int typeLength = 5;
          Column entries = Column.random(type, random.nextInt(300), random);
          PlainEncoder plain = new PlainEncoder(type, typeLength);
          entries.write(plain, random);
          byte[] dictBytes =
              random.nextInt(6) == 0
                  ? randomBytes(random)
                  : mutate(TestValues.flush(plain), random);
          int dictCount = random.nextInt(8) == 0 ? random.nextInt() : count(random, entries.length);
          last.set(type + " dictionary page, count " + dictCount, dictBytes);
          Dictionary dictionary =
              Dictionary.decode(type, typeLength, dictBytes, 0, dictBytes.length, dictCount);

          int length = random.nextInt(2000);
          int[] indices = new int[length];
          for (int i = 0; i < length; i++) {
            indices[i] =
                dictionary.size() == 0 ? random.nextInt(3) : random.nextInt(dictionary.size() + 1);
          }
          DictionaryIndicesEncoder encoder = new DictionaryIndicesEncoder(Encoding.RLE_DICTIONARY);
          encoder.writeInts(indices, 0, length);
          byte[] bytes =
              random.nextInt(4) == 0
                  ? randomBytes(random)
                  : mutate(TestValues.flush(encoder), random);
          int count = count(random, length);
          last.set(
              type + " dictionary of " + dictionary.size() + ", indices count " + count, bytes);
          DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
          decoder.init(bytes, 0, bytes.length, count);
          if (random.nextInt(3) == 0) {
            readIndicesRandomly(decoder, random);
          } else {
            readRandomly(decoder, random, random.nextInt(10) == 0 ? randomType(random) : type);
          }
        });
  }

  /**
   * The late-materialisation path: indices into arrays or dictionary-encoded batches, whose values
   * are then touched and materialised. Every index handed out must be in range.
   */
  private static void readIndicesRandomly(DictionaryDecoder decoder, Random random)
      throws ParquetException {
    int size = decoder.dictionary().size();
    DictionaryBinaryBatch batch = new DictionaryBinaryBatch(random.nextInt(64));
    BinaryBatch plain = new BinaryBatch(4, 16);
    for (int op = 0; op < 20; op++) {
      int n = random.nextInt(random.nextBoolean() ? 16 : MAX_BATCH);
      if (random.nextInt(5) == 0) {
        decoder.skip(n);
      } else if (decoder.dictionary().isBinary() && random.nextBoolean()) {
        if (random.nextBoolean()) {
          batch.clear();
        }
        int before = batch.count();
        decoder.readIndices(batch, n);
        long sum = 0;
        for (int i = before; i < batch.count(); i++) {
          assertTrue(batch.index(i) >= 0 && batch.index(i) < size, "index " + batch.index(i));
          sum += batch.offset(i) + batch.length(i) + batch.valueHash(i) + batch.string(i).length();
          sum += batch.valueEquals(i, before) ? 1 : 0;
        }
        if (random.nextBoolean()) {
          plain.clear();
          batch.materialize(plain);
          assertTrue(plain.count() == batch.count() && sum != Long.MIN_VALUE);
        }
      } else {
        int[] indices = new int[n + 2];
        decoder.readIndices(indices, 1, n);
        for (int i = 1; i <= n; i++) {
          assertTrue(indices[i] >= 0 && indices[i] < size, "index " + indices[i]);
        }
      }
    }
  }

  // ---- harness ----

  private static void fuzz(String name, long seed, Iteration iteration) {
    Random random = new Random(seed);
    Input last = new Input();
    long deadline = System.nanoTime() + BUDGET_MILLIS * 1_000_000L;
    long iterations = 0;
    do {
      try {
        iteration.run(random, last);
      } catch (CorruptDataException | UnsupportedFeatureException expected) {
        // The decoder noticed the damage (or a read past the end): what it must do.
      } catch (Throwable t) {
        fail(
            name
                + " fuzz iteration "
                + iterations
                + " ("
                + last.description
                + ") threw "
                + t
                + " for input "
                + hex(last.bytes),
            t);
      }
      iterations++;
    } while (System.nanoTime() < deadline);
    assertTrue(iterations > 0, name + ": no fuzz iteration ran");
  }

  private static String hex(byte[] bytes) {
    int shown = Math.min(bytes.length, 200);
    return HexFormat.of().formatHex(bytes, 0, shown)
        + (shown < bytes.length ? "... (" + bytes.length + " bytes)" : "");
  }

  /** Reads batches of random sizes (sometimes past the end, sometimes skips) as {@code as}. */
  private static void readRandomly(ValuesDecoder decoder, Random random, PhysicalType as)
      throws ParquetException {
    BinaryBatch binaries = new BinaryBatch(16, 64);
    for (int op = 0; op < 20; op++) {
      int n = random.nextInt(random.nextBoolean() ? 16 : MAX_BATCH);
      if (random.nextInt(5) == 0) {
        decoder.skip(n);
        continue;
      }
      switch (as) {
        case BOOLEAN -> decoder.readBooleans(new boolean[n + 2], 1, n);
        case INT32 -> decoder.readInts(new int[n + 2], 1, n);
        case INT64 -> decoder.readLongs(new long[n], 0, n);
        case FLOAT -> decoder.readFloats(new float[n], 0, n);
        case DOUBLE -> decoder.readDoubles(new double[n], 0, n);
        default -> {
          binaries.clear();
          decoder.readBinaries(binaries, n);
        }
      }
    }
  }

  private static PhysicalType randomType(Random random) {
    PhysicalType[] types = PhysicalType.values();
    return types[random.nextInt(types.length)];
  }

  /** The true count mostly; sometimes more, fewer, zero, negative or huge. */
  private static int count(Random random, int actual) {
    return switch (random.nextInt(10)) {
      case 0 -> actual + 1 + random.nextInt(100);
      case 1 -> Math.max(0, actual - 1 - random.nextInt(10));
      case 2 -> random.nextBoolean() ? Integer.MAX_VALUE : -1 - random.nextInt(5);
      case 3 -> 0;
      default -> actual;
    };
  }

  private static byte[] randomBytes(Random random) {
    byte[] bytes = new byte[random.nextInt(random.nextBoolean() ? 16 : 600)];
    random.nextBytes(bytes);
    return bytes;
  }

  private static final int[] INTERESTING_BYTES = {0x00, 0xFF, 0x80, 0x7F, 0x01, 0x21, 0x20, 0x03};
  private static final int[] INTERESTING_INTS = {
    0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFFFFF0, 1 << 24, 65536, 255
  };

  /** One to four mutations: bit flips, interesting bytes and words, truncation, insertion. */
  static byte[] mutate(byte[] valid, Random random) {
    byte[] b = valid;
    int mutations = 1 + random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      int kind = random.nextInt(7);
      if (b.length == 0 && kind < 3) {
        kind = 5;
      }
      switch (kind) {
        case 0 -> {
          b = b.clone();
          int bit = random.nextInt(b.length * 8);
          b[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
        case 1 -> {
          b = b.clone();
          b[random.nextInt(b.length)] =
              (byte) INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
        }
        case 2 -> {
          b = b.clone();
          int at = random.nextInt(b.length);
          int value = INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
          for (int k = 0; k < 4 && at + k < b.length; k++) {
            b[at + k] = (byte) (value >>> (8 * k));
          }
        }
        case 3 -> b = java.util.Arrays.copyOf(b, random.nextInt(b.length + 1));
        case 4 -> b = java.util.Arrays.copyOf(b, Math.max(0, b.length - 1 - random.nextInt(8)));
        default -> {
          int at = random.nextInt(b.length + 1);
          byte[] grown = new byte[b.length + 1 + random.nextInt(4)];
          System.arraycopy(b, 0, grown, 0, at);
          for (int k = at; k < at + grown.length - b.length; k++) {
            grown[k] = (byte) random.nextInt(256);
          }
          System.arraycopy(b, at, grown, at + grown.length - b.length, b.length - at);
          b = grown;
        }
      }
    }
    return b;
  }
}
