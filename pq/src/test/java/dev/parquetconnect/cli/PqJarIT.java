package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/pq} running the packaged {@code pq/target/pq.jar} in its own JVM, as a user runs it:
 * the shaded jar must hold every class and native library the commands need (a missing one shows
 * only here, as the unit tests run on the test class path), exit codes must reach the shell, and a
 * closed pipe must end {@code cat} quietly.
 */
class PqJarIT {
  /** The repository, where bin/pq is; this module is one level below it. */
  private static final Path ROOT =
      Path.of(System.getProperty("repo.root", "..")).toAbsolutePath().normalize();

  private record Result(int exit, String out, String err) {}

  private static Result pq(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("bin/pq").toString()));
    command.addAll(List.of(args));
    return run(dir, command);
  }

  private static Result run(Path dir, List<String> command)
      throws IOException, InterruptedException {
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    process.getOutputStream().close();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("pq did not finish: " + command);
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void theJarIsThere() {
    assertTrue(
        Files.isRegularFile(ROOT.resolve("pq/target/pq.jar")),
        "mvn package builds pq/target/pq.jar");
  }

  @Test
  void verifiesAFileOfEveryCodecTheCorpusHas(@TempDir Path dir) throws Exception {
    for (String name :
        List.of(
            "alltypes_plain.parquet",
            "alltypes_plain.snappy.parquet",
            "data_index_bloom_encoding_stats.parquet",
            "byte_stream_split.zstd.parquet",
            "lz4_raw_compressed.parquet",
            "hadoop_lz4_compressed.parquet")) {
      Path file = Corpus.file("data/" + name);
      Result result = pq(dir, "verify", file.toString());
      assertEquals(0, result.exit(), name + ": " + result.err());
      assertTrue(result.out().startsWith("OK "), result.out());
    }
  }

  @Test
  void writesEveryCodec(@TempDir Path dir) throws Exception {
    Path in = Corpus.file("data/nested_lists.snappy.parquet");
    String expected = PqRun.run("cat", in).out();
    for (String codec :
        List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4", "brotli")) {
      Path out = dir.resolve(codec + ".parquet");
      Result rewrite = pq(dir, "rewrite", in.toString(), out.toString(), "--codec", codec);
      assertEquals(0, rewrite.exit(), codec + ": " + rewrite.err());
      Result verify = pq(dir, "verify", out.toString());
      assertEquals(0, verify.exit(), codec + ": " + verify.err());
      assertEquals(expected, pq(dir, "cat", out.toString()).out(), codec);
    }
    Path merged = dir.resolve("merged.parquet");
    Result merge =
        pq(
            dir,
            "merge",
            merged.toString(),
            dir.resolve("gzip.parquet").toString(),
            dir.resolve("brotli.parquet").toString());
    assertEquals(0, merge.exit(), merge.err());
  }

  @Test
  void printsAndFailsLikeTheInProcessTool(@TempDir Path dir) throws Exception {
    Path file = Corpus.file("data/nested_maps.snappy.parquet");
    Result schema = pq(dir, "schema", file.toString());
    assertEquals(0, schema.exit(), schema.err());
    assertEquals(PqRun.run("schema", file).out(), schema.out());
    Result cat = pq(dir, "cat", file.toString(), "--limit", "2");
    assertEquals(PqRun.run("cat", file, "--limit", "2").out(), cat.out());

    Result corrupt =
        pq(dir, "verify", Corpus.file("data/datapage_v1-corrupt-checksum.parquet").toString());
    assertEquals(1, corrupt.exit());
    assertEquals(1, corrupt.err().lines().count(), corrupt.err());
    Result encrypted =
        pq(dir, "verify", Corpus.file("data/uniform_encryption.parquet.encrypted").toString());
    assertEquals(3, encrypted.exit());
    Result usage = pq(dir, "nonsense");
    assertEquals(2, usage.exit());
  }

  @Test
  void aClosedPipeEndsCatQuietly(@TempDir Path dir) throws Exception {
    Path file = Corpus.file("data/hadoop_lz4_compressed_larger.parquet");
    Result result =
        run(
            dir,
            List.of(
                "bash",
                "-c",
                "bash '"
                    + ROOT.resolve("bin/pq")
                    + "' cat '"
                    + file
                    + "' | head -n 1; exit ${PIPESTATUS[0]}"));
    assertEquals(0, result.exit(), result.err());
    assertEquals("", result.err());
    assertEquals(1, result.out().lines().count());
  }
}
