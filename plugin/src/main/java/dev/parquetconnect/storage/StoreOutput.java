package dev.parquetconnect.storage;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A new file being written sequentially (never seeking) under a temporary name or as an in-progress
 * multipart upload. Nothing is visible under the final key until {@link #commit()} returns. Exactly
 * one of {@link #commit()} and {@link #abort()} ends it; {@link #close()} without a successful
 * commit aborts, so a try-with-resources block that throws leaves nothing behind.
 *
 * <p>Not thread-safe: one writer thread at a time.
 */
public abstract class StoreOutput extends OutputStream {

  /** The final key this output commits to. */
  public abstract String key();

  /** Bytes written so far. */
  public abstract long bytesWritten();

  /**
   * Makes the file appear atomically and durably under its final key. Fails without replacing
   * anything if the key exists ({@link java.nio.file.FileAlreadyExistsException}) or if the
   * temporary state was removed meanwhile (a fenced writer); on any failure the output is aborted.
   * Calling it twice is an error; after it returns, writes are refused.
   */
  public void commit() throws IOException {
    commitAs(key());
  }

  /**
   * Like {@link #commit()}, but the file appears under {@code finalKey}, which must be in the same
   * directory as {@link #key()} (checked before anything is done: an {@link
   * IllegalArgumentException} leaves the output open). Outputs from {@link Store#create} on S3 that
   * already started a multipart upload can commit only under their own key; those from {@link
   * Store#createNamedAtCommit} can always be renamed.
   */
  public abstract void commitAs(String finalKey) throws IOException;

  /** Checks that {@code finalKey} is a valid key in the directory of {@code key}. */
  protected static void checkSameDirectory(String key, String finalKey) {
    StoreKeys.checkKey(finalKey);
    if (!StoreKeys.parent(finalKey).equals(StoreKeys.parent(key))) {
      throw new IllegalArgumentException(
          "a file created as '"
              + StoreKeys.printable(key)
              + "' can only be committed in its own directory, not as '"
              + StoreKeys.printable(finalKey)
              + "'");
    }
  }

  /** Discards everything written; idempotent; a no-op after a successful commit. */
  public abstract void abort() throws IOException;

  /**
   * Heap bytes this output holds in its own buffers (about one part on S3, a small copy buffer on
   * local disk, none on HDFS, whose client bounds its own packet queue): what the sink counts
   * against its memory budget.
   */
  public abstract long heapBytes();

  /** Whether {@link #commit()} succeeded. */
  public abstract boolean committed();

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public abstract void write(byte[] b, int off, int len) throws IOException;

  /** Aborts unless committed. */
  @Override
  public void close() throws IOException {
    if (!committed()) {
      abort();
    }
  }
}
