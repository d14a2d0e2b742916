package dev.parquetconnect.storage;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory on HDFS, or on any other file system Hadoop has a {@link FileSystem} for (the user
 * adds its jars: s3a, abfs, gs, viewfs, webhdfs), through the shaded Hadoop client.
 *
 * <p>Settings: {@code hadoop.conf.dir} (a directory with {@code core-site.xml}, {@code
 * hdfs-site.xml}), {@code hadoop.config.<name>} (any Hadoop property, e.g. {@code
 * hadoop.config.dfs.replication}), {@code hdfs.user} (simple authentication), {@code
 * hdfs.kerberos.principal} + {@code hdfs.kerberos.keytab} (+ {@code
 * hdfs.kerberos.relogin.check.ms}, default 60000) for Kerberos.
 *
 * <p>A new file is written to {@code .tmp-pqc-<random>-<name>} in its final directory, hsynced and
 * closed at commit, then renamed to the final name without overwrite ({@code rename(src, dst,
 * Rename.NONE)} on HDFS: atomic, and it fails if the name exists). On other Hadoop file systems the
 * rename is preceded by an existence check and is only as atomic as that file system's rename (not
 * at all on s3a: use the {@code s3://} store there). {@link #cleanupOrphans} recovers the lease of
 * a temporary file still open by a crashed or fenced writer (so that writer can no longer write or
 * close it) and deletes it.
 */
public final class HadoopStore implements Store {
  private static final Logger LOG = LoggerFactory.getLogger(HadoopStore.class);

  private final String url;
  private final Path root;
  private final String rootPath;
  private final UserGroupInformation ugi;
  private final boolean kerberos;
  private final FileSystem fs;
  private final ScheduledExecutorService relogin;

  HadoopStore(URI uri, StoreSettings settings) throws IOException {
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("credentials in a store URL are not allowed");
    }
    String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("a Hadoop store URL needs an absolute path: " + uri);
    }
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    this.rootPath = path;
    this.root = new Path(uri.getScheme(), uri.getAuthority(), path);
    this.url = root.toUri().toString();
    Configuration conf = configuration(settings);

    String principal = settings.string("hdfs.kerberos.principal", null);
    String keytab = settings.string("hdfs.kerberos.keytab", null);
    if ((principal == null) != (keytab == null)) {
      throw new IllegalArgumentException(
          "hdfs.kerberos.principal and hdfs.kerberos.keytab must be set together");
    }
    if (principal != null) {
      if (!new File(keytab).canRead()) {
        throw new IllegalArgumentException(
            "hdfs.kerberos.keytab is not a readable file: " + keytab);
      }
      conf.set("hadoop.security.authentication", "kerberos");
      // UGI's configuration is JVM-wide: one Kerberos setup per worker.
      UserGroupInformation.setConfiguration(conf);
      this.ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab);
      this.kerberos = true;
      long checkMs = settings.longValue("hdfs.kerberos.relogin.check.ms", 60_000);
      this.relogin =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "pqc-kerberos-relogin");
                t.setDaemon(true);
                return t;
              });
      relogin.scheduleWithFixedDelay(this::reloginQuietly, checkMs, checkMs, TimeUnit.MILLISECONDS);
      LOG.info("{}: logged in to Kerberos as {} from a keytab", url, principal);
    } else {
      String user = settings.string("hdfs.user", null);
      this.ugi =
          user != null
              ? UserGroupInformation.createRemoteUser(user)
              : UserGroupInformation.getCurrentUser();
      this.kerberos = false;
      this.relogin = null;
    }
    this.fs = as(() -> FileSystem.newInstance(root.toUri(), conf));
    try {
      as(() -> fs.mkdirs(root));
    } catch (IOException | RuntimeException e) {
      fs.close();
      throw e;
    }
    LOG.info(
        "{}: opened as user {} ({})", url, ugi.getShortUserName(), fs.getClass().getSimpleName());
  }

  /** The Hadoop configuration of a store (also used by validate, see StoreConfigDef). */
  static Configuration configuration(StoreSettings settings) throws IOException {
    Configuration conf = new Configuration();
    String dir = settings.string("hadoop.conf.dir", null);
    if (dir != null) {
      File d = new File(dir);
      if (!d.isDirectory()) {
        throw new IllegalArgumentException("hadoop.conf.dir is not a directory: " + dir);
      }
      for (String site : new String[] {"core-site.xml", "hdfs-site.xml"}) {
        File f = new File(d, site);
        if (f.isFile()) {
          try {
            conf.addResource(f.toURI().toURL());
          } catch (MalformedURLException e) {
            throw new IOException(e);
          }
        }
      }
    }
    for (Map.Entry<String, String> e : settings.withPrefix("hadoop.config.").entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    // Our own FileSystem instance (newInstance), closed with the store.
    return conf;
  }

  private void reloginQuietly() {
    try {
      ugi.checkTGTAndReloginFromKeytab();
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: Kerberos re-login from the keytab failed: {}", url, e.toString());
    }
  }

  private interface Action<T> {
    T run() throws IOException;
  }

  /** Runs an action as the store's user (re-logging in from the keytab first when due). */
  private <T> T as(Action<T> action) throws IOException {
    if (kerberos) {
      ugi.checkTGTAndReloginFromKeytab();
    }
    try {
      return ugi.doAs((PrivilegedExceptionAction<T>) action::run);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(url + ": interrupted");
    }
  }

  @Override
  public String url() {
    return url;
  }

  private String url(String key) {
    return url + "/" + key;
  }

  private Path path(String key) {
    StoreKeys.checkKey(key);
    return new Path(
        root.toUri().getScheme(),
        root.toUri().getAuthority(),
        (rootPath.equals("/") ? "" : rootPath) + "/" + key);
  }

  private Path prefixPath(String prefix) {
    StoreKeys.checkPrefix(prefix);
    return prefix.isEmpty() ? root : path(prefix);
  }

  private String keyOf(Path p) {
    String s = p.toUri().getPath();
    String base = rootPath.equals("/") ? "/" : rootPath + "/";
    if (!s.startsWith(base)) {
      throw new IllegalStateException("listed path outside the root: " + p);
    }
    return s.substring(base.length());
  }

  @Override
  public StoreInput open(String key) throws IOException {
    Path p = path(key);
    return as(
        () -> {
          FileStatus st;
          try {
            st = fs.getFileStatus(p);
          } catch (FileNotFoundException e) {
            throw new NoSuchFileException(url(key), null, "no such file in the store");
          }
          if (!st.isFile() || StoreKeys.isTemporaryName(p.getName())) {
            throw new NoSuchFileException(url(key), null, "no such file in the store");
          }
          return new HadoopInput(url(key), fs.open(p), st.getLen());
        });
  }

  @Override
  public StoreOutput create(String key) throws IOException {
    Path target = path(key);
    Path tmp = new Path(target.getParent(), StoreKeys.temporaryName(target.getName()));
    FSDataOutputStream out = as(() -> fs.create(tmp, false));
    return new HadoopOutput(key, target, tmp, out);
  }

  @Override
  public List<StoreFile> list(String prefix, boolean recursive) throws IOException {
    Path dir = prefixPath(prefix);
    List<StoreFile> out = new ArrayList<>();
    as(
        () -> {
          try {
            if (!recursive) {
              for (FileStatus st : fs.listStatus(dir)) {
                add(out, st, true);
              }
            } else {
              RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
              while (it.hasNext()) {
                add(out, it.next(), false);
              }
            }
          } catch (FileNotFoundException e) {
            // a missing prefix lists as empty
          }
          return null;
        });
    out.sort((a, b) -> StoreKeys.compareUtf8(a.key(), b.key()));
    return out;
  }

  private void add(List<StoreFile> out, FileStatus st, boolean withDirectories) {
    String name = st.getPath().getName();
    if (StoreKeys.isTemporaryName(name)) {
      return;
    }
    String key = keyOf(st.getPath());
    if (!StoreKeys.isValidKey(key)) {
      return;
    }
    Instant mtime = Instant.ofEpochMilli(st.getModificationTime());
    if (st.isDirectory()) {
      if (withDirectories) {
        out.add(new StoreFile(key, 0, mtime, true));
      }
    } else if (st.isFile()) {
      out.add(new StoreFile(key, st.getLen(), mtime, false));
    }
  }

  @Override
  public boolean exists(String key) throws IOException {
    Path p = path(key);
    return as(
        () -> {
          try {
            return fs.getFileStatus(p).isFile();
          } catch (FileNotFoundException e) {
            return false;
          }
        });
  }

  @Override
  public StoreFile stat(String key) throws IOException {
    Path p = path(key);
    return as(
        () -> {
          try {
            FileStatus st = fs.getFileStatus(p);
            if (st.isFile()) {
              return new StoreFile(
                  key, st.getLen(), Instant.ofEpochMilli(st.getModificationTime()), false);
            }
          } catch (FileNotFoundException e) {
            // fall through
          }
          throw new NoSuchFileException(url(key), null, "no such file in the store");
        });
  }

  @Override
  public void delete(String key) throws IOException {
    Path p = path(key);
    as(
        () -> {
          try {
            if (fs.getFileStatus(p).isDirectory()) {
              throw new FileSystemException(url(key), null, "is a directory, not a file");
            }
          } catch (FileNotFoundException e) {
            return null;
          }
          fs.delete(p, false);
          return null;
        });
  }

  @Override
  public void move(String from, String to) throws IOException {
    Path src = path(from);
    Path dst = path(to);
    as(
        () -> {
          try {
            if (!fs.getFileStatus(src).isFile()) {
              throw new NoSuchFileException(url(from), null, "no such file in the store");
            }
          } catch (FileNotFoundException e) {
            throw new NoSuchFileException(url(from), null, "no such file in the store");
          }
          fs.mkdirs(dst.getParent());
          renameNoReplace(src, dst, to);
          return null;
        });
  }

  /** Renames without ever replacing the target; atomically on HDFS. */
  private void renameNoReplace(Path src, Path dst, String key) throws IOException {
    if (fs instanceof DistributedFileSystem dfs) {
      try {
        dfs.rename(src, dst, Options.Rename.NONE);
        return;
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
        throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
      } catch (FileNotFoundException e) {
        throw new NoSuchFileException(
            url + "/" + keyOf(src),
            null,
            "the file to rename is gone (a cleanup fenced this writer?)");
      }
    }
    if (fs.exists(dst)) {
      throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
    }
    if (!fs.rename(src, dst)) {
      if (fs.exists(dst)) {
        throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
      }
      throw new IOException(url(key) + ": rename from " + src.getName() + " failed");
    }
  }

  @Override
  public int cleanupOrphans(String prefix, Instant olderThan, Predicate<String> finalName)
      throws IOException {
    Path dir = prefixPath(prefix);
    List<Path> orphans = new ArrayList<>();
    as(
        () -> {
          try {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
            while (it.hasNext()) {
              LocatedFileStatus st = it.next();
              if (StoreKeys.isTemporaryName(st.getPath().getName())
                  && finalName.test(StoreKeys.finalNameOfTemporary(st.getPath().getName()))
                  && Instant.ofEpochMilli(st.getModificationTime()).isBefore(olderThan)) {
                orphans.add(st.getPath());
              }
            }
          } catch (FileNotFoundException e) {
            // nothing there
          }
          return null;
        });
    int removed = 0;
    for (Path p : orphans) {
      boolean deleted =
          as(
              () -> {
                if (fs instanceof DistributedFileSystem dfs) {
                  try {
                    if (!dfs.isFileClosed(p)) {
                      // Revokes the writer's lease: a crashed or fenced writer can neither write
                      // nor
                      // close (and so never commit) this file any more.
                      boolean closed = dfs.recoverLease(p);
                      LOG.info(
                          "{}: recovered the lease of the open temporary file {} ({})",
                          url,
                          keyOf(p),
                          closed ? "closed" : "recovery under way");
                    }
                  } catch (FileNotFoundException e) {
                    return false;
                  }
                }
                return fs.delete(p, false);
              });
      if (deleted) {
        removed++;
        LOG.info("{}: removed the orphaned temporary file {}", url, keyOf(p));
      }
    }
    return removed;
  }

  @Override
  public void close() throws IOException {
    if (relogin != null) {
      relogin.shutdownNow();
    }
    fs.close();
  }

  @Override
  public String toString() {
    return "HadoopStore[" + url + "]";
  }

  private static final class HadoopInput implements StoreInput {
    private final String name;
    private final FSDataInputStream in;
    private final long length;
    private final java.util.concurrent.atomic.LongAdder read =
        new java.util.concurrent.atomic.LongAdder();

    HadoopInput(String name, FSDataInputStream in, long length) {
      this.name = name;
      this.in = in;
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void readFully(long position, byte[] dst, int off, int len) throws IOException {
      if (position < 0 || position + len > length) {
        throw new java.io.EOFException(
            name
                + ": read of "
                + len
                + " bytes at "
                + position
                + " is beyond the end ("
                + length
                + " bytes)");
      }
      in.readFully(position, dst, off, len);
      read.add(len);
    }

    @Override
    public long bytesRead() {
      return read.sum();
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  private final class HadoopOutput extends TrackedOutput {
    private final Path target;
    private final Path tmp;
    private final FSDataOutputStream out;

    HadoopOutput(String key, Path target, Path tmp, FSDataOutputStream out) {
      super(key, url(key));
      this.target = target;
      this.tmp = tmp;
      this.out = out;
    }

    @Override
    public long heapBytes() {
      return 0;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      checkOpen();
      out.write(b, off, len);
      wrote(len);
    }

    @Override
    public void commitAs(String finalKey) throws IOException {
      checkOpen();
      String key = key();
      Path target = this.target;
      if (!finalKey.equals(key)) {
        checkSameDirectory(key, finalKey);
        target = path(finalKey);
      }
      Path dst = target;
      markClosed();
      try {
        as(
            () -> {
              if (out.hasCapability(StreamCapabilities.HSYNC)) {
                out.hsync();
              }
              out.close();
              renameNoReplace(tmp, dst, finalKey);
              return null;
            });
        markCommitted();
      } catch (IOException | RuntimeException e) {
        discard();
        throw e;
      }
    }

    @Override
    void discard() {
      try {
        out.close();
      } catch (IOException | RuntimeException e) {
        // the stream may already be broken; the delete below is what matters
      }
      try {
        as(() -> fs.delete(tmp, false));
      } catch (IOException | RuntimeException e) {
        LOG.warn(
            "{}: could not delete the temporary file {} ({}); cleanupOrphans will",
            url,
            tmp.getName(),
            e.toString());
      }
    }
  }
}
