package dev.parquetconnect.sink;

import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The crash windows of docs/exactly-once.md on local disk. */
final class LocalCrashWindowsTest extends CrashWindowContract {
  @TempDir Path dir;

  @Override
  protected Store openStore() throws Exception {
    return new LocalStore(dir);
  }
}
