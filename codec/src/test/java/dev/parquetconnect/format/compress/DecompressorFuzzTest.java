package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random and mutated compressed pages into every decompressor, from fixed seeds, for {@code
 * fuzz.millis} ms each: only {@link CorruptDataException} and {@link UnsupportedFeatureException}
 * may come out; any other throwable, or a JVM crash in a native library, fails the build, and a
 * hang trips the timeout.
 */
class DecompressorFuzzTest {
  private static final int MAX_SIZE = 1 << 20;

  /** Bytes that make random input look like the start of a real stream of some codec. */
  private static final byte[][] MAGIC_PREFIXES = {
    {0x1f, (byte) 0x8b, 8, 0}, // gzip member
    {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, // zstd frame
    {0x50, 0x2a, 0x4d, 0x18}, // zstd skippable frame
    {0, 0, 0, 100, 0, 0, 0, 20}, // Hadoop LZ4 block header
    {(byte) 0x80, 0x08}, // snappy length prefix of 1024
    {0x0b}, // brotli: window 22, uncompressed meta-block follows
  };

  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void onlyCheckedFormatErrorsComeOut(CompressionCodec codec) throws Exception {
    long millis = Long.getLong("fuzz.millis", 1500);
    Random random = new Random(0xC0DEC + codec.ordinal());
    List<byte[]> pages = new ArrayList<>();
    List<byte[]> compressed = validInputs(codec, random, pages);
    byte[] dst = new byte[MAX_SIZE + 16];
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    int runs = 0;
    int rejected = 0;
    try (Decompressor decompressor = Codecs.decompressor(codec)) {
      while (runs < 50 || System.nanoTime() < deadline) {
        int pick = random.nextInt(compressed.size());
        byte[] input;
        int trueSize;
        if (random.nextInt(10) < 3) {
          input = randomInput(random);
          trueSize = random.nextInt(4096);
        } else {
          input = mutate(compressed.get(pick), random);
          trueSize = pages.get(pick).length;
        }
        int size = announcedSize(random, trueSize);
        int dstOff = random.nextInt(16);
        runs++;
        try {
          decompressor.decompress(input, 0, input.length, dst, dstOff, size);
        } catch (CorruptDataException | UnsupportedFeatureException expected) {
          rejected++;
        } catch (Throwable t) {
          fail(
              codec
                  + " run "
                  + runs
                  + ": "
                  + t
                  + " for "
                  + input.length
                  + " bytes announcing "
                  + size
                  + ": "
                  + HexFormat.of().formatHex(input, 0, Math.min(64, input.length)),
              t);
        }
      }
    }
    assertTrue(rejected > 0, codec + ": no input was rejected in " + runs + " runs");
  }

  /** Compressed forms of varied pages: ours and, where they differ, other writers' framings. */
  private static List<byte[]> validInputs(CompressionCodec codec, Random random, List<byte[]> pages)
      throws Exception {
    List<byte[]> compressed = new ArrayList<>();
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL)) {
      for (int size : new int[] {0, 1, 17, 300, 5000, 70_000, 200_000}) {
        for (byte[] page :
            new byte[][] {
              TestInputs.compressible(random.nextLong(), size),
              TestInputs.random(random.nextLong(), size)
            }) {
          GrowableBuffer out = new GrowableBuffer();
          compressor.compress(page, 0, page.length, out);
          compressed.add(out.toByteArray());
          pages.add(page);
          if (codec == CompressionCodec.LZ4) { // the bare-block form older writers used
            try (Compressor raw = Codecs.compressor(CompressionCodec.LZ4_RAW, 0)) {
              out.reset();
              raw.compress(page, 0, page.length, out);
              compressed.add(out.toByteArray());
              pages.add(page);
            }
          }
          if (codec == CompressionCodec.GZIP || codec == CompressionCodec.ZSTD) {
            out.reset();
            compressor.compress(page, 0, page.length, out); // two members or frames
            compressor.compress(page, 0, page.length, out);
            compressed.add(out.toByteArray());
            byte[] twice = Arrays.copyOf(page, 2 * page.length);
            System.arraycopy(page, 0, twice, page.length, page.length);
            pages.add(twice);
          }
        }
      }
    }
    return compressed;
  }

  private static byte[] randomInput(Random random) {
    byte[] input = new byte[random.nextInt(600)];
    random.nextBytes(input);
    if (random.nextBoolean()) {
      byte[] prefix = MAGIC_PREFIXES[random.nextInt(MAGIC_PREFIXES.length)];
      System.arraycopy(prefix, 0, input, 0, Math.min(prefix.length, input.length));
    }
    return input;
  }

  private static byte[] mutate(byte[] valid, Random random) {
    byte[] b = valid.clone();
    int mutations = 1 + random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      int kind = random.nextInt(7);
      if (b.length == 0) {
        kind = 4;
      }
      switch (kind) {
        case 0 -> { // flip one bit, most often near the start where the headers are
          int pos =
              random.nextBoolean()
                  ? random.nextInt(Math.min(b.length, 24))
                  : random.nextInt(b.length);
          b[pos] ^= (byte) (1 << random.nextInt(8));
        }
        case 1 -> b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        case 2 -> b = Arrays.copyOf(b, random.nextInt(b.length)); // truncate
        case 3 -> { // overwrite a 4-byte field with an interesting value
          if (b.length >= 4) {
            int pos = random.nextInt(b.length - 3);
            int[] values = {
              0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, b.length, b.length + 1, 1 << 20
            };
            Lz4HadoopCompressor.putIntBE(b, pos, values[random.nextInt(values.length)]);
          }
        }
        case 4 -> { // append bytes
          byte[] extra = new byte[1 + random.nextInt(16)];
          random.nextBytes(extra);
          int old = b.length;
          b = Arrays.copyOf(b, old + extra.length);
          System.arraycopy(extra, 0, b, old, extra.length);
        }
        case 5 -> { // copy a range over another, as a stray match would
          int len = 1 + random.nextInt(Math.min(b.length, 32));
          int from = random.nextInt(b.length - len + 1);
          int to = random.nextInt(b.length - len + 1);
          System.arraycopy(b, from, b, to, len);
        }
        default -> { // zero a range
          int len = 1 + random.nextInt(Math.min(b.length, 32));
          int from = random.nextInt(b.length - len + 1);
          Arrays.fill(b, from, from + len, (byte) 0);
        }
      }
    }
    return b;
  }

  private static int announcedSize(Random random, int trueSize) {
    int choice = random.nextInt(20);
    int size;
    if (choice < 12) {
      size = trueSize;
    } else if (choice < 16) {
      size = trueSize + random.nextInt(5) - 2;
    } else if (choice < 19) {
      size = random.nextInt(MAX_SIZE);
    } else {
      size = 0;
    }
    return Math.max(0, Math.min(MAX_SIZE, size));
  }
}
