package dev.parquetconnect.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.docs.DocReferences.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The map does not lie: every class, member, package folder and file that docs/architecture.md (and
 * README.md and every other doc in docs/) names exists in the repository, wherever its sources
 * live, and every relative link leads somewhere. A name that is not ours must be one of the other
 * projects' names in {@link DocReferences#OTHER_PROJECTS}.
 *
 * <p>When a class moves or is renamed, this test names each doc line that still says the old name.
 */
final class ArchitectureMapTest {
  private static Path root;
  private static DocReferences references;

  @BeforeAll
  static void indexTheRepository() throws IOException {
    root = DocReferences.repositoryRoot();
    references = DocReferences.index(root);
  }

  @Test
  void theArchitectureMapNamesOnlyWhatExists() throws IOException {
    assertNoProblems("docs/architecture.md");
  }

  /** The walks are there and name the classes a record passes through. */
  @Test
  void theArchitectureMapWalksARecordThroughTheSinkAndTheSource() throws IOException {
    String map = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
    for (String name :
        List.of(
            "ParquetSinkTask.put",
            "TopicPartitionWriter",
            "Epoch",
            "OpenFile",
            "MarkerLog",
            "CommitMarkers",
            "DeferredOutput",
            "ConnectRecordShredder",
            "ColumnChunkWriter",
            "ParquetFileWriter",
            "FileDiscovery",
            "FileCursor",
            "PartitionReplay",
            "SourcePositions",
            "ConnectRecordReader",
            "ReplayRowMapper")) {
      assertTrue(map.contains("`" + name), "docs/architecture.md never names `" + name + "`");
    }
  }

  /** README.md and every doc in docs/ but the map. */
  static Stream<String> otherDocs() throws IOException {
    Path docs = DocReferences.repositoryRoot().resolve("docs");
    try (Stream<Path> files = Files.list(docs)) {
      return Stream.concat(
          Stream.of("README.md"),
          files
              .map(p -> "docs/" + p.getFileName())
              .filter(name -> name.endsWith(".md") && !name.equals("docs/architecture.md"))
              .sorted())
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("otherDocs")
  void everyOtherDocNamesOnlyWhatExists(String doc) throws IOException {
    assertNoProblems(doc);
  }

  /** The allow-list of other projects' names holds only names some doc uses. */
  @Test
  void everyNameOfOtherProjectsIsUsedByADoc() throws IOException {
    DocReferences fresh = DocReferences.index(root);
    for (String doc : Stream.concat(Stream.of("docs/architecture.md"), otherDocs()).toList()) {
      fresh.check(doc, Files.readString(root.resolve(doc), StandardCharsets.UTF_8));
    }
    Set<String> unused = new TreeSet<>();
    DocReferences.OTHER_PROJECTS.values().forEach(unused::addAll);
    unused.removeAll(fresh.otherProjectsUsed());
    assertTrue(
        unused.isEmpty(),
        "no doc names " + unused + ": drop them from DocReferences.OTHER_PROJECTS");
  }

  /** Fail first: names made up for this test are each caught, and only they. */
  @Test
  void madeUpNamesAreCaught() {
    String doc =
        String.join(
            "\n",
            "A record goes from `ParquetSinkTask.put` to `TopicPartitionWriter#commit`, whose",
            "`Epoch` holds `OpenFile`s (`Epoch.files()`, `ParquetFiles.MAX_LEARNED_COLUMNS`) in",
            "`format/write`, `sink/ParquetSinkTask` and `connect.ParquetToConnect`; see",
            "`docs/exactly-once.md`, [the storage doc](storage.md), `bin/bench sink --cpu`; Kafka",
            "hands over a `SinkRecord` and `java.nio.file.NoSuchFileException` is the JDK's.",
            "```",
            "`MadeUpButInsideAFence`",
            "```",
            "Made up: `MadeUpRouter`, `Epoch.madeUpMethod`, `TopicPartitionWriter#madeUp(intent)`,",
            "`sink/commit/MadeUpProtocol`, `connect.MadeUpConverter`, `format/madeup`,",
            "`docs/made-up.md`, `src/main/java/dev/parquetconnect/sink/MadeUp.java`,",
            "`bin/made-up --all`, `java.nio.file.MadeUpException`, [made up](made-up.md), and",
            "`TopicPartitionWriter.overtaken`, a word only its comments use.");
    List<Problem> problems = references.check("docs/made-up-doc.md", doc);
    assertEquals(
        List.of(
            "MadeUpRouter",
            "Epoch.madeUpMethod",
            "TopicPartitionWriter#madeUp(intent)",
            "sink/commit/MadeUpProtocol",
            "connect.MadeUpConverter",
            "format/madeup",
            "docs/made-up.md",
            "src/main/java/dev/parquetconnect/sink/MadeUp.java",
            "bin/made-up --all",
            "java.nio.file.MadeUpException",
            "TopicPartitionWriter.overtaken",
            "made-up.md"),
        problems.stream().map(Problem::span).toList(),
        () -> describe(problems));
    assertEquals(9, problems.get(0).line(), problems.get(0).toString());
  }

  private static void assertNoProblems(String doc) throws IOException {
    String text = Files.readString(root.resolve(doc), StandardCharsets.UTF_8);
    List<Problem> problems = references.check(doc, text);
    assertTrue(
        problems.isEmpty(), () -> doc + " names what does not exist:\n" + describe(problems));
  }

  private static String describe(List<Problem> problems) {
    return problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n"));
  }
}
