package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.SortingColumn;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code pq meta FILE}: what the footer says about the file, its row groups and chunks. */
final class MetaCommand implements Command {
  @Override
  public String name() {
    return "meta";
  }

  @Override
  public String summary() {
    return "print the footer: row groups, column chunks, encodings, sizes, statistics";
  }

  @Override
  public String help() {
    return """
        usage: pq meta FILE

        Prints what the footer says, reading nothing else: the writer (created_by), the row
        count, the key/value metadata (long values abbreviated) and, per row group, its rows
        and bytes and, per column chunk: path, physical and logical type, codec, encodings
        and encoding stats, value count, compressed and uncompressed sizes, dictionary and
        data page offsets, statistics (nulls, min and max shown like pq cat shows values,
        whether each bound is exact, NaN and distinct counts) and where its bloom filter,
        column index and offset index are, if it has them.
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of();
  }

  @Override
  public int run(Arguments args, CommandOutput output)
      throws UsageException, InputException, IOException, ParquetException {
    String file = args.positionals(1, 1, "FILE").get(0);
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      Writer out = output.out();
      for (String line : fileLines(file, reader)) {
        out.write(line);
        out.write('\n');
      }
      List<RowGroup> rowGroups = reader.rowGroups();
      for (int g = 0; g < rowGroups.size(); g++) {
        for (String line : rowGroupLines(g, rowGroups.get(g), reader)) {
          out.write(line);
          out.write('\n');
        }
      }
    }
    return Pq.OK;
  }

  private static List<String> fileLines(String file, ParquetFileReader reader) throws IOException {
    FileMetaData footer = reader.metadata();
    List<String> lines = new ArrayList<>();
    lines.add("file: " + file);
    lines.add("size: " + Files.size(Path.of(file)) + " bytes");
    lines.add("format version: " + footer.version());
    lines.add(
        "created_by: "
            + (footer.createdBy() == null
                ? "(not recorded)"
                : TextLimits.abbreviate(footer.createdBy(), 200)));
    long rows = reader.rowCount();
    // Some writers get the footer's total wrong; the reader counts the row groups' rows.
    lines.add(
        "rows: "
            + rows
            + (footer.numRows() == rows
                ? ""
                : " (the footer's num_rows says "
                    + footer.numRows()
                    + "; the row groups hold "
                    + rows
                    + ")"));
    lines.add("row groups: " + reader.rowGroups().size());
    lines.add("columns: " + reader.schema().columns().size());
    List<KeyValue> keyValues = footer.keyValueMetadata();
    if (keyValues == null || keyValues.isEmpty()) {
      lines.add("key/value metadata: none");
    } else {
      lines.add("key/value metadata: " + keyValues.size());
      for (KeyValue kv : keyValues) {
        lines.add("  " + ColumnChunkText.keyValue(kv));
      }
    }
    return lines;
  }

  private static List<String> rowGroupLines(
      int index, RowGroup rowGroup, ParquetFileReader reader) {
    MessageType schema = reader.schema();
    List<String> lines = new ArrayList<>();
    StringBuilder head =
        new StringBuilder("row group ")
            .append(index)
            .append(": ")
            .append(rowGroup.numRows())
            .append(" rows, ");
    if (rowGroup.totalCompressedSize() != null) {
      head.append(rowGroup.totalCompressedSize()).append(" bytes compressed, ");
    }
    head.append(rowGroup.totalByteSize()).append(" bytes uncompressed");
    if (rowGroup.fileOffset() != null) {
      head.append(", at ").append(rowGroup.fileOffset());
    }
    lines.add(head.toString());
    if (rowGroup.sortingColumns() != null && !rowGroup.sortingColumns().isEmpty()) {
      lines.add("  sorted by: " + sortingColumns(rowGroup.sortingColumns(), schema));
    }
    List<ColumnOrder> orders = reader.metadata().columnOrders();
    for (int c = 0; c < rowGroup.columns().size(); c++) {
      ColumnOrder order = orders != null && c < orders.size() ? orders.get(c) : null;
      for (String line :
          ColumnChunkText.lines(schema.column(c), rowGroup.columns().get(c), order)) {
        lines.add("  " + line);
      }
    }
    return lines;
  }

  private static String sortingColumns(List<SortingColumn> columns, MessageType schema) {
    List<String> keys = new ArrayList<>();
    for (SortingColumn s : columns) {
      String name =
          s.columnIdx() >= 0 && s.columnIdx() < schema.columns().size()
              ? schema.column(s.columnIdx()).dottedPath()
              : "column #" + s.columnIdx();
      keys.add(
          name
              + (s.descending() ? " descending" : " ascending")
              + (s.nullsFirst() ? ", nulls first" : ", nulls last"));
    }
    return String.join("; ", keys);
  }
}
