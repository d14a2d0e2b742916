package dev.parquetconnect.cli;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.io.SeekableInput;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of an archive {@code pq audit} checks: their keys below the archive's root ({@code /}
 * separated), sizes and contents. Local directories here; other stores plug in their own.
 */
interface Archive {
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
