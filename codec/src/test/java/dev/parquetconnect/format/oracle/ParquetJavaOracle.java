package dev.parquetconnect.format.oracle;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * parquet-java as a test oracle: reads any Parquet file into our generic {@link Row} model through
 * its example Group API, and writes rows of our model with its {@code ExampleParquetWriter}, so our
 * reader and writer can be judged by another implementation.
 */
public final class ParquetJavaOracle {
  private ParquetJavaOracle() {}

  /** parquet-java's view of our schema (through the text form both print and parse). */
  public static org.apache.parquet.schema.MessageType toParquetJava(MessageType schema) {
    return MessageTypeParser.parseMessageType(schema.toString());
  }

  /** Every row of {@code file} as parquet-java reads it, in our generic model. */
  public static List<Row> read(Path file, MessageType schema) throws IOException {
    // A local InputFile and a plain configuration: a Hadoop Path and Configuration cost ~20 ms
    // of file-system setup per file, which tests reading hundreds of files notice.
    ParquetReader.Builder<Group> builder =
        new ParquetReader.Builder<Group>(
            new LocalInputFile(file), new PlainParquetConfiguration()) {
          @Override
          protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
          }
        };
    return collect(builder, schema);
  }

  /**
   * The rows parquet-java reads with its reader configured by {@code settings} (checksum
   * verification, a filter with statistics, page index and bloom filter pruning, ...).
   */
  public static List<Row> read(
      Path file, MessageType schema, UnaryOperator<ParquetReader.Builder<Group>> settings)
      throws IOException {
    ParquetReader.Builder<Group> builder =
        ParquetReader.builder(
                new GroupReadSupport(),
                new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()))
            .withConf(new Configuration(false));
    return collect(settings.apply(builder), schema);
  }

  private static List<Row> collect(ParquetReader.Builder<Group> builder, MessageType schema)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    try (ParquetReader<Group> reader = builder.build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        rows.add(toRow(g, schema.root()));
      }
    }
    return rows;
  }

  /** Settings for {@link #write}: the knobs the cross-checks vary. */
  public record WriteOptions(
      CompressionCodecName codec,
      boolean dictionary,
      ParquetProperties.WriterVersion version,
      int pageSize,
      long rowGroupSize) {
    public static WriteOptions defaults() {
      return new WriteOptions(
          CompressionCodecName.UNCOMPRESSED,
          true,
          ParquetProperties.WriterVersion.PARQUET_1_0,
          ParquetProperties.DEFAULT_PAGE_SIZE,
          ParquetWriter.DEFAULT_BLOCK_SIZE);
    }
  }

  /** Writes {@code rows} to {@code file} with parquet-java (replacing the file). */
  public static void write(Path file, MessageType schema, List<Row> rows, WriteOptions options)
      throws IOException {
    Files.deleteIfExists(file);
    org.apache.parquet.schema.MessageType pj = toParquetJava(schema);
    SimpleGroupFactory factory = new SimpleGroupFactory(pj);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(pj)
            .withCompressionCodec(options.codec())
            .withDictionaryEncoding(options.dictionary())
            .withWriterVersion(options.version())
            .withPageSize(options.pageSize())
            .withRowGroupSize(options.rowGroupSize())
            .build()) {
      for (Row row : rows) {
        Group g = factory.newGroup();
        fill(g, row, schema.root());
        writer.write(g);
      }
    }
  }

  // ---- parquet-java Group -> Row ------------------------------------------------------------

  static Row toRow(Group g, GroupNode type) {
    Row row = new Row(type);
    for (int i = 0; i < type.fieldCount(); i++) {
      SchemaNode node = type.field(i);
      int n = g.getFieldRepetitionCount(i);
      if (node.isRepeated()) {
        List<Object> values = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
          values.add(value(g, i, j, node));
        }
        row.set(i, values);
      } else {
        row.set(i, n == 0 ? null : value(g, i, 0, node));
      }
    }
    return row;
  }

  private static Object value(Group g, int field, int index, SchemaNode node) {
    if (node instanceof PrimitiveNode leaf) {
      return switch (leaf.type()) {
        case BOOLEAN -> g.getBoolean(field, index);
        case INT32 -> g.getInteger(field, index);
        case INT64 -> g.getLong(field, index);
        case FLOAT -> g.getFloat(field, index);
        case DOUBLE -> g.getDouble(field, index);
        case INT96 -> g.getInt96(field, index).getBytes();
        case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> g.getBinary(field, index).getBytes();
      };
    }
    GroupNode group = (GroupNode) node;
    Group sub = g.getGroup(field, index);
    if (group.isList()) {
      NestedTypes.ListShape shape = NestedTypes.listShape(group);
      if (shape != null) {
        int n = sub.getFieldRepetitionCount(0);
        List<Object> list = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
          if (shape.twoLevel()) {
            // The repeated field is the element, read as one value: a struct becomes a Row, a
            // LIST or MAP group a List or Map, as the Row model says for any group.
            list.add(value(sub, 0, k, shape.element()));
          } else {
            Group holder = sub.getGroup(0, k);
            list.add(
                holder.getFieldRepetitionCount(0) == 0
                    ? null
                    : value(holder, 0, 0, shape.element()));
          }
        }
        return list;
      }
    }
    if (group.isMap()) {
      NestedTypes.MapShape shape = NestedTypes.mapShape(group);
      if (shape != null) {
        Map<Object, Object> map = new LinkedHashMap<>();
        int n = sub.getFieldRepetitionCount(0);
        for (int k = 0; k < n; k++) {
          Group kv = sub.getGroup(0, k);
          Object key = value(kv, 0, 0, shape.key());
          Object value =
              shape.value() == null || kv.getFieldRepetitionCount(1) == 0
                  ? null
                  : value(kv, 1, 0, shape.value());
          map.put(key, value);
        }
        return map;
      }
    }
    return toRow(sub, group);
  }

  // ---- Row -> parquet-java Group ------------------------------------------------------------

  static void fill(Group g, Row row, GroupNode type) {
    for (int i = 0; i < type.fieldCount(); i++) {
      SchemaNode node = type.field(i);
      Object v = row.get(i);
      if (v == null) {
        continue;
      }
      if (node.isRepeated()) {
        for (Object e : (List<?>) v) {
          add(g, i, node, e);
        }
      } else {
        add(g, i, node, v);
      }
    }
  }

  private static void add(Group g, int field, SchemaNode node, Object v) {
    if (node instanceof PrimitiveNode leaf) {
      switch (leaf.type()) {
        case BOOLEAN -> g.add(field, (Boolean) v);
        case INT32 -> g.add(field, (Integer) v);
        case INT64 -> g.add(field, (Long) v);
        case FLOAT -> g.add(field, (Float) v);
        case DOUBLE -> g.add(field, (Double) v);
        case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY ->
            g.add(field, Binary.fromConstantByteArray((byte[]) v));
      }
      return;
    }
    GroupNode group = (GroupNode) node;
    Group sub = g.addGroup(field);
    if (group.isList() && v instanceof List<?> list) {
      NestedTypes.ListShape shape = NestedTypes.listShape(group);
      for (Object e : list) {
        if (shape.twoLevel()) {
          if (shape.element() instanceof GroupNode eg) {
            fill(sub.addGroup(0), (Row) e, eg);
          } else {
            add(sub, 0, shape.element(), e);
          }
        } else {
          if (e == null && !shape.element().isOptional()) {
            throw new IllegalArgumentException(
                "list " + group.name() + " has required elements but got a null");
          }
          Group holder = sub.addGroup(0);
          if (e != null) {
            add(holder, 0, shape.element(), e);
          }
        }
      }
      return;
    }
    if (group.isMap() && v instanceof Map<?, ?> map) {
      NestedTypes.MapShape shape = NestedTypes.mapShape(group);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        Group kv = sub.addGroup(0);
        add(kv, 0, shape.key(), e.getKey());
        if (shape.value() != null && e.getValue() != null) {
          add(kv, 1, shape.value(), e.getValue());
        }
      }
      return;
    }
    fill(sub, (Row) v, group);
  }
}
