package dev.parquetconnect.sink;

/**
 * The heap all open files of a task hold ({@code buffer.max.bytes}): each file's buffered rows plus
 * its store output's buffers, tracked incrementally as records go in so that checking it costs
 * nothing per record.
 */
final class MemoryBudget {
  private final long maxBytes;
  private long total;

  MemoryBudget(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  long maxBytes() {
    return maxBytes;
  }

  long total() {
    return total;
  }

  boolean exceeded() {
    return total >= maxBytes;
  }

  /** Brings {@code file}'s share up to date with what it holds now. */
  void update(OpenFile file) {
    long now = file.heapBytes();
    total += now - file.accountedBytes();
    file.accountedBytes(now);
  }

  /** Forgets a file that was committed or aborted. */
  void release(OpenFile file) {
    total -= file.accountedBytes();
    file.accountedBytes(0);
  }
}
