package dev.parquetconnect.engines;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;

import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.Column;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.ParquetTypeUtils;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.block.Block;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlDecimal;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.SqlVarbinary;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ColumnIO;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.joda.time.DateTimeZone;

/**
 * Trino's Parquet reader (trino-parquet, as its Hive connector drives it) as a test oracle, in its
 * own JVM (the tests' TrinoOracle starts it). One request per line on stdin:
 *
 * <pre>  OUT_FILE  PATH</pre>
 *
 * (tab-separated). Every column of the Parquet file PATH is read with the Trino type a table
 * declared for that file would give it (see {@link #trinoType}), with the reader's default options,
 * in session zone UTC. The answer goes to OUT_FILE: the Trino row type on the first line, then one
 * canonical line per row (the form the tests' EngineCanonical writes). Then one line on stdout:
 * {@code ok} or {@code error <message>} (the stack trace goes to stderr).
 */
public final class TrinoOracleMain {
  private static final TypeOperators TYPE_OPERATORS = new TypeOperators();

  private TrinoOracleMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream answers = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    answers.println(
        "ready trino-parquet "
            + Optional.ofNullable(ParquetReader.class.getPackage().getImplementationVersion())
                .orElse("?"));
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.split("\t", -1);
      try {
        if (parts.length != 2) {
          throw new IllegalArgumentException(
              "expected 2 tab-separated fields, got " + parts.length);
        }
        answer(Path.of(parts[0]), Path.of(parts[1]));
        answers.println("ok");
      } catch (Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        System.err.println("request failed: " + line + "\n" + trace);
        answers.println("error " + describe(e));
      }
    }
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getClass().getName() + ": " + e.getMessage();
    if (message.length() > 600) {
      message = message.substring(0, 600) + "...";
    }
    if (root != e) {
      message = root.getClass().getName() + ": " + root.getMessage() + " (in " + message + ")";
    }
    return message.replace('\n', ' ').replace('\r', ' ');
  }

  private static void answer(Path out, Path file) throws IOException {
    ParquetReaderOptions options = ParquetReaderOptions.defaultOptions();
    try (LocalFileDataSource source = new LocalFileDataSource(file, options)) {
      ParquetMetadata footer = MetadataReader.readFooter(source, Optional.empty());
      MessageType schema = footer.getFileMetaData().getSchema();
      MessageColumnIO messageIo = ParquetTypeUtils.getColumnIO(schema, schema);
      List<Column> columns = new ArrayList<>();
      List<RowType.Field> rowFields = new ArrayList<>();
      for (org.apache.parquet.schema.Type field : schema.getFields()) {
        Type type = trinoType(field);
        ColumnIO io = ParquetTypeUtils.lookupColumnByName(messageIo, field.getName());
        Field trinoField =
            ParquetTypeUtils.constructField(type, io)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "Trino makes no field of " + field + " as " + type));
        columns.add(new Column(field.getName(), trinoField));
        rowFields.add(RowType.field(field.getName(), type));
      }
      Map<List<String>, ColumnDescriptor> descriptors =
          ParquetTypeUtils.getDescriptors(schema, schema);
      List<RowGroupInfo> rowGroups = new ArrayList<>();
      for (BlockMetadata block : footer.getBlocks()) {
        rowGroups.add(
            new RowGroupInfo(
                PrunedBlockMetadata.createPrunedColumnsMetadata(block, source.getId(), descriptors),
                block.fileRowCountOffset(),
                Optional.empty()));
      }
      try (ParquetReader reader =
              new ParquetReader(
                  Optional.ofNullable(footer.getFileMetaData().getCreatedBy()),
                  columns,
                  false,
                  rowGroups,
                  source,
                  DateTimeZone.UTC,
                  newSimpleAggregatedMemoryContext(),
                  options,
                  e -> e instanceof RuntimeException r ? r : new RuntimeException(e),
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty());
          BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        w.write(RowType.from(rowFields).getDisplayName());
        w.write('\n');
        StringBuilder line = new StringBuilder();
        for (SourcePage page = reader.nextPage(); page != null; page = reader.nextPage()) {
          Block[] blocks = new Block[columns.size()];
          for (int c = 0; c < blocks.length; c++) {
            blocks[c] = page.getBlock(c);
          }
          for (int p = 0; p < page.getPositionCount(); p++) {
            line.setLength(0);
            line.append('{');
            for (int c = 0; c < blocks.length; c++) {
              if (c > 0) {
                line.append(',');
              }
              line.append(columns.get(c).name()).append(':');
              value(line, blocks[c], p, rowFields.get(c).getType());
            }
            line.append('}');
            w.write(line.toString());
            w.write('\n');
          }
        }
      }
    }
  }

  /**
   * The type a Trino table over this file would declare for the column (what Hive's metastore would
   * hold for it): the logical type's Trino counterpart, or the physical type's. Timestamps adjusted
   * to UTC become TIMESTAMP WITH TIME ZONE at their precision.
   */
  static Type trinoType(org.apache.parquet.schema.Type field) {
    Type type =
        field.isPrimitive() ? primitive(field.asPrimitiveType()) : group(field.asGroupType());
    // A bare repeated field is a list of its occurrences.
    return field.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)
            && !(field.getLogicalTypeAnnotation()
                instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation)
        ? new ArrayType(type)
        : type;
  }

  private static Type group(GroupType group) {
    LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      org.apache.parquet.schema.Type repeated = group.getType(0);
      // The three-level form (repeated group with one field, not named array/<list>_tuple) or
      // the older two-level form, whose repeated field is the element itself.
      boolean threeLevel =
          !repeated.isPrimitive()
              && repeated.asGroupType().getFieldCount() == 1
              && !repeated.getName().equals("array")
              && !repeated.getName().equals(group.getName() + "_tuple");
      org.apache.parquet.schema.Type element =
          threeLevel ? repeated.asGroupType().getType(0) : repeated;
      return new ArrayType(threeLevel ? trinoType(element) : elementType(element));
    }
    if (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
      GroupType keyValue = group.getType(0).asGroupType();
      return new MapType(
          trinoType(keyValue.getType(0)), trinoType(keyValue.getType(1)), TYPE_OPERATORS);
    }
    List<RowType.Field> fields = new ArrayList<>();
    for (org.apache.parquet.schema.Type field : group.getFields()) {
      fields.add(RowType.field(field.getName(), trinoType(field)));
    }
    return RowType.from(fields);
  }

  private static Type elementType(org.apache.parquet.schema.Type repeated) {
    return repeated.isPrimitive()
        ? primitive(repeated.asPrimitiveType())
        : group(repeated.asGroupType());
  }

  private static Type primitive(PrimitiveType primitive) {
    LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
      return DecimalType.createDecimalType(d.getPrecision(), d.getScale());
    }
    if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
      return VarcharType.VARCHAR;
    }
    if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
      return UuidType.UUID;
    }
    if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return DateType.DATE;
    }
    if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation t) {
      return TimeType.createTimeType(precision(t.getUnit()));
    }
    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
      int precision = precision(t.getUnit());
      return t.isAdjustedToUTC()
          ? TimestampWithTimeZoneType.createTimestampWithTimeZoneType(precision)
          : TimestampType.createTimestampType(precision);
    }
    if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
      if (!i.isSigned()) {
        return switch (i.getBitWidth()) {
          case 8 -> SmallintType.SMALLINT;
          case 16 -> IntegerType.INTEGER;
          case 32 -> BigintType.BIGINT;
          default -> DecimalType.createDecimalType(20, 0);
        };
      }
      return switch (i.getBitWidth()) {
        case 8 -> TinyintType.TINYINT;
        case 16 -> SmallintType.SMALLINT;
        case 32 -> IntegerType.INTEGER;
        default -> BigintType.BIGINT;
      };
    }
    return switch (primitive.getPrimitiveTypeName()) {
      case BOOLEAN -> BooleanType.BOOLEAN;
      case INT32 -> IntegerType.INTEGER;
      case INT64 -> BigintType.BIGINT;
      case INT96 -> TimestampWithTimeZoneType.TIMESTAMP_TZ_NANOS;
      case FLOAT -> RealType.REAL;
      case DOUBLE -> DoubleType.DOUBLE;
      case BINARY, FIXED_LEN_BYTE_ARRAY -> VarbinaryType.VARBINARY;
    };
  }

  private static int precision(LogicalTypeAnnotation.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 3;
      case MICROS -> 6;
      case NANOS -> 9;
    };
  }

  private static void value(StringBuilder out, Block block, int position, Type type) {
    if (block.isNull(position)) {
      out.append("null");
    } else if (type instanceof RowType row) {
      SqlRow value = row.getObject(block, position);
      List<RowType.Field> fields = row.getFields();
      out.append('{');
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(fields.get(i).getName().orElseThrow()).append(':');
        value(out, value.getRawFieldBlock(i), value.getRawIndex(), fields.get(i).getType());
      }
      out.append('}');
    } else if (type instanceof ArrayType array) {
      Block elements = array.getObject(block, position);
      out.append('[');
      for (int i = 0; i < elements.getPositionCount(); i++) {
        if (i > 0) {
          out.append(',');
        }
        value(out, elements, i, array.getElementType());
      }
      out.append(']');
    } else if (type instanceof MapType map) {
      // Entries sorted by their text, as the other oracles print maps.
      SqlMap value = map.getObject(block, position);
      List<String> entries = new ArrayList<>();
      for (int i = 0; i < value.getSize(); i++) {
        StringBuilder entry = new StringBuilder();
        value(entry, value.getRawKeyBlock(), value.getRawOffset() + i, map.getKeyType());
        entry.append("=>");
        value(entry, value.getRawValueBlock(), value.getRawOffset() + i, map.getValueType());
        entries.add(entry.toString());
      }
      entries.sort(null);
      out.append("map{").append(String.join(",", entries)).append('}');
    } else {
      scalar(out, type.getObjectValue(block, position), type);
    }
  }

  /** The canonical text of one scalar: the tests' EngineCanonical.leaf is its twin. */
  private static void scalar(StringBuilder out, Object v, Type type) {
    if (v instanceof String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20 || c == 0x7f) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      out.append('"');
    } else if (v instanceof SqlVarbinary binary) {
      out.append("0x");
      for (byte b : binary.getBytes()) {
        out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
    } else if (v instanceof SqlDecimal d) {
      out.append(d.toBigDecimal().toPlainString());
    } else if (v instanceof SqlDate d) {
      out.append(LocalDate.ofEpochDay(d.getDays()));
    } else if (v instanceof SqlTimestampWithTimeZone t) {
      out.append(Instant.ofEpochMilli(t.getEpochMillis()).plusNanos(t.getPicosOfMilli() / 1000));
    } else if (v instanceof SqlTimestamp t) {
      out.append(
          LocalDateTime.ofInstant(Instant.EPOCH, ZoneOffset.UTC)
              .plusSeconds(Math.floorDiv(t.getEpochMicros(), 1_000_000L))
              .plusNanos(
                  Math.floorMod(t.getEpochMicros(), 1_000_000L) * 1000L
                      + t.getPicosOfMicros() / 1000));
    } else if (v instanceof SqlTime t && type instanceof TimeType time) {
      // parquet-java hands a TIME over as its raw count of the file's unit.
      long picosPerUnit =
          switch (time.getPrecision()) {
            case 3 -> 1_000_000_000L;
            case 6 -> 1_000_000L;
            default -> 1_000L;
          };
      out.append(t.getPicos() / picosPerUnit);
    } else if (v instanceof Number || v instanceof Boolean) {
      out.append(v);
    } else {
      out.append(v.getClass().getSimpleName()).append(':').append(v);
    }
  }

  /** A local file as Trino's reader reads any storage: positioned reads of byte ranges. */
  private static final class LocalFileDataSource extends AbstractParquetDataSource {
    private final RandomAccessFile file;

    LocalFileDataSource(Path path, ParquetReaderOptions options) throws IOException {
      super(new ParquetDataSourceId(path.toString()), Files.size(path), options);
      this.file = new RandomAccessFile(path.toFile(), "r");
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int offset, int length)
        throws IOException {
      file.seek(position);
      file.readFully(buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }
}
