package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store contract on HDFS: an in-process MiniDFSCluster (one namenode, three datanodes, all on
 * 127.0.0.1, data under target/), plus a datanode stopped and restarted in the middle of writing
 * and the lease recovery of a crashed writer's open temporary file.
 */
class HdfsStoreIT extends StoreContract {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsStoreIT.class);

  private static final int BLOCK = 1024 * 1024;
  private static MiniDFSCluster cluster;
  private static String nameNode;

  @BeforeAll
  static void startCluster() throws Exception {
    Path base = Path.of("target", "minidfs-" + System.nanoTime()).toAbsolutePath();
    cluster = ItStores.Hdfs.startMiniDfs(base, BLOCK);
    nameNode = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.shutdown(true);
    }
  }

  static Map<String, Object> settings() {
    Map<String, Object> s = new HashMap<>();
    s.put("hadoop.config.dfs.replication", "2");
    s.put("hadoop.config.dfs.blocksize", String.valueOf(BLOCK));
    return s;
  }

  @Override
  protected Store openStore(String rootName) throws IOException {
    return Stores.open(nameNode + "/stores/" + rootName, settings());
  }

  @Override
  protected long maxHeapPerOutput() {
    return 0;
  }

  @Test
  void everyServerListensOnLoopbackOnly() throws IOException {
    assertEquals(List.of(), ListeningSockets.nonLoopback(), "sockets on other interfaces");
    assertLoopback(cluster.getNameNode().getNameNodeAddress());
    assertLoopback(cluster.getNameNode().getHttpAddress());
    for (DataNode dn : cluster.getDataNodes()) {
      assertLoopback(dn.getXferAddress());
      assertLoopback(DataNode.getInfoAddr(dn.getConf()));
    }
  }

  private static void assertLoopback(InetSocketAddress a) {
    assertTrue(a.getAddress() != null && a.getAddress().isLoopbackAddress(), a.toString());
  }

  @Test
  void leaseRecoveryFencesACrashedWritersOpenTemporaryFile() throws Exception {
    String root = nameNode + "/stores/lease-" + System.nanoTime();
    try (Store crashed = Stores.open(root, settings());
        Store recovering = Stores.open(root, settings())) {
      StoreOutput out = crashed.create("w/f.parquet");
      out.write(bytes(40, 3 * BLOCK / 2));
      // the writer "crashed" with its file open; the next owner of w/ recovers the lease and
      // removes the file
      assertEquals(1, recovering.cleanupOrphans("w", Instant.MAX));
      assertThrows(IOException.class, out::commit, "a fenced writer committed");
      assertFalse(recovering.exists("w/f.parquet"));
      assertTrue(recovering.list("", true).isEmpty());
      assertEquals(0, countTemporaryFiles("/stores/" + root.substring(root.lastIndexOf('/') + 1)));
    }
  }

  /**
   * A writer commits 36 files of 3 blocks while datanodes are stopped and restarted in the middle
   * of files (a block half-written). A failed attempt is aborted and retried under the same key; a
   * retry that finds the key committed checks it is the same data. Afterwards every file is there
   * exactly once and whole, and no temporary file is left.
   */
  @Test
  void aDatanodeStoppedAndRestartedMidWriteLosesNoFileAndDuplicatesNone() throws Exception {
    int files = 36;
    int size = 3 * BLOCK;
    Map<String, Integer> commits = new TreeMap<>();
    int failedAttempts = 0;
    int foundCommitted = 0;
    MiniDFSCluster.DataNodeProperties stopped = null;
    for (int i = 0; i < files; i++) {
      String key = String.format("t/partition=%d/file-%03d.parquet", i % 3, i);
      byte[] data = bytes(1000 + i, size);
      for (int attempt = 1; ; attempt++) {
        StoreOutput out = store.create(key);
        try {
          out.write(data, 0, size / 2);
          if (attempt == 1) {
            if (i == 8 || i == 22) {
              stopped = cluster.stopDataNode(i == 8 ? 0 : 1);
            } else if (i == 16 || i == 30) {
              assertTrue(cluster.restartDataNode(stopped, true));
              cluster.waitActive();
              stopped = null;
            }
          }
          out.write(data, size / 2, size - size / 2);
          out.commit();
          commits.merge(key, 1, Integer::sum);
          break;
        } catch (FileAlreadyExistsException e) {
          // an earlier attempt committed although it reported a failure
          assertArrayEquals(data, readAll(key), key);
          foundCommitted++;
          commits.merge(key, 1, Integer::sum);
          break;
        } catch (IOException e) {
          failedAttempts++;
          out.abort();
          if (attempt >= 5) {
            throw e;
          }
        }
      }
    }
    List<String> expected = new ArrayList<>(commits.keySet());
    assertEquals(files, expected.size());
    commits.forEach((k, n) -> assertEquals(1, n, k + " committed " + n + " times"));
    List<String> listed = keys(store.list("", true));
    expected.sort(StoreKeys.UTF8_ORDER);
    assertEquals(expected, listed);
    for (int i = 0; i < files; i++) {
      String key = String.format("t/partition=%d/file-%03d.parquet", i % 3, i);
      assertArrayEquals(bytes(1000 + i, size), readAll(key), key);
    }
    store.cleanupOrphans("", Instant.MAX);
    String rootPath = new java.net.URI(store.url()).getPath();
    assertEquals(0, countTemporaryFiles(rootPath));
    LOG.info(
        String.format(
            "datanode restarts: %d files committed, %d failed attempts retried, "
                + "%d found already committed",
            files, failedAttempts, foundCommitted));
  }

  private static int countTemporaryFiles(String path) throws IOException {
    FileSystem fs = cluster.getFileSystem();
    int n = 0;
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(path), true);
    while (it.hasNext()) {
      if (StoreKeys.isTemporaryName(it.next().getPath().getName())) {
        n++;
      }
    }
    return n;
  }

  @Test
  void hadoopConfDirSiteFilesAreRead() throws IOException {
    Path dir = Files.createTempDirectory(Path.of("target"), "hadoop-conf");
    Files.writeString(
        dir.resolve("hdfs-site.xml"),
        "<?xml version=\"1.0\"?><configuration>"
            + "<property><name>dfs.replication</name><value>1</value></property></configuration>");
    Map<String, Object> s = new HashMap<>();
    s.put("hadoop.conf.dir", dir.toString());
    try (Store st = Stores.open(nameNode + "/stores/conf-" + System.nanoTime(), s)) {
      put(st, "f", bytes(41, 100));
      String path = new java.net.URI(st.url()).getPath() + "/f";
      assertEquals(
          1,
          cluster
              .getFileSystem()
              .getFileStatus(new org.apache.hadoop.fs.Path(path))
              .getReplication());
    } catch (java.net.URISyntaxException e) {
      throw new AssertionError(e);
    }
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Stores.open(
                nameNode + "/x",
                Map.of("hadoop.conf.dir", new File("target/no-such-dir").getAbsolutePath())));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Stores.open(
                nameNode + "/x", Map.of("hdfs.kerberos.principal", "pqc/host@EXAMPLE.COM")));
  }

  private static void put(Store s, String key, byte[] data) throws IOException {
    try (StoreOutput out = s.create(key)) {
      out.write(data);
      out.commit();
    }
  }
}
