package dev.parquetconnect.storage;

import dev.parquetconnect.format.io.LocalFileInput;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory on a local (or locally mounted) file system, through java.nio.
 *
 * <p>A new file is written to {@code .tmp-pqc-<random>-<name>} in its final directory, fsynced, and
 * published with a hard link to the final name ({@code link(2)} fails atomically if the name
 * exists, so nothing is ever replaced), after which the temporary name is removed and the directory
 * fsynced. On a file system without hard links the publication falls back to a rename after an
 * existence check, which is atomic in visibility but can race with a concurrent writer of the same
 * name (logged once). Symbolic links are neither followed in listings nor accepted on the way to a
 * file outside the root.
 */
public final class LocalStore implements Store {
  private static final Logger LOG = LoggerFactory.getLogger(LocalStore.class);

  /**
   * Per open file: a sink may hold thousands, each buffer counted in its memory budget. The writer
   * hands over whole column chunks, which pass the buffer; it only gathers headers and footers.
   */
  private static final int BUFFER = 8 * 1024;

  private final Path root;
  private final Path realRoot;
  private volatile boolean linkFallbackLogged;

  /** Opens (and creates, if missing) the directory {@code root}, which must be absolute. */
  public LocalStore(Path root) throws IOException {
    if (!root.isAbsolute()) {
      throw new IllegalArgumentException("a local store root must be absolute: " + root);
    }
    this.root = root.normalize();
    Files.createDirectories(this.root);
    this.realRoot = this.root.toRealPath();
  }

  @Override
  public String url() {
    String u = root.toUri().toString();
    return u.endsWith("/") && u.length() > "file:///".length() ? u.substring(0, u.length() - 1) : u;
  }

  private String url(String key) {
    return root.resolve(key).toUri().toString();
  }

  /** The path of a key, refusing anything that would leave the root (also via symlinks). */
  private Path resolve(String key) throws IOException {
    StoreKeys.checkKey(key);
    Path p = root.resolve(key).normalize();
    if (!p.startsWith(root) || p.equals(root)) {
      throw new IllegalArgumentException("store key escapes the root: " + StoreKeys.printable(key));
    }
    checkInsideRoot(p.getParent(), key);
    return p;
  }

  private Path resolvePrefix(String prefix) throws IOException {
    StoreKeys.checkPrefix(prefix);
    if (prefix.isEmpty()) {
      return root;
    }
    Path p = root.resolve(prefix).normalize();
    checkInsideRoot(p, prefix);
    return p;
  }

  /** The nearest existing ancestor of {@code dir} (inclusive) must really be inside the root. */
  private void checkInsideRoot(Path dir, String key) throws IOException {
    Path d = dir;
    while (d != null && d.startsWith(root) && !Files.exists(d, LinkOption.NOFOLLOW_LINKS)) {
      d = d.getParent();
    }
    if (d == null || !d.startsWith(root)) {
      throw new IllegalArgumentException("store key escapes the root: " + StoreKeys.printable(key));
    }
    if (!d.toRealPath().startsWith(realRoot)) {
      throw new IllegalArgumentException(
          "store key leads outside the root through a symbolic link: " + StoreKeys.printable(key));
    }
  }

