package dev.parquetconnect.format.read;

import dev.parquetconnect.format.io.SeekableInput;
import java.io.IOException;

/**
 * A window of buffered bytes over one column chunk's range of the file, filled with positioned
 * reads. It never reads outside the chunk and never reads a byte twice while moving forward: bytes
 * read ahead for the next page header stay in the window and are reused, so reading a whole chunk
 * transfers exactly its bytes. The window holds at most one page plus the read-ahead.
 */
final class ChunkWindow {
  private final SeekableInput in;
  private final long chunkEnd;
  private byte[] buf = new byte[0];

  /** File position of {@code buf[0]}, and how many bytes from there are valid. */
  private long bufStart;

  private int bufLength;

  ChunkWindow(SeekableInput in, ChunkRange range) {
    this.in = in;
    this.chunkEnd = range.end();
    this.bufStart = range.start();
  }

  long chunkEnd() {
    return chunkEnd;
  }

  /** The backing array; valid after {@link #fill} until the next call. */
  byte[] array() {
    return buf;
  }

  /**
   * Makes {@code [position, position + length)} available and returns its offset in {@link
   * #array()}. Also reads up to {@code readAhead} bytes past it (within the chunk) when it has to
   * read at all, so the next small structure usually needs no request of its own. The caller has
   * checked that the range lies in the chunk and does not go backwards past the window.
   */
  int fill(long position, int length, int readAhead) throws IOException {
    long bufEnd = bufStart + bufLength;
    if (position >= bufStart && position + length <= bufEnd) {
      return (int) (position - bufStart);
    }
    // Keep the still-unread bytes [position, bufEnd) and move them to the front.
    int kept = 0;
    if (position >= bufStart && position < bufEnd) {
      kept = (int) (bufEnd - position);
      System.arraycopy(buf, (int) (position - bufStart), buf, 0, kept);
    }
    long readFrom = position + kept;
    long wanted = Math.min((long) length + readAhead, chunkEnd - position);
    int total = (int) Math.max(wanted, length);
    if (total > buf.length) {
      byte[] grown =
          new byte
              [Math.max(
                  total,
                  (int) Math.min(Integer.MAX_VALUE - 16, (long) buf.length + (buf.length >> 1)))];
      System.arraycopy(buf, 0, grown, 0, kept);
      buf = grown;
    }
    in.readFully(readFrom, buf, kept, total - kept);
    bufStart = position;
    bufLength = total;
    return 0;
  }

  /** Releases the buffer (the chunk is done). */
  void release() {
    buf = new byte[0];
    bufLength = 0;
  }
}
