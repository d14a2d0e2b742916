package dev.parquetconnect.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the Markdown of docs/ names in {@code code spans} and relative links, checked against the
 * repository: a class (a CamelCase name), a member of one ({@code Class.member}, {@code
 * Class#member}, {@code Class.method(args)}), a class under a package ({@code sink/ParquetFiles},
 * {@code connect.ParquetToConnect}), a package folder ({@code format/write}) or a path from the
 * repository's root ({@code docs/storage.md}, {@code src/quickstart/pom.xml}).
 *
 * <p>Sources are found wherever they live: a class is any {@code Name.java} in the repository or a
 * type declared in one (so the check survives moving files between folders and Maven modules), a
 * package folder any folder of that path under a {@code dev/parquetconnect} folder. Any other path
 * whose first folder is one of the root's entries, or a folder anywhere in the repository (such as
 * {@code src} once the sources live in modules), must exist exactly as written from the root.
 *
 * <p>Not checked, because nothing here can tell whether they are ours: spans with spaces or
 * placeholders (commands, key patterns such as {@code <topics.dir>/_markers/...}), paths into other
 * trees (an archive's {@code lib/}, a Kafka installation, a Docker image, a store's data), build
 * output and runtime data ({@code target/}, {@code data/}, {@code ../shared}), and bare file names
 * other than {@code Name.java} (other projects' spec and config files).
 */
final class DocReferences {
  /**
   * Type names the docs use that are not ours, by where they come from. Only names a doc really
   * uses belong here: each is a name the check cannot find in this repository.
   */
  static final Map<String, List<String>> OTHER_PROJECTS =
      Map.of(
          "the JDK",
              List.of(
                  "ArrayList",
                  "BigDecimal",
                  "BigInteger",
                  "ByteArrayInputStream",
                  "ByteArrayOutputStream",
                  "ClassCastException",
                  "FileAlreadyExistsException",
                  "GSSException",
                  "HashSet",
                  "IOException",
                  "IllegalArgumentException",
                  "Instant",
                  "Math",
                  "OutOfMemoryError",
                  "OutputStream",
                  "RandomAccess",
                  "Runtime",
                  "String",
                  "VarHandle"),
          "Kafka and Kafka Connect (and Confluent's Avro converter)",
              List.of(
                  "AvroData",
                  "ConnectDistributed",
                  "DataException",
                  "EnvVarConfigProvider",
                  "ErrantRecordReporter",
                  "Header",
                  "KafkaRaftServer",
                  "Password",
                  "RegexRouter",
                  "SinkRecord",
                  "SinkTaskContext",
                  "SourceRecord",
                  "Struct",
                  "Time",
                  "TopicPartition",
                  "WorkerSinkTask",
                  // Confluent's storage connectors (docs/migrating.md)
                  "HdfsSinkConnectorConfig",
                  "HiveConfig",
                  "ParquetFormat",
                  "PartitionerConfig",
                  "S3SinkConnectorConfig",
                  "StorageCommonConfig",
                  "StorageSinkConnectorConfig",
                  "TimeBasedPartitioner"),
          "parquet-java, Avro and Thrift (the peers of the benchmarks and the oracles)",
              List.of(
                  "AvroParquetReader",
                  "AvroParquetWriter",
                  "Binary",
                  "BinaryPlainValuesReader",
                  "ByteBufferInputStream",
                  "ByteStreamSplitValuesReaderForDouble",
                  "DeltaBinaryPackingValuesReader",
                  "DeltaBinaryPackingValuesWriterForLong",
                  "DeltaByteArrayReader",
                  "DeltaLengthByteArrayValuesReader",
                  "DictionaryValuesReader",
                  "DoublePlainValuesReader",
                  "ExampleParquetWriter",
                  "GenericData",
                  "GenericRecordBuilder",
                  "GroupReadSupport",
                  "LongPlainValuesReader",
                  "ParquetMetadata",
                  "ParquetReader",
                  "PlainBinaryDictionary",
                  "PlainBinaryDictionaryValuesWriter",
                  "PlainLongDictionary",
                  "PlainLongDictionaryValuesWriter",
                  "RunLengthBitPackingHybridDecoder",
                  "RunLengthBitPackingHybridValuesReader",
                  "TCompactProtocol",
                  "TField",
                  "TList",
                  "Util",
                  "ZstdCompressCtx"),
          "Spark and Trino (read for compatibility facts)",
              List.of(
                  "MetadataReader",
                  "MutableDouble",
                  "MutableLong",
                  "ParquetReaderOptions",
                  "ParquetSchemaConverter",
                  "ParquetTypeUtils",
                  "SchemaColumnConvertNotSupportedException",
                  "ValueDecoders",
                  "VectorizedColumnReader"),
          "Hadoop and Kerberos",
              List.of(
                  "AccessControlException",
                  "AuthenticationMethod",
                  "DistributedFileSystem",
                  "FileSystem",
                  "LocalFileSystem",
                  "MiniDFSCluster",
                  "SafeModeException",
                  "SimpleKdcServer",
                  "UserGroupInformation"),
          "the S3 API (operations, errors, lifecycle rules, HTTP headers) and STS",
              List.of(
                  "AbortIncompleteMultipartUpload",
                  "AbortMultipartUpload",
                  "AssumeRole",
                  "CreateMultipartUpload",
                  "ListMultipartUploads",
                  "NoSuchUpload",
                  "PutObject",
                  "Range"),
          "JMH and the JVM (a benchmark's sink, a JIT flag)",
              List.of("Blackhole", "FreqInlineSize"),
          "not types: floating-point values", List.of("Infinity", "NaN"));

  /** Members every class has, though its own source need not mention them. */
  private static final Set<String> OBJECT_MEMBERS =
      Set.of("toString", "equals", "hashCode", "getClass");

  /** Package prefixes of other projects' fully qualified names, which must load. */
  private static final List<String> FOREIGN_PACKAGES =
      List.of("java.", "javax.", "org.", "com.", "software.", "io.");

  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]*)(#[^)\\s]*)?\\)");

  /**
   * A type reference: optional folders ({@code sink/}) or packages ({@code sink.}), the type,
   * optional members ({@code .member}, {@code #member}) and an optional argument list.
   */
  private static final Pattern TYPE_REFERENCE =
      Pattern.compile(
          "((?:[a-z][\\w-]*/)*)"
              + "((?:[a-z][a-z0-9_]*\\.)*)([A-Z]\\w*)((?:[.#][A-Za-z_]\\w*)*)(\\(.*\\))?");

  private static final Pattern PATH = Pattern.compile("[\\w.+-]+(?:/[\\w.+-]+)*/?");
  private static final Pattern MEMBER = Pattern.compile("[.#]([A-Za-z_]\\w*)");

  /** A type declaration at the start of a line (not a word "class" in a comment). */
  private static final Pattern DECLARATION =
      Pattern.compile(
          "^\\s*(?:(?:public|protected|private"
              + "|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum"
              + "|@interface)\\s+([A-Z]\\w*)",
          Pattern.MULTILINE);

  private static final Set<String> FILE_EXTENSIONS =
      Set.of("md", "java", "xml", "json", "thrift", "sh", "properties", "yml", "yaml", "txt");

  /** First folders of paths to what a build or a run makes, or to what lies beside the project. */
  private static final Set<String> NOT_SOURCES = Set.of("target", "data", "..", ".");

  /**
   * Package folders of other projects' names in our test sources (a test class that must live in
   * {@code org/apache/...} to reach a package-private type): their names are no folders of ours, so
   * a doc's {@code apache/kafka} (an image) is not read as a path into them.
   */
  private static final Pattern FOREIGN_PACKAGE =
      Pattern.compile("(.*/)?src/[^/]+/java/(?!dev(/|$)).*");

  /** Folders never indexed: build output and Git; and the root's data/, the quickstart's state. */
  private static final Set<String> SKIPPED_FOLDERS = Set.of("target", ".git", "node_modules");

  /** One thing a doc names that does not exist. */
  record Problem(String doc, int line, String span, String reason) {
    @Override
    public String toString() {
      return doc + ":" + line + ": `" + span + "`: " + reason;
    }
  }

  private final Path root;

  /** Every file and folder, relative to the root, with {@code /} between names. */
  private final Set<String> paths = new HashSet<>();

  private final Map<String, List<Path>> typeSources = new HashMap<>();
  private final Set<String> rootEntries = new HashSet<>();

  /** The names of the folders directly under any {@code dev/parquetconnect} folder. */
  private final Set<String> packages = new HashSet<>();

  /** The names of all folders, wherever they are. */
  private final Set<String> folderNames = new HashSet<>();

  private final Set<String> otherProjects = new HashSet<>();

  /** The names of {@link #OTHER_PROJECTS} that the docs checked so far use. */
  private final Set<String> otherProjectsUsed = new HashSet<>();

  private final Map<Path, String> sourceText = new HashMap<>();
  private final Map<Path, String> code = new HashMap<>();

  private DocReferences(Path root) {
    this.root = root;
    OTHER_PROJECTS.values().forEach(otherProjects::addAll);
  }

  /** The repository's root: the nearest folder up from the working directory with docs/. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("docs/architecture.md"))) {
        return d;
      }
    }
    throw new IllegalStateException("no docs/architecture.md in " + dir + " or above");
  }

  /** Indexes the files, folders and Java types of the repository at {@code root}. */
  static DocReferences index(Path root) throws IOException {
    DocReferences refs = new DocReferences(root);
    try (Stream<Path> entries = Files.list(root)) {
      entries.forEach(p -> refs.rootEntries.add(p.getFileName().toString()));
    }
    refs.walk(root);
    return refs;
  }

  private void walk(Path dir) throws IOException {
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = list.toList();
    }
    for (Path child : children) {
      String name = child.getFileName().toString();
      String relative = root.relativize(child).toString().replace('\\', '/');
      if (Files.isDirectory(child)) {
        if (SKIPPED_FOLDERS.contains(name) || dir.equals(root) && name.equals("data")) {
          continue;
        }
        paths.add(relative);
        if (!FOREIGN_PACKAGE.matcher(relative).matches()) {
          folderNames.add(name);
        }
        if (relative.endsWith("dev/parquetconnect/" + name)) {
          packages.add(name);
        }
        walk(child);
      } else {
        paths.add(relative);
        if (name.endsWith(".java")) {
          addType(name.substring(0, name.length() - 5), child);
          Matcher m = DECLARATION.matcher(text(child));
          while (m.find()) {
            addType(m.group(1), child);
          }
        }
      }
    }
  }

  private void addType(String name, Path source) {
    List<Path> sources = typeSources.computeIfAbsent(name, k -> new ArrayList<>());
    if (!sources.contains(source)) {
      sources.add(source);
    }
  }

  private String text(Path file) {
    return sourceText.computeIfAbsent(
        file,
        f -> {
          try {
            return Files.readString(f, StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** What {@code markdown} (the doc {@code docName}, a path from the root) names that is not. */
  List<Problem> check(String docName, String markdown) {
    List<Problem> problems = new ArrayList<>();
    String prose = withoutFencedBlocks(markdown);
    Matcher span = SPAN.matcher(prose);
    while (span.find()) {
      String text = span.group(1).strip().replaceAll("\\s+", " ");
      String reason = checkSpan(text);
      if (reason != null) {
        problems.add(new Problem(docName, lineOf(prose, span.start()), text, reason));
      }
    }
    Path docDir = root.resolve(docName).getParent();
    Matcher link = LINK.matcher(prose);
    while (link.find()) {
      String target = link.group(1);
      if (target.isEmpty() || target.contains(":")) {
        continue; // an anchor in the same doc, or a URL
      }
      if (!Files.exists(docDir.resolve(target))) {
        problems.add(
            new Problem(docName, lineOf(prose, link.start()), target, "the link leads nowhere"));
      }
    }
    return problems;
  }

  /** The names of {@link #OTHER_PROJECTS} that the docs checked so far use. */
  Set<String> otherProjectsUsed() {
    return Set.copyOf(otherProjectsUsed);
  }

  /** Why {@code span} names something that does not exist, or null. */
  private String checkSpan(String span) {
    if (span.contains("/")
        && paths.contains(span.endsWith("/") ? span.substring(0, span.length() - 1) : span)) {
      return null; // a path from the root, even one that looks like a class (docker/Dockerfile)
    }
    Matcher type = TYPE_REFERENCE.matcher(span);
    if (type.matches() && !isFileName(type)) {
      return checkType(
          type.group(1) + type.group(2).replace('.', '/'), type.group(3), type.group(4));
    }
    int space = span.indexOf(' ');
    if (space >= 0) {
      // A command: only its program, when it is one of ours (bin/bench sink --cpu).
      String program = span.substring(0, space);
      return program.contains("/") && rootEntries.contains(firstFolder(program))
          ? checkPath(program)
          : null;
    }
    if (PATH.matcher(span).matches() && (span.contains("/") || span.endsWith(".java"))) {
      return checkPath(span);
    }
    return null;
  }

  /** {@code README.md} matches the type pattern, with a member {@code md}: it is a file name. */
  private static boolean isFileName(Matcher type) {
    String members = type.group(4);
    return type.group(5) == null
        && !members.isEmpty()
        && FILE_EXTENSIONS.contains(members.substring(members.lastIndexOf('.') + 1));
  }

  private String checkType(String folders, String name, String members) {
    if (!name.chars().anyMatch(Character::isLowerCase)) {
      return null; // a constant, an acronym or an enum value (PLAIN, LZ4_RAW, PAR1)
    }
    if (!folders.isEmpty()) {
      String dotted = folders.replace('/', '.') + name;
      if (FOREIGN_PACKAGES.stream().anyMatch(dotted::startsWith)) {
        return loads(dotted) ? null : "no such class on the test classpath";
      }
      String file = "/" + folders + name + ".java";
      if (paths.stream().noneMatch(p -> p.endsWith(file))) {
        return "no " + folders + name + ".java in the repository";
      }
    }
    if (otherProjects.contains(name)) {
      otherProjectsUsed.add(name);
    }
    List<Path> sources = typeSources.get(name);
    if (sources == null) {
      if (otherProjects.contains(name)) {
        return null;
      }
      if (typeSources.containsKey(name + "Bench")) {
        return null; // a benchmark as its results name it
      }
      return "no class "
          + name
          + " in the repository, nor among other projects' names "
          + "(DocReferences.OTHER_PROJECTS)";
    }
    Matcher member = MEMBER.matcher(members);
    while (member.find()) {
      String m = member.group(1);
      if (!OBJECT_MEMBERS.contains(m) && !mentions(sources, m)) {
        // A test's own Struct does not make Connect's Struct.values ours: whose it is, is unknown.
        return otherProjects.contains(name) ? null : name + " has no member " + m;
      }
    }
    return null;
  }

  /** Whether the code of {@code sources}, comments left out, uses {@code identifier}. */
  private boolean mentions(List<Path> sources, String identifier) {
    Pattern word = Pattern.compile("\\b" + Pattern.quote(identifier) + "\\b");
    for (Path source : sources) {
      if (word.matcher(codeWithoutComments(source)).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The source without its comments, so that a member a comment still names ("the claim") after the
   * code renamed it is not taken for the member. String literals are kept as they are.
   */
  private String codeWithoutComments(Path source) {
    return code.computeIfAbsent(
        source,
        f -> {
          String text = text(f);
          StringBuilder out = new StringBuilder(text.length());
          int i = 0;
          while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '/' && text.startsWith("//", i)) {
              int end = text.indexOf('\n', i);
              i = end < 0 ? text.length() : end;
            } else if (c == '/' && text.startsWith("/*", i)) {
              int end = text.indexOf("*/", i + 2);
              i = end < 0 ? text.length() : end + 2;
              out.append(' ');
            } else if (c == '"' || c == '\'') {
              int end = i + 1;
              while (end < text.length() && text.charAt(end) != c && text.charAt(end) != '\n') {
                end += text.charAt(end) == '\\' ? 2 : 1;
              }
              end = Math.min(end + 1, text.length());
              out.append(text, i, end);
              i = end;
            } else {
              out.append(c);
              i++;
            }
          }
          return out.toString();
        });
  }

  private static boolean loads(String className) {
    try {
      Class.forName(className, false, DocReferences.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** A module's build output ({@code pq/target/pq.jar}): made by the build, not a source. */
  private boolean isBuildOutput(String path) {
    int slash = path.indexOf('/');
    return slash > 0
            && rootEntries.contains(path.substring(0, slash))
            && path.startsWith("target/", slash + 1)
        || path.endsWith("/target");
  }

  private String checkPath(String span) {
    String path = span.endsWith("/") ? span.substring(0, span.length() - 1) : span;
    String first = firstFolder(path);
    if (NOT_SOURCES.contains(first) || isBuildOutput(path)) {
      return null;
    }
    if (!path.contains("/") && path.endsWith(".java")) {
      // Of the bare file names only a Java source is surely ours, and found wherever it is.
      String name = path.substring(0, path.length() - ".java".length());
      return typeSources.containsKey(name) ? null : "no " + path + " in the repository";
    }
    if (packages.contains(first) && !rootEntries.contains(first)) {
      String asFolder = "/" + path;
      String asClass = asFolder + ".java";
      return paths.stream().anyMatch(p -> p.endsWith(asFolder) || p.endsWith(asClass))
          ? null
          : "no such package folder or class in the repository";
    }
    if (rootEntries.contains(first) || folderNames.contains(first)) {
      // From the root, exactly: src/test/java/... once the sources live in modules is stale.
      return paths.contains(path) ? null : "no such file or folder from the repository's root";
    }
    return null; // a path in another tree: an archive, an installation, an image, a store
  }

  private static String firstFolder(String path) {
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  /** The text with fenced code blocks blanked (commands and output), line breaks kept. */
  private static String withoutFencedBlocks(String markdown) {
    StringBuilder out = new StringBuilder(markdown.length());
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.stripLeading().startsWith("```")) {
        fenced = !fenced;
        out.append('\n');
        continue;
      }
      out.append(fenced ? "" : line).append('\n');
    }
    return out.toString();
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