  @Override
  public StoreInput open(String key) throws IOException {
    Path p = resolve(key);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(url(key), null, "no such file in the store");
    }
    LocalFileInput in = new LocalFileInput(p);
    String name = url(key);
    return new StoreInput() {
      @Override
      public long length() throws IOException {
        return in.length();
      }

      @Override
      public void readFully(long position, byte[] dst, int off, int len) throws IOException {
        in.readFully(position, dst, off, len);
      }

      @Override
      public long bytesRead() {
        return in.bytesRead();
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  @Override
  public StoreOutput create(String key) throws IOException {
    Path target = resolve(key);
    Path dir = target.getParent();
    Files.createDirectories(dir);
    checkInsideRoot(dir, key);
    Path tmp = dir.resolve(StoreKeys.temporaryName(target.getFileName().toString()));
    FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new LocalOutput(key, target, tmp, ch);
  }

  @Override
  public List<StoreFile> list(String prefix, boolean recursive) throws IOException {
    Path dir = resolvePrefix(prefix);
    List<StoreFile> out = new ArrayList<>();
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return out;
    }
    if (!recursive) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
        for (Path p : ds) {
          String name = p.getFileName().toString();
          String key = StoreKeys.join(prefix, name);
          if (StoreKeys.isTemporaryName(name) || !StoreKeys.isValidKey(key)) {
            continue;
          }
          BasicFileAttributes a;
          try {
            a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          } catch (NoSuchFileException gone) {
            continue;
          }
          if (a.isDirectory()) {
            out.add(new StoreFile(key, 0, a.lastModifiedTime().toInstant(), true));
          } else if (a.isRegularFile()) {
            out.add(new StoreFile(key, a.size(), a.lastModifiedTime().toInstant(), false));
          }
        }
      }
    } else {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path p, BasicFileAttributes a) {
              if (a.isRegularFile() && !StoreKeys.isTemporaryName(p.getFileName().toString())) {
                String key = keyOf(p);
                if (StoreKeys.isValidKey(key)) {
                  out.add(new StoreFile(key, a.size(), a.lastModifiedTime().toInstant(), false));
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // removed while listing
              }
              throw e;
            }
          });
    }
    out.sort((a, b) -> StoreKeys.compareUtf8(a.key(), b.key()));
    return out;
  }

  private String keyOf(Path p) {
    Path rel = root.relativize(p);
    StringBuilder sb = new StringBuilder();
    for (Path part : rel) {
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(part);
    }
    return sb.toString();
  }

  @Override
  public boolean exists(String key) throws IOException {
    return Files.isRegularFile(resolve(key), LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public StoreFile stat(String key) throws IOException {
    Path p = resolve(key);
    try {
      BasicFileAttributes a =
          Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (a.isRegularFile()) {
        return new StoreFile(key, a.size(), a.lastModifiedTime().toInstant(), false);
      }
    } catch (NoSuchFileException e) {
      // fall through
    }
    throw new NoSuchFileException(url(key), null, "no such file in the store");
  }

  @Override
  public void delete(String key) throws IOException {
    Path p = resolve(key);
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileSystemException(url(key), null, "is a directory, not a file");
    }
    Files.deleteIfExists(p);
  }

  @Override
  public void move(String from, String to) throws IOException {
    Path src = resolve(from);
    Path dst = resolve(to);
    if (!Files.isRegularFile(src, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(url(from), null, "no such file in the store");
    }
    Files.createDirectories(dst.getParent());
    checkInsideRoot(dst.getParent(), to);
    if (publish(src, dst, to)) {
      Files.delete(src);
    }
    syncDirectory(dst.getParent());
    if (!src.getParent().equals(dst.getParent())) {
      syncDirectory(src.getParent());
    }
  }

  /**
   * Makes {@code src} visible as {@code dst} without ever replacing {@code dst}.
   *
   * @return true if {@code src} is still there (a hard link was made) and must be removed
   */
  private boolean publish(Path src, Path dst, String key) throws IOException {
    try {
      Files.createLink(dst, src);
      return true;
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
    } catch (UnsupportedOperationException | FileSystemException e) {
      if (e instanceof NoSuchFileException) {
        throw (NoSuchFileException) e;
      }
      if (!linkFallbackLogged) {
        linkFallbackLogged = true;
        LOG.warn(
            "{}: hard links are not supported here ({}); publishing by rename after an "
                + "existence check, which a concurrent writer of the same name can race",
            url(),
            e.getClass().getSimpleName());
      }
    }
    if (Files.exists(dst, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
    }
    Files.move(src, dst); // without REPLACE_EXISTING: refuses an existing target
    return false;
  }

  @Override
  public int cleanupOrphans(String prefix, Instant olderThan, Predicate<String> finalName)
      throws IOException {
    Path dir = resolvePrefix(prefix);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    int[] removed = {0};
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path p, BasicFileAttributes a) throws IOException {
            if (a.isRegularFile()
                && StoreKeys.isTemporaryName(p.getFileName().toString())
                && finalName.test(StoreKeys.finalNameOfTemporary(p.getFileName().toString()))
                && a.lastModifiedTime().toInstant().isBefore(olderThan)) {
              if (Files.deleteIfExists(p)) {
                removed[0]++;
                LOG.info("{}: removed the orphaned temporary file {}", url(), keyOf(p));
              }
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    return removed[0];
  }

  private static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some file systems refuse to open or sync a directory; the data itself is synced
    }
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "LocalStore[" + url() + "]";
  }

  /**
   * Writes straight to the channel. {@code Channels.newOutputStream} keeps the last array written
   * through it to wrap it again, and column chunks pass the buffer: each open file then held its
   * last chunk (13 KB in MemoryHarness's JSON case, 1,000 open files), uncounted by the budget.
   */
  static final class ChannelStream extends OutputStream {
    private final FileChannel channel;

    ChannelStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }
  }

  private final class LocalOutput extends TrackedOutput {
    private final Path target;
    private final Path tmp;
    private final FileChannel channel;
    private final OutputStream out;

    LocalOutput(String key, Path target, Path tmp, FileChannel channel) {
      super(key, url(key));
      this.target = target;
      this.tmp = tmp;
      this.channel = channel;
      this.out = new BufferedOutputStream(new ChannelStream(channel), BUFFER);
    }

    @Override
    public long heapBytes() {
      return closed() ? 0 : BUFFER;
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
        target = resolve(finalKey);
      }
      markClosed();
      try {
        out.flush();
        channel.force(true);
        channel.close();
        if (!Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
          throw new IOException(
              url(finalKey)
                  + ": the temporary file was removed before the "
                  + "commit (a cleanup fenced this writer)");
        }
        publish(tmp, target, finalKey);
        markCommitted();
      } catch (IOException | RuntimeException e) {
        discard();
        throw e;
      }
      try {
        Files.deleteIfExists(tmp);
      } finally {
        syncDirectory(target.getParent());
      }
    }

    @Override
    void discard() throws IOException {
      try {
        channel.close();
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }
}
