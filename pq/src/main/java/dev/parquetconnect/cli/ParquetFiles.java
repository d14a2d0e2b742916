package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Opens the local Parquet files the commands name. */
final class ParquetFiles {
  private ParquetFiles() {}

  static ParquetFileReader open(String name) throws IOException, ParquetException {
    return open(name, ReadOptions.defaults());
  }

  /**
   * Opens {@code name} and reads its footer; the reader reports errors under the name as given, so
   * messages show the path the user typed.
   */
  static ParquetFileReader open(String name, ReadOptions options)
      throws IOException, ParquetException {
    Path path = Path.of(name);
    if (Files.isDirectory(path)) {
      throw new FileSystemException(name, null, "is a directory, not a Parquet file");
    }
    if (!Files.exists(path)) {
      throw new NoSuchFileException(name);
    }
    LocalFileInput input = new LocalFileInput(path);
    try {
      return ParquetFileReader.open(input, options);
    } catch (IOException | ParquetException | RuntimeException e) {
      input.close();
      throw e;
    }
  }
}
