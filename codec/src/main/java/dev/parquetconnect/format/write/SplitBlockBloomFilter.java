package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.BloomFilterHeader;
import dev.parquetconnect.format.meta.MetadataCodec;
import java.util.Arrays;

/**
 * Parquet's split-block bloom filter (BloomFilter.md): blocks of eight 32-bit words; a 64-bit hash
 * picks a block with its upper half and sets one bit per word from its lower half times that word's
 * salt. Serialized as the words in order, little-endian.
 */
final class SplitBlockBloomFilter {
  /** One block: 256 bits. */
  public static final int BLOCK_BYTES = 32;

  /** The largest filter written; parquet-java reads no larger one. */
  public static final int MAX_BYTES = 128 << 20;

  private static final int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  private final int[] words;
  private final int blocks;

  /** An empty filter of {@code numBytes} bytes, a positive multiple of 32. */
  public SplitBlockBloomFilter(int numBytes) {
    if (numBytes < BLOCK_BYTES || numBytes % BLOCK_BYTES != 0 || numBytes > MAX_BYTES) {
      throw new IllegalArgumentException(
          "bloom filter size must be a multiple of 32 bytes in 32.." + MAX_BYTES + ": " + numBytes);
    }
    this.blocks = numBytes / BLOCK_BYTES;
    this.words = new int[blocks * 8];
  }

  /** A filter read back from its bitset {@code bytes[off, off + numBytes)}. */
  public static SplitBlockBloomFilter fromBitset(byte[] bytes, int off, int numBytes) {
    SplitBlockBloomFilter filter = new SplitBlockBloomFilter(numBytes);
    for (int i = 0; i < filter.words.length; i++) {
      filter.words[i] = LittleEndian.getInt(bytes, off + 4 * i);
    }
    return filter;
  }

  /**
   * The size for {@code distinctValues} inserts at false positive probability {@code fpp}: the bits
   * the split-block scheme needs (each insert sets 8 bits, one per word), rounded up to a power of
   * two bytes, at least one block and at most {@link #MAX_BYTES}.
   */
  public static int optimalNumBytes(long distinctValues, double fpp) {
    if (distinctValues <= 0 || !(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException(
          "bloom filter for " + distinctValues + " values at fpp " + fpp);
    }
    // fpp = (1 - exp(-8 n / m))^8  =>  m = -8 n / ln(1 - fpp^(1/8))
    double bits = -8.0 * distinctValues / Math.log(1 - Math.pow(fpp, 1.0 / 8));
    double bytes = Math.ceil(bits / 8);
    if (!(bytes < MAX_BYTES)) {
      return MAX_BYTES;
    }
    int size = Math.max(BLOCK_BYTES, (int) bytes);
    int power = Integer.highestOneBit(size);
    return power == size ? size : Math.min(MAX_BYTES, power << 1);
  }

  public int numBytes() {
    return blocks * BLOCK_BYTES;
  }

  public void insert(long hash) {
    int base = blockIndex(hash) << 3;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      words[base + i] |= 1 << ((key * SALT[i]) >>> 27);
    }
  }

  /** False when {@code hash} was certainly never inserted. */
  public boolean mightContain(long hash) {
    int base = blockIndex(hash) << 3;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((words[base + i] & (1 << ((key * SALT[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }

  private int blockIndex(long hash) {
    return (int) (((hash >>> 32) * blocks) >>> 32);
  }

  /** Appends the bitset, word by word, little-endian. */
  public void writeTo(GrowableBuffer out) {
    int bytes = numBytes();
    out.ensureCapacity(bytes);
    byte[] dst = out.array();
    int pos = out.size();
    for (int i = 0; i < words.length; i++) {
      LittleEndian.putInt(dst, pos + 4 * i, words[i]);
    }
    out.advance(bytes);
  }

  /** Appends the filter as a file stores it: its BloomFilterHeader, then the bitset. */
  public void writeWithHeader(GrowableBuffer out) {
    MetadataCodec.write(
        new BloomFilterHeader(
            numBytes(),
            BloomFilterHeader.Algorithm.BLOCK,
            BloomFilterHeader.Hash.XXHASH,
            BloomFilterHeader.Compression.UNCOMPRESSED),
        out);
    writeTo(out);
  }

  /** Forgets every insert. */
  public void clear() {
    Arrays.fill(words, 0);
  }
}
