package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code pq verify FILE}: reads everything there is to read and says whether the file is sound.
 *
 * <p>One pass of record assembly over every column does it all: each column's pages are read,
 * CRC-checked where they carry a CRC, decompressed and decoded; levels and counts are checked
 * against the page headers, the chunk metadata and the row group; and every row is assembled, which
 * checks that the columns agree with each other and with the schema. The reader's checks throw at
 * the first problem with the file, column and offset, which {@link Pq} prints as the one error
 * line.
 */
final class VerifyCommand implements Command {
  @Override
  public String name() {
    return "verify";
  }

  @Override
  public String summary() {
    return "decode every page and row; exit 0 when the file is sound";
  }

  @Override
  public String help() {
    return """
        usage: pq verify FILE

        Reads the whole file: the footer and every row group and column chunk are checked
        against the file, every page is read, CRC-checked when it carries a CRC, decompressed
        and decoded, and every row is assembled from all columns.

        Sound: prints one summary line and exits 0.
        Not sound: prints one error line saying what is wrong and where (file, column,
        offset) and exits 1; a file this reader refuses (encrypted, over a reader limit)
        exits 3.
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
    try (ParquetFileReader reader =
        ParquetFiles.open(file, ReadOptions.defaults().withVerifyChecksums(true))) {
      long rows = 0;
      try (RowReader rowReader = reader.rowReader()) {
        while (rowReader.hasNext()) {
          rowReader.next();
          rows++;
        }
      }
      output.out().write(summary(file, reader, rows));
    }
    return Pq.OK;
  }

  private static String summary(String file, ParquetFileReader reader, long rows)
      throws IOException {
    long values = 0;
    long compressed = 0;
    for (RowGroup rowGroup : reader.rowGroups()) {
      for (ColumnChunk chunk : rowGroup.columns()) {
        values += chunk.metaData().numValues();
        compressed += chunk.metaData().totalCompressedSize();
      }
    }
    int groups = reader.rowGroups().size();
    int columns = reader.schema().columns().size();
    return "OK "
        + file
        + ": "
        + rows
        + (rows == 1 ? " row" : " rows")
        + " in "
        + groups
        + (groups == 1 ? " row group" : " row groups")
        + ", "
        + columns
        + (columns == 1 ? " column" : " columns")
        + ", "
        + values
        + " values in "
        + compressed
        + " bytes of column chunks (file "
        + Files.size(Path.of(file))
        + " bytes); every page decoded, page CRCs checked where present, every row"
        + " assembled\n";
  }
}
