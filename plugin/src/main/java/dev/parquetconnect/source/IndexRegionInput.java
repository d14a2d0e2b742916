package dev.parquetconnect.source;

import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.RowGroup;
import java.io.IOException;

/**
 * A file's input that fetches its index region (bloom filters, column and offset indexes, which
 * writers put together between the last data page and the footer) in one ranged read the first time
 * anything in it is read, and serves later reads there from memory. A filtered replay asks for a
 * bloom filter and page indexes per row group: on an object store each would otherwise be a request
 * of its own. Regions larger than {@link #MAX_REGION} are read piecewise as before.
 */
final class IndexRegionInput implements SeekableInput {
  /** The largest region fetched at once. */
  static final int MAX_REGION = 1 << 20;

  private final SeekableInput in;
  private long regionStart = -1;
  private long regionEnd = -1;
  private byte[] region;

  IndexRegionInput(SeekableInput in) {
    this.in = in;
  }

  /** Learns the index region from the footer; reads before this go straight through. */
  void locate(FileMetaData metadata) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (RowGroup g : metadata.rowGroups()) {
      for (ColumnChunk c : g.columns()) {
        if (c.columnIndexOffset() != null && c.columnIndexLength() != null) {
          start = Math.min(start, c.columnIndexOffset());
          end = Math.max(end, c.columnIndexOffset() + c.columnIndexLength());
        }
        if (c.offsetIndexOffset() != null && c.offsetIndexLength() != null) {
          start = Math.min(start, c.offsetIndexOffset());
          end = Math.max(end, c.offsetIndexOffset() + c.offsetIndexLength());
        }
        if (c.metaData() != null
            && c.metaData().bloomFilterOffset() != null
            && c.metaData().bloomFilterLength() != null) {
          start = Math.min(start, c.metaData().bloomFilterOffset());
          end = Math.max(end, c.metaData().bloomFilterOffset() + c.metaData().bloomFilterLength());
        }
      }
    }
    if (start >= 0 && end > start && end - start <= MAX_REGION) {
      regionStart = start;
      regionEnd = end;
    }
  }

  @Override
  public long length() throws IOException {
    return in.length();
  }

  @Override
  public void readFully(long position, byte[] dst, int off, int len) throws IOException {
    if (regionStart >= 0 && position >= regionStart && position + len <= regionEnd) {
      if (region == null) {
        byte[] bytes = new byte[(int) (regionEnd - regionStart)];
        in.readFully(regionStart, bytes, 0, bytes.length);
        region = bytes;
      }
      System.arraycopy(region, (int) (position - regionStart), dst, off, len);
      return;
    }
    in.readFully(position, dst, off, len);
  }

  @Override
  public String name() {
    return in.name();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
