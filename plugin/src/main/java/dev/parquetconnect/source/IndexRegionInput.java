package dev.parquetconnect.source;

import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.RowGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A file's input that fetches its index structures (column indexes, offset indexes, bloom filters)
 * by clusters: structures that lie close together (the page indexes, which writers put together
 * before the footer) are fetched in one ranged read the first time anything in the cluster is read,
 * and served from memory after. A filtered replay asks for a bloom filter and page indexes per row
 * group: on an object store each would otherwise be a request of its own. A structure far from the
 * others (a bloom filter written after its column chunk) stays a read of its own, of its own size:
 * never the data between.
 */
final class IndexRegionInput implements SeekableInput {
  /** Structures closer than this are fetched together (the bytes between them included). */
  static final int MAX_GAP = 4 << 10;

  /** The largest cluster fetched at once. */
  static final int MAX_CLUSTER = 1 << 20;

  private final SeekableInput in;
  private final List<long[]> clusters = new ArrayList<>();
  private final List<byte[]> fetched = new ArrayList<>();

  IndexRegionInput(SeekableInput in) {
    this.in = in;
  }

  /** Learns where the index structures are from the footer; reads before go straight through. */
  void locate(FileMetaData metadata) {
    List<long[]> spans = new ArrayList<>();
    for (RowGroup g : metadata.rowGroups()) {
      for (ColumnChunk c : g.columns()) {
        add(spans, c.columnIndexOffset(), c.columnIndexLength());
        add(spans, c.offsetIndexOffset(), c.offsetIndexLength());
        if (c.metaData() != null) {
          add(spans, c.metaData().bloomFilterOffset(), c.metaData().bloomFilterLength());
        }
      }
    }
    spans.sort((a, b) -> Long.compare(a[0], b[0]));
    long[] open = null;
    for (long[] s : spans) {
      if (open != null
          && s[0] - open[1] <= MAX_GAP
          && Math.max(open[1], s[1]) - open[0] <= MAX_CLUSTER) {
        open[1] = Math.max(open[1], s[1]);
      } else {
        open = new long[] {s[0], s[1]};
        clusters.add(open);
        fetched.add(null);
      }
    }
  }

  private static void add(List<long[]> spans, Long offset, Integer length) {
    if (offset != null && length != null && offset >= 0 && length > 0 && length <= MAX_CLUSTER) {
      spans.add(new long[] {offset, offset + length});
    }
  }

  @Override
  public long length() throws IOException {
    return in.length();
  }

  @Override
  public void readFully(long position, byte[] dst, int off, int len) throws IOException {
    for (int i = 0; i < clusters.size(); i++) {
      long[] c = clusters.get(i);
      if (position >= c[0] && position + len <= c[1]) {
        byte[] bytes = fetched.get(i);
        if (bytes == null) {
          bytes = new byte[(int) (c[1] - c[0])];
          in.readFully(c[0], bytes, 0, bytes.length);
          fetched.set(i, bytes);
        }
        System.arraycopy(bytes, (int) (position - c[0]), dst, off, len);
        return;
      }
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
