package dev.parquetconnect.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The shared parquet-testing corpus (system property {@code shared.dir}), read in place. */
final class Corpus {
  private Corpus() {}

  static Path root() {
    return Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing");
  }

  static Path file(String relative) {
    return root().resolve(relative);
  }

  /** The corpus-relative name of {@code file}, as tables and messages show it. */
  static String name(Path file) {
    return root().relativize(file).toString();
  }

  /** Every file of data/ (with aes256/) and bad_data/, sorted. */
  static List<Path> allFiles() {
    try (Stream<Path> data = Files.walk(root().resolve("data"));
        Stream<Path> bad = Files.walk(root().resolve("bad_data"))) {
      return Stream.concat(data, bad)
          .filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".md"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
