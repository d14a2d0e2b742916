package dev.parquetconnect.sink;

import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/**
 * A store that fails a seeded fraction of its calls with an {@link IOException}, like a flaky
 * network or an overloaded object store: before acting, or (for commits) after acting, when the
 * writer cannot know its file became visible.
 */
final class FlakyStore implements Store {
  private final Store delegate;
  private final Random random;
  private volatile double failureRate;

  FlakyStore(Store delegate, long seed, double failureRate) {
    this.delegate = delegate;
    this.random = new Random(seed);
    this.failureRate = failureRate;
  }

  void failureRate(double rate) {
    this.failureRate = rate;
  }

  private void maybeFail(String what) throws IOException {
    if (random.nextDouble() < failureRate) {
      throw new IOException("injected failure of " + what);
    }
  }

  @Override
  public String url() {
    return delegate.url();
  }

  @Override
  public StoreInput open(String key) throws IOException {
    maybeFail("open " + key);
    return delegate.open(key);
  }

  @Override
  public StoreOutput create(String key) throws IOException {
    maybeFail("create " + key);
    return new FlakyOutput(delegate.create(key));
  }

  @Override
  public StoreOutput createNamedAtCommit(String key) throws IOException {
    maybeFail("create " + key);
    return new FlakyOutput(delegate.createNamedAtCommit(key));
  }

  @Override
  public List<StoreFile> list(String prefix, boolean recursive) throws IOException {
    maybeFail("list " + prefix);
    return delegate.list(prefix, recursive);
  }

  @Override
  public boolean exists(String key) throws IOException {
    maybeFail("exists " + key);
    return delegate.exists(key);
  }

  @Override
  public StoreFile stat(String key) throws IOException {
    maybeFail("stat " + key);
    return delegate.stat(key);
  }

  @Override
  public void delete(String key) throws IOException {
    maybeFail("delete " + key);
    delegate.delete(key);
  }

  @Override
  public void move(String from, String to) throws IOException {
    maybeFail("move " + from);
    delegate.move(from, to);
  }

  @Override
  public int cleanupOrphans(
      String prefix, Instant olderThan, java.util.function.Predicate<String> finalName)
      throws IOException {
    maybeFail("cleanupOrphans " + prefix);
    return delegate.cleanupOrphans(prefix, olderThan, finalName);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  private final class FlakyOutput extends StoreOutput {
    private final StoreOutput out;

    FlakyOutput(StoreOutput out) {
      this.out = out;
    }

    @Override
    public String key() {
      return out.key();
    }

    @Override
    public long bytesWritten() {
      return out.bytesWritten();
    }

    @Override
    public void commitAs(String finalKey) throws IOException {
      boolean before = random.nextBoolean();
      if (before) {
        maybeFail("commit " + finalKey);
      }
      out.commitAs(finalKey);
      if (!before) {
        // The file is visible, but its writer is told the commit failed.
        maybeFail("commit response of " + finalKey);
      }
    }

    @Override
    public void abort() throws IOException {
      out.abort();
    }

    @Override
    public long heapBytes() {
      return out.heapBytes();
    }

    @Override
    public boolean committed() {
      return out.committed();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      maybeFail("write " + key());
      out.write(b, off, len);
    }
  }
}
