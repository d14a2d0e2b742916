package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.read.ParquetFileReader;
import java.io.IOException;
import java.util.Set;

/** {@code pq schema FILE}: the schema in the text form parquet-java and DuckDB print. */
final class SchemaCommand implements Command {
  @Override
  public String name() {
    return "schema";
  }

  @Override
  public String summary() {
    return "print the schema (message type text form)";
  }

  @Override
  public String help() {
    return """
        usage: pq schema FILE

        Prints the file's schema in the text form of parquet-java's MessageType.toString():
        repetition, physical type, name, the logical type (or the converted type of an old
        file) in parentheses and the field id after '='. Only the footer is read.
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
      output.out().write(reader.schema().toString());
    }
    return Pq.OK;
  }
}
