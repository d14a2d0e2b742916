package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.LittleEndian;

/**
 * A split-block bloom filter read from a file (BloomFilter.md of the Parquet format): blocks of
 * eight 32-bit little-endian words; the upper half of a value's XXH64 picks the block, its lower
 * half times each word's salt one bit in each word.
 */
public final class BloomFilter {
  private static final int BLOCK_BYTES = 32;

  private static final int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  private final int[] words;
  private final int blocks;

  private BloomFilter(int[] words) {
    this.words = words;
    this.blocks = words.length / 8;
  }

  /** The filter whose bitset is {@code bytes[off, off + length)}: whole 32-byte blocks. */
  public static BloomFilter ofBitset(byte[] bytes, int off, int length)
      throws CorruptDataException {
    if (length < BLOCK_BYTES || length % BLOCK_BYTES != 0 || length > bytes.length - off) {
      throw new CorruptDataException(
          "a bloom filter bitset of " + length + " bytes (a positive multiple of 32 is required)");
    }
    int[] words = new int[length / 4];
    for (int i = 0; i < words.length; i++) {
      words[i] = LittleEndian.getInt(bytes, off + 4 * i);
    }
    return new BloomFilter(words);
  }

  /** False when no value with this XXH64 {@code hash} was inserted. */
  public boolean mightContain(long hash) {
    int base = (int) (((hash >>> 32) * blocks) >>> 32) << 3;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((words[base + i] & (1 << ((key * SALT[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }

  public int sizeInBytes() {
    return words.length * 4;
  }
}
