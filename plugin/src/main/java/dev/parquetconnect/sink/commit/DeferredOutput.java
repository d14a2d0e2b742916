package dev.parquetconnect.sink.commit;

import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A store output that exists only once its file is worth one: the first bytes (the file's magic and
 * its first row groups) wait in a small array, and the store's output, with its own buffers (64 KiB
 * on local disk and S3 at the least), is created when they pass {@link #THRESHOLD} or at the
 * commit. With a thousand small files open, that is a thousand buffers less.
 *
 * <p>The file's final name is given at the commit ({@link #commitAs}): the store's output is
 * created with {@link Store#createNamedAtCommit} under the provisional key, or, for a file still
 * waiting in memory at the commit, directly under the final key (on S3 one PutObject there, no
 * staging object and no copy).
 *
 * <p>Both keys must have been checked against the store's rules before (the sink's {@code
 * SinkKeys}): creating the real output later must not fail for the key's sake, where no record can
 * be blamed.
 */
public final class DeferredOutput extends StoreOutput {
  static final int THRESHOLD = 64 * 1024;
  private static final int INITIAL = 1024;

  private final Store store;
  private final String key;
  private byte[] pending = new byte[INITIAL];
  private int pendingSize;
  private StoreOutput real;
  private boolean committed;
  private boolean aborted;

  public DeferredOutput(Store store, String key) {
    this.store = store;
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public long bytesWritten() {
    return real != null ? real.bytesWritten() : pendingSize;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (committed || aborted) {
      throw new IOException(key + " is " + (committed ? "committed" : "aborted"));
    }
    if (real != null) {
      real.write(b, off, len);
      return;
    }
    if (pendingSize + len > THRESHOLD) {
      open();
      real.write(b, off, len);
      return;
    }
    if (pendingSize + len > pending.length) {
      pending =
          Arrays.copyOf(
              pending, Math.min(THRESHOLD, Math.max(pendingSize + len, pending.length * 2)));
    }
    System.arraycopy(b, off, pending, pendingSize, len);
    pendingSize += len;
  }

  private void open() throws IOException {
    open(store.createNamedAtCommit(key));
  }

  private void open(StoreOutput output) throws IOException {
    try {
      output.write(pending, 0, pendingSize);
    } catch (IOException | RuntimeException e) {
      output.abort();
      throw e;
    }
    real = output;
    pending = null;
    pendingSize = 0;
  }

  @Override
  public void commitAs(String finalKey) throws IOException {
    if (committed || aborted) {
      throw new IOException(key + " is already " + (committed ? "committed" : "aborted"));
    }
    if (!finalKey.equals(key)) {
      checkSameDirectory(key, finalKey);
    }
    try {
      if (real == null) {
        open(store.create(finalKey));
        real.commit();
      } else {
        real.commitAs(finalKey);
      }
      committed = true;
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
  }

  @Override
  public void abort() throws IOException {
    if (committed || aborted) {
      return;
    }
    aborted = true;
    pending = null;
    if (real != null) {
      real.abort();
    }
  }

  @Override
  public long heapBytes() {
    if (real != null) {
      return real.heapBytes();
    }
    return pending == null ? 0 : pending.length;
  }

  @Override
  public boolean committed() {
    // Also true when the store made the file visible but reported a failure (a lost response).
    return committed || (real != null && real.committed());
  }
}
