package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code pq merge OUT IN...}: the rows of files with the same schema, in the order given,
 * re-encoded into one file. Every footer is read and every schema compared before anything is
 * written; the inputs are then read one at a time.
 */
final class MergeCommand implements Command {
  @Override
  public String name() {
    return "merge";
  }

  @Override
  public String summary() {
    return "concatenate files with the same schema into one";
  }

  @Override
  public String help() {
    return """
        usage: pq merge OUT IN... [--codec NAME] [--level N] [--page-version 1|2] \
        [--dictionary on|off] [--row-group-rows N] [--page-size BYTES] \
        [--policy adaptive|compatible] [--verify-checksums on|off]

        Writes the rows of every IN, in the order given, to OUT, re-encoded by pq's writer.
        The inputs must have the same schema (names, repetition, types, logical and converted
        types and field ids); otherwise nothing is written and the first difference is named.
        OUT annotates every column exactly as the inputs do. Key/value
        metadata that every input has with the same value is kept; other keys are dropped,
        with a warning. OUT is written under a temporary name and renamed when complete.
        Without --codec, OUT takes the first input's codec.

        Options (as for pq rewrite):
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
    List<String> files = args.positionals(2, Integer.MAX_VALUE, "OUT and at least one IN");
    String out = files.get(0);
    List<String> inputs = files.subList(1, files.size());
    ReadOptions readOptions =
        ReadOptions.defaults().withVerifyChecksums(WriterSettings.verifyChecksums(args));

    MessageType schema = null;
    WritableSchema writable = null;
    Map<String, String> commonKeyValues = null;
    Set<String> droppedKeys = new TreeSet<>();
    CompressionCodec firstCodec = null;
    for (String in : inputs) {
      try (ParquetFileReader reader = ParquetFiles.open(in, readOptions)) {
        Map<String, String> keyValues =
            RewriteCommand.keyValues(reader.metadata().keyValueMetadata());
        WritableSchema inputSchema = WritableSchema.of(reader.metadata().schema());
        if (schema == null) {
          schema = reader.schema();
          writable = inputSchema;
          commonKeyValues = keyValues;
          firstCodec = RewriteCommand.codecOf(reader.rowGroups());
        } else {
          requireSameSchema(inputs.get(0), schema, in, reader.schema());
          requireSameAnnotations(inputs.get(0), writable, in, inputSchema);
          keepCommon(commonKeyValues, keyValues, droppedKeys);
        }
      }
    }
    for (String key : droppedKeys) {
      output
          .err()
          .println(
              "pq merge: warning: key/value metadata '"
                  + key
                  + "' differs between the inputs or is missing in some; it is not written");
    }
    RewriteCommand.warnDropped(writable, inputs.get(0), output.err());
    WriterOptions options =
        WriterSettings.options(args, firstCodec, commonKeyValues).toBuilder()
            .footerSchema(writable.footer())
            .build();
    long rows = 0;
    try (ParquetOutput target = ParquetOutput.create(out, writable.schema(), options)) {
      for (String in : inputs) {
        try (ParquetFileReader reader = ParquetFiles.open(in, readOptions);
            RowReader rowReader = reader.rowReader()) {
          while (rowReader.hasNext()) {
            target.writer().write(rowReader.next());
            rows++;
          }
        }
      }
      target.commit();
    }
    output.out().write(RewriteCommand.summary(out, rows, options));
    return Pq.OK;
  }

  /** Keeps in {@code common} the entries {@code other} has with the same value. */
  private static void keepCommon(
      Map<String, String> common, Map<String, String> other, Set<String> dropped) {
    for (String key : new ArrayList<>(common.keySet())) {
      if (!other.containsKey(key) || !Objects.equals(common.get(key), other.get(key))) {
        common.remove(key);
        dropped.add(key);
      }
    }
    for (String key : other.keySet()) {
      if (!common.containsKey(key)) {
        dropped.add(key);
      }
    }
  }

  /**
   * Refuses a schema that is not the first input's, naming the first line of the schema text where
   * they differ (the text shows names, repetition, types, annotations and field ids). The root's
   * name is no part of the data (writers name it as they like): OUT takes the first input's.
   */
  private static void requireSameSchema(
      String firstFile, MessageType first, String file, MessageType schema) throws InputException {
    if (first.fields().equals(schema.fields())) {
      return;
    }
    List<String> a = schemaLines(first);
    List<String> b = schemaLines(schema);
    int i = 1; // past the "message NAME {" line
    while (i < a.size() && i < b.size() && a.get(i).equals(b.get(i))) {
      i++;
    }
    String ours = i < a.size() ? "'" + a.get(i) + "'" : "nothing more";
    String theirs = i < b.size() ? "'" + b.get(i) + "'" : "nothing more";
    throw new InputException(
        file
            + " does not have the schema of "
            + firstFile
            + ": it has "
            + theirs
            + " where "
            + firstFile
            + " has "
            + ours);
  }

  /**
   * Refuses an input that annotates a column otherwise than the first input, though both read as
   * the same schema: one with a logical type, the other with only the legacy converted type that
   * our reader derives the same logical type from. Engines type such columns differently, so the
   * merged file could not keep both; the root's name is no part of the data.
   */
  private static void requireSameAnnotations(
      String firstFile, WritableSchema first, String file, WritableSchema schema)
      throws InputException {
    List<SchemaElement> a = first.footer();
    List<SchemaElement> b = schema.footer();
    for (int i = 1; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        throw new InputException(
            file
                + " does not annotate column "
                + a.get(i).name()
                + " as "
                + firstFile
                + " does: it has "
                + annotation(b.get(i))
                + " where "
                + firstFile
                + " has "
                + annotation(a.get(i)));
      }
    }
  }

  private static String annotation(SchemaElement e) {
    return "logical type "
        + (e.logicalType() == null ? "none" : LogicalTypes.logicalTypeName(e.logicalType()))
        + ", converted type "
        + (e.convertedType() == null ? "none" : e.convertedType().name())
        + (e.fieldId() == null ? "" : ", field id " + e.fieldId());
  }

  private static List<String> schemaLines(MessageType schema) {
    List<String> lines = new ArrayList<>();
    for (String line : schema.toString().split("\n")) {
      lines.add(line.strip());
    }
    return lines;
  }
}
