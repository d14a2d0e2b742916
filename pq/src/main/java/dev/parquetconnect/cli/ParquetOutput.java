package dev.parquetconnect.cli;

import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The file {@code pq rewrite} and {@code pq merge} write: written under a temporary name in the
 * target's directory and renamed over the target only once complete, so a failure (a damaged input,
 * a full disk) never leaves a partial Parquet file, nor destroys an existing target. Since the
 * inputs are read before the rename, the target may also be one of them.
 */
final class ParquetOutput implements AutoCloseable {
  private static final int BUFFER = 1 << 16;

  private final Path target;
  private final Path temporary;
  private final ParquetFileWriter writer;
  private boolean committed;

  private ParquetOutput(Path target, Path temporary, ParquetFileWriter writer) {
    this.target = target;
    this.temporary = temporary;
    this.writer = writer;
  }

  static ParquetOutput create(String target, MessageType schema, WriterOptions options)
      throws IOException, UnsupportedFeatureException {
    Path path = Path.of(target).toAbsolutePath();
    if (Files.isDirectory(path)) {
      throw new FileSystemException(target, null, "is a directory");
    }
    if (!Files.isDirectory(path.getParent())) {
      throw new FileSystemException(path.getParent().toString(), null, "no such directory");
    }
    // Not Files.createTempFile: its owner-only permissions would end up on the result, where
    // a file made with the user's umask is expected.
    Path temporary =
        path.resolveSibling(
            "."
                + path.getFileName()
                + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".pq-tmp");
    OutputStream out = null;
    try {
      out =
          new BufferedOutputStream(
              Files.newOutputStream(
                  temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              BUFFER);
      return new ParquetOutput(path, temporary, new ParquetFileWriter(out, schema, options));
    } catch (IOException | UnsupportedFeatureException | RuntimeException e) {
      if (out != null) {
        out.close();
      }
      Files.deleteIfExists(temporary);
      throw e;
    }
  }

  ParquetFileWriter writer() {
    return writer;
  }

  /** Finishes the file (footer) and puts it in place of the target. */
  void commit() throws IOException {
    writer.close();
    try {
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
    committed = true;
  }

  /** Without {@link #commit()}: abandons the file, deleting what was written. */
  @Override
  public void close() throws IOException {
    if (committed) {
      return;
    }
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      // The file is being abandoned; the failure that brought us here is the one to report.
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
