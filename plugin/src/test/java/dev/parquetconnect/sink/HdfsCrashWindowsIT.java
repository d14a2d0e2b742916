package dev.parquetconnect.sink;

import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash windows of docs/exactly-once.md on HDFS (a MiniDFSCluster on 127.0.0.1): temporary
 * files renamed without overwrite, markers created the same way, deletes and listings through the
 * namenode.
 */
final class HdfsCrashWindowsIT extends CrashWindowContract {
  @TempDir static Path dir;
  private static ItStores.Hdfs hdfs;
  private static int roots;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = ItStores.hdfs(dir.resolve("hdfs"));
  }

  @AfterAll
  static void stopCluster() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Override
  protected Store openStore() throws Exception {
    return hdfs.open("windows" + (++roots));
  }
}
