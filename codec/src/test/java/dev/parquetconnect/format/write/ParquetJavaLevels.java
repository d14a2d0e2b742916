package dev.parquetconnect.format.write;

import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;

/**
 * Every column of a file as parquet-java's column readers see it: the repetition level, definition
 * level and (for a value) the value of each entry, as text. Two files whose streams are equal were
 * shredded the same way.
 */
final class ParquetJavaLevels {
  private ParquetJavaLevels() {}

  static Map<String, List<String>> read(Path file, MessageType ours) throws Exception {
    org.apache.parquet.schema.MessageType schema = ParquetJavaOracle.toParquetJava(ours);
    Map<String, List<String>> columns = new LinkedHashMap<>();
    for (ColumnDescriptor c : schema.getColumns()) {
      columns.put(String.join(".", c.getPath()), new ArrayList<>());
    }
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      for (PageReadStore group = reader.readNextRowGroup();
          group != null;
          group = reader.readNextRowGroup()) {
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(
                group, new GroupRecordConverter(schema).getRootConverter(), schema, "test");
        for (ColumnDescriptor c : schema.getColumns()) {
          List<String> entries = columns.get(String.join(".", c.getPath()));
          ColumnReader reader1 = store.getColumnReader(c);
          for (long i = 0, n = group.getPageReader(c).getTotalValueCount(); i < n; i++) {
            int r = reader1.getCurrentRepetitionLevel();
            int d = reader1.getCurrentDefinitionLevel();
            String entry = r + "," + d;
            if (d == c.getMaxDefinitionLevel()) {
              entry += "," + value(reader1, c);
            }
            entries.add(entry);
            reader1.consume();
          }
        }
      }
    }
    return columns;
  }

  private static String value(ColumnReader reader, ColumnDescriptor c) {
    return switch (c.getPrimitiveType().getPrimitiveTypeName()) {
      case BOOLEAN -> Boolean.toString(reader.getBoolean());
      case INT32 -> Integer.toString(reader.getInteger());
      case INT64 -> Long.toString(reader.getLong());
      case FLOAT -> Integer.toHexString(Float.floatToRawIntBits(reader.getFloat()));
      case DOUBLE -> Long.toHexString(Double.doubleToRawLongBits(reader.getDouble()));
      case INT96, BINARY, FIXED_LEN_BYTE_ARRAY ->
          reader.getBinary().toStringUsingUTF8() + "/" + reader.getBinary().length();
    };
  }
}
