package dev.parquetconnect.storage;

import java.io.IOException;

/**
 * The state every store's output keeps: its key, the bytes written, and whether it is closed
 * (committed, aborted or failed: no more writes) and committed. The stores differ only in how bytes
 * reach the temporary state and how a commit publishes or discards it; the lifecycle rules of
 * {@link StoreOutput} (one commit or abort, writes refused after either, abort a no-op after a
 * commit) live here once.
 */
abstract class TrackedOutput extends StoreOutput {
  private final String key;

  /** The store's name of the key, for messages. */
  private final String name;

  private long written;
  private boolean closed;
  private boolean committed;

  TrackedOutput(String key, String name) {
    this.key = key;
    this.name = name;
  }

  @Override
  public final String key() {
    return key;
  }

  @Override
  public final long bytesWritten() {
    return written;
  }

  @Override
  public final boolean committed() {
    return committed;
  }

  final boolean closed() {
    return closed;
  }

  /** Counts {@code n} more bytes written. */
  final void wrote(long n) {
    written += n;
  }

  /** Fails when the output is committed or aborted: a write or a second commit. */
  final void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(name + ": the output is already committed or aborted");
    }
  }

  /** Refuses further writes and commits: the commit (or a failure) has begun. */
  final void markClosed() {
    closed = true;
  }

  /** Records that the commit succeeded. */
  final void markCommitted() {
    committed = true;
  }

  @Override
  public final void abort() throws IOException {
    if (committed) {
      return;
    }
    closed = true;
    discard();
  }

  /** Removes the temporary state (a temporary file, an upload); called at most once usefully. */
  abstract void discard() throws IOException;
}
