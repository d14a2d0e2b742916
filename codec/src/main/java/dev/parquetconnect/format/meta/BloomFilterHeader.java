package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift struct {@code BloomFilterHeader}, which precedes a column chunk's bloom filter bitset. Its
 * three unions have one member each today, so they are enums here; {@code UNRECOGNIZED} stands for
 * a member a newer writer defined, which a reader must treat as "no usable filter".
 */
public record BloomFilterHeader(
    int numBytes, Algorithm algorithm, Hash hash, Compression compression) {

  /** Thrift union {@code BloomFilterAlgorithm}. */
  public enum Algorithm {
    /** {@code BLOCK} (1): the split block bloom filter. */
    BLOCK(1),
    UNRECOGNIZED(-1);

    private final int fieldId;

    Algorithm(int fieldId) {
      this.fieldId = fieldId;
    }

    public int fieldId() {
      return fieldId;
    }
  }

  /** Thrift union {@code BloomFilterHash}. */
  public enum Hash {
    /** {@code XXHASH} (1): xxHash64 with seed 0. */
    XXHASH(1),
    UNRECOGNIZED(-1);

    private final int fieldId;

    Hash(int fieldId) {
      this.fieldId = fieldId;
    }

    public int fieldId() {
      return fieldId;
    }
  }

  /** Thrift union {@code BloomFilterCompression}. */
  public enum Compression {
    /** {@code UNCOMPRESSED} (1). */
    UNCOMPRESSED(1),
    UNRECOGNIZED(-1);

    private final int fieldId;

    Compression(int fieldId) {
      this.fieldId = fieldId;
    }

    public int fieldId() {
      return fieldId;
    }
  }

  public BloomFilterHeader {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(compression, "compression");
  }

  /** Whether this header describes a filter this codec can use (all three members known). */
  public boolean isSupported() {
    return algorithm != Algorithm.UNRECOGNIZED
        && hash != Hash.UNRECOGNIZED
        && compression != Compression.UNRECOGNIZED;
  }
}
