package dev.parquetconnect.cli;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.io.RemoteDirectories;
import dev.parquetconnect.format.io.SeekableInput;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The files of an archive {@code pq audit} checks: their keys below the archive's root ({@code /}
 * separated), sizes and contents. Local directories here; other stores plug in their own.
 */
interface Archive extends Closeable {
  /** One file: its key below the root and its size in bytes. */
  record Entry(String key, long size) {
    String name() {
      return key.substring(key.lastIndexOf('/') + 1);
    }
  }

  /** Every file below the root, recursively, in key order. */
  List<Entry> list() throws IOException;

  /** Opens a listed file for ranged reads. */
  SeekableInput open(String key) throws IOException;

  /** The archive as the user named it. */
  String name();

  /** Whether every listed file is committed (an Iceberg table's): no attempt supersedes another. */
  default boolean everyFileCommitted() {
    return false;
  }

  @Override
  default void close() throws IOException {}

  /**
   * The archive at {@code location}: a local path or {@code file://} URL, or a URL of a store a
   * {@link RemoteDirectories} provider on the class path opens (the Connect plugin's, for {@code
   * hdfs://} and {@code s3://}) with {@code settings}.
   */
  static Archive open(String location, Map<String, String> settings)
      throws IOException, InputException {
    if (!location.matches("[A-Za-z][A-Za-z0-9+.-]*://.*")) {
      return local(location);
    }
    if (location.regionMatches(true, 0, "file://", 0, 7)) {
      return local(Path.of(URI.create(location)).toString());
    }
    for (RemoteDirectories provider : ServiceLoader.load(RemoteDirectories.class)) {
      if (provider.opens(location)) {
        RemoteDirectories.Directory directory;
        try {
          directory = provider.open(location, settings);
        } catch (IllegalArgumentException e) {
          throw new InputException(location + ": " + e.getMessage());
        }
        return new Archive() {
          @Override
          public List<Entry> list() throws IOException {
            List<Entry> entries = new ArrayList<>();
            for (RemoteDirectories.Directory.Entry e : directory.list()) {
              entries.add(new Entry(e.key(), e.size()));
            }
            return entries;
          }

          @Override
          public SeekableInput open(String key) throws IOException {
            return directory.open(key);
          }

          @Override
          public String name() {
            return location;
          }

          @Override
          public boolean everyFileCommitted() {
            return directory.everyFileCommitted();
          }

          @Override
          public void close() throws IOException {
            directory.close();
          }
        };
      }
    }
    throw new InputException(
        "no store for "
            + location.substring(0, location.indexOf("://") + 3)
            + " URLs on the class path: run pq with the Connect plugin's jars (bin/pq adds"
            + " plugin/target/plugin/lib when it exists), or audit a local copy or mount");
  }

  /** The directory {@code root} on local disk. */
  static Archive local(String root) throws IOException {
    Path dir = Path.of(root);
    if (!Files.isDirectory(dir)) {
      throw new NoSuchFileException(root, null, "not a directory");
    }
    return new Archive() {
      @Override
      public List<Entry> list() throws IOException {
        List<Entry> entries = new ArrayList<>();
        Files.walkFileTree(
            dir,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile()) {
                  String key = dir.relativize(file).toString().replace('\\', '/');
                  entries.add(new Entry(key, attrs.size()));
                }
                return FileVisitResult.CONTINUE;
              }
            });
        entries.sort((a, b) -> a.key().compareTo(b.key()));
        return entries;
      }

      @Override
      public SeekableInput open(String key) throws IOException {
        return new LocalFileInput(dir.resolve(key));
      }

      @Override
      public String name() {
        return root;
      }
    };
  }
}
