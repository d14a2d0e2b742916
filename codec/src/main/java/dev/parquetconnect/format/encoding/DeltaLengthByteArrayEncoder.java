package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Encodes BYTE_ARRAY values as DELTA_LENGTH_BYTE_ARRAY (encoding 6): all lengths as one
 * DELTA_BINARY_PACKED INT32 section, then all value bytes back to back.
 *
 * <p>Also the suffix half of DELTA_BYTE_ARRAY, which feeds it through the package-private {@link
 * #writeLengths} and {@link #appendBytes}.
 */
final class DeltaLengthByteArrayEncoder implements ValuesEncoder {
  private static final int CHUNK = 256;

  private final DeltaBinaryPackedEncoder lengths;
  private final GrowableBuffer bytes = new GrowableBuffer();
  private final int[] lengthChunk = new int[CHUNK];

  public DeltaLengthByteArrayEncoder() {
    this(new DeltaBinaryPackedEncoder(PhysicalType.INT32));
  }

  /** Lengths encoded with the given block configuration (see {@link DeltaBinaryPackedEncoder}). */
  public DeltaLengthByteArrayEncoder(int blockSize, int miniblocks) {
    this(new DeltaBinaryPackedEncoder(PhysicalType.INT32, blockSize, miniblocks));
  }

  private DeltaLengthByteArrayEncoder(DeltaBinaryPackedEncoder lengths) {
    this.lengths = lengths;
  }

  @Override
  public Encoding encoding() {
    return Encoding.DELTA_LENGTH_BYTE_ARRAY;
  }

  @Override
  public void writeBinaries(BinaryBatch src, int from, int len) {
    Decoders.checkRange(src.count(), from, len);
    int[] offsets = src.offsets();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      int base = from + done;
      for (int k = 0; k < n; k++) {
        lengthChunk[k] = offsets[base + k + 1] - offsets[base + k];
      }
      lengths.writeInts(lengthChunk, 0, n);
      done += n;
    }
    // The values sit back to back in the batch, exactly as this encoding stores them.
    int start = offsets[from];
    bytes.write(src.data(), start, offsets[from + len] - start);
  }

  /** Appends {@code n} lengths whose bytes the caller appends with {@link #appendBytes}. */
  void writeLengths(int[] src, int off, int n) {
    lengths.writeInts(src, off, n);
  }

  void appendBytes(byte[] src, int off, int len) {
    bytes.write(src, off, len);
  }

  @Override
  public int valueCount() {
    return lengths.valueCount();
  }

  @Override
  public long estimatedSize() {
    return lengths.estimatedSize() + bytes.size();
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    lengths.flushTo(out);
    out.write(bytes);
    bytes.reset();
  }

  @Override
  public void reset() {
    lengths.reset();
    bytes.reset();
  }
}
