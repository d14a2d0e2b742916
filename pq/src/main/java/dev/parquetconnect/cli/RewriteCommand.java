package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code pq rewrite IN OUT [options]}: every row decoded by our reader and encoded again by our
 * writer, with the schema (names, repetition, each column's annotations as the input wrote them,
 * field ids: {@link WritableSchema}) and the file's key/value metadata kept, and the layout the
 * options ask for.
 *
 * <p>created_by becomes our writer's: readers apply workarounds for the bugs of the writer it names
 * (old parquet-mr statistics, Impala's chunk sizes), which must not be applied to ours.
 */
final class RewriteCommand implements Command {
  @Override
  public String name() {
    return "rewrite";
  }

  @Override
  public String summary() {
    return "re-encode a file (codec, page version, encodings, row groups)";
  }

  @Override
  public String help() {
    return """
        usage: pq rewrite IN OUT [--codec NAME] [--level N] [--page-version 1|2] \
        [--dictionary on|off] [--row-group-rows N] [--page-size BYTES] \
        [--policy adaptive|compatible] [--verify-checksums on|off]

        Decodes every row of IN with pq's reader and writes them to OUT with pq's writer,
        keeping the schema (names, repetition, logical and converted types exactly as IN
        annotates each column, field ids, column order), the key/value metadata and the values. OUT is written under a temporary name and renamed
        when complete: a failure leaves no partial file, and OUT may be IN. A logical type
        newer than pq is not written back (the column keeps its values; a warning says so).

        Options:
        """
        + WriterSettings.HELP;
  }

  @Override
  public Set<String> valuedOptions() {
    return WriterSettings.OPTIONS;
  }

  @Override
  public int run(Arguments args, CommandOutput output)
      throws UsageException, InputException, IOException, ParquetException {
    List<String> files = args.positionals(2, 2, "IN and OUT");
    String in = files.get(0);
    String out = files.get(1);
    ReadOptions readOptions =
        ReadOptions.defaults().withVerifyChecksums(WriterSettings.verifyChecksums(args));
    try (ParquetFileReader reader = ParquetFiles.open(in, readOptions)) {
      WritableSchema schema = WritableSchema.of(reader.metadata().schema());
      WriterOptions options =
          WriterSettings.options(
                  args,
                  codecOf(reader.rowGroups()),
                  keyValues(reader.metadata().keyValueMetadata()))
              .toBuilder()
              .footerSchema(schema.footer())
              .build();
      warnDropped(schema, in, output.err());
      long rows = 0;
      try (ParquetOutput target = ParquetOutput.create(out, schema.schema(), options);
          RowReader rowReader = reader.rowReader()) {
        while (rowReader.hasNext()) {
          target.writer().write(rowReader.next());
          rows++;
        }
        target.commit();
      }
      output.out().write(summary(out, rows, options));
    }
    return Pq.OK;
  }

  /** The codec of the input's first column chunk, or null for a file without any. */
  static CompressionCodec codecOf(List<RowGroup> rowGroups) {
    for (RowGroup rowGroup : rowGroups) {
      if (!rowGroup.columns().isEmpty()) {
        return rowGroup.columns().get(0).metaData().codec();
      }
    }
    return null;
  }

  static Map<String, String> keyValues(List<KeyValue> keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    if (keyValues != null) {
      for (KeyValue kv : keyValues) {
        map.put(kv.key(), kv.value());
      }
    }
    return map;
  }

  static void warnDropped(WritableSchema schema, String file, PrintStream err) {
    for (String column : schema.droppedAnnotations()) {
      err.println(
          "pq: warning: "
              + file
              + ": column "
              + column
              + " has an annotation pq does"
              + " not know; it is written without it (the values are unchanged)");
    }
  }

  /** One line: what was written, and how. */
  static String summary(String out, long rows, WriterOptions options) throws IOException {
    return "wrote "
        + out
        + ": "
        + rows
        + (rows == 1 ? " row, " : " rows, ")
        + Files.size(Path.of(out))
        + " bytes, "
        + options.codec()
        + ", page v"
        + (options.pageVersion() == PageVersion.V1 ? 1 : 2)
        + ", dictionary "
        + (options.dictionary() ? "on" : "off")
        + ", "
        + options.encodingPolicy().name().toLowerCase(Locale.ROOT)
        + " encodings\n";
  }
}
