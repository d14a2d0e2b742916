package dev.parquetconnect.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The stores of the storage tests, as other packages' integration tests need them: a local
 * directory, an in-process HDFS (MiniDFSCluster) and an in-process S3 (S3Proxy), optionally behind
 * the fault-injecting proxy. Each gives the connector settings that reach it from another JVM (a
 * Connect worker) and opens a {@link Store} on it for the test's own checks (never through the
 * fault proxy). Every server binds 127.0.0.1.
 */
public final class ItStores {
  private ItStores() {}

  /** One running store. */
  public interface Running extends AutoCloseable {
    /** A name for test display: local, hdfs, s3, s3-faults. */
    String name();

    /** The {@code store.url} of a connector writing under {@code prefix}. */
    String url(String prefix);

    /** The connector settings besides {@code store.url} (endpoints, credentials, tuning). */
    Map<String, String> settings();

    /** A store client on {@code url(prefix)} for the test's checks. */
    Store open(String prefix) throws IOException;

    /** Requests relayed and faults injected so far (0 and 0 without a fault proxy). */
    default int[] requestsAndFaults() {
      return new int[] {0, 0};
    }

    @Override
    void close() throws Exception;
  }

  public static Running local(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Running() {
      @Override
      public String name() {
        return "local";
      }

      @Override
      public String url(String prefix) {
        return dir.resolve(prefix).toUri().toString();
      }

      @Override
      public Map<String, String> settings() {
        return Map.of();
      }

      @Override
      public Store open(String prefix) throws IOException {
        return Stores.open(url(prefix), Map.of());
      }

      @Override
      public void close() {}
    };
  }

  /** S3Proxy, optionally behind a {@link FaultProxy} failing {@code faultRate} of requests. */
  public static Running s3(double faultRate, long seed) throws Exception {
    TestLogging.quietServers();
    S3ProxyServer server = new S3ProxyServer();
    FaultProxy proxy = faultRate > 0 ? new FaultProxy(server.port(), faultRate, seed) : null;
    String endpoint = proxy != null ? proxy.endpoint() : server.endpoint();
    return new Running() {
      @Override
      public String name() {
        return proxy != null ? "s3-faults" : "s3";
      }

      @Override
      public String url(String prefix) {
        return "s3://" + S3ProxyServer.BUCKET + "/" + prefix;
      }

      @Override
      public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        S3ProxyServer.settings(endpoint)
            .forEach((k, v) -> settings.put(k, v instanceof Secret s ? s.value() : v.toString()));
        // Commits retried after a lost response look for the writer token; give them room.
        settings.put("s3.retry.max.attempts", "20");
        return settings;
      }

      @Override
      public Store open(String prefix) throws IOException {
        return Stores.open(url(prefix), S3ProxyServer.settings(server.endpoint()));
      }

      @Override
      public int[] requestsAndFaults() {
        return proxy == null ? new int[] {0, 0} : new int[] {proxy.requests(), proxy.totalFaults()};
      }

      @Override
      public void close() throws Exception {
        if (proxy != null) {
          proxy.close();
        }
        server.close();
      }
    };
  }

  /** A MiniDFSCluster of three datanodes (replication 2), data under {@code baseDir}. */
  public static Hdfs hdfs(Path baseDir) throws IOException {
    return new Hdfs(baseDir);
  }

  /** An in-process HDFS whose datanodes a test can stop and restart. */
  public static final class Hdfs implements Running {
    private static final int BLOCK = 1024 * 1024;
    private final MiniDFSCluster cluster;
    private final String nameNode;
    private MiniDFSCluster.DataNodeProperties stopped;

    private Hdfs(Path baseDir) throws IOException {
      cluster = startMiniDfs(baseDir, BLOCK);
      nameNode = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
    }

    /**
     * A MiniDFSCluster of three datanodes with replication 2 (so a datanode can be stopped
     * mid-write), every address on 127.0.0.1, heartbeats every second; datanode logs off, since the
     * tests stop datanodes on purpose and their broken pipelines log at ERROR.
     */
    static MiniDFSCluster startMiniDfs(Path baseDir, long blockSize) throws IOException {
      TestLogging.quietServers();
      System.setProperty(
          "org.slf4j.simpleLogger.log.org.apache.hadoop.hdfs.server.datanode", "off");
      Files.createDirectories(baseDir);
      Configuration conf = new Configuration();
      conf.setLong("dfs.blocksize", blockSize);
      conf.setInt("dfs.replication", 2);
      conf.set("dfs.namenode.http-address", "127.0.0.1:0");
      conf.set("dfs.namenode.https-address", "127.0.0.1:0");
      conf.set("dfs.datanode.address", "127.0.0.1:0");
      conf.set("dfs.datanode.http.address", "127.0.0.1:0");
      conf.set("dfs.datanode.https.address", "127.0.0.1:0");
      conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
      conf.setInt("dfs.heartbeat.interval", 1);
      MiniDFSCluster cluster =
          new MiniDFSCluster.Builder(conf, baseDir.toFile())
              .numDataNodes(3)
              .checkDataNodeAddrConfig(true)
              .build();
      cluster.waitActive();
      return cluster;
    }

    @Override
    public String name() {
      return "hdfs";
    }

    @Override
    public String url(String prefix) {
      return nameNode + "/" + prefix;
    }

    @Override
    public Map<String, String> settings() {
      return Map.of(
          "hadoop.config.dfs.replication",
          "2",
          "hadoop.config.dfs.blocksize",
          Integer.toString(BLOCK));
    }

    @Override
    public Store open(String prefix) throws IOException {
      return Stores.open(url(prefix), settings());
    }

    /** Stops one datanode (the writers' pipelines through it break). */
    public void stopDatanode(int index) {
      if (stopped == null) {
        stopped = cluster.stopDataNode(index);
      }
    }

    /** Restarts the stopped datanode and waits until the cluster is whole again. */
    public void restartDatanode() throws IOException {
      if (stopped != null) {
        cluster.restartDataNode(stopped, true);
        cluster.waitActive();
        stopped = null;
      }
    }

    @Override
    public void close() {
      cluster.shutdown(true);
    }
  }
}
