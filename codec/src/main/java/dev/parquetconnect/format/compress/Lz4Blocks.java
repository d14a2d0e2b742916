package dev.parquetconnect.format.compress;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The LZ4 block format through lz4-java, shared by LZ4_RAW and the deprecated Hadoop-framed LZ4.
 * Decoding always uses the safe decompressor, which checks every literal and match against both
 * buffers; the "fast" one trusts the input and must never see a file's bytes.
 */
final class Lz4Blocks {
  private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
  static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
  static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

  private Lz4Blocks() {}

  /** LZ4's LZ4_COMPRESSBOUND: incompressible input grows by one byte in 255, plus 16. */
  static long maxBlockLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    return (long) len + len / 255 + 16;
  }
}
