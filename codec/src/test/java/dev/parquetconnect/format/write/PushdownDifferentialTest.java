package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * parquet-java's filtering reader, with every pruning it has on (row group statistics,
 * dictionaries, column and offset indexes, bloom filters, then the record filter), returns exactly
 * the rows a full scan filtered in Java returns, on our files and on parquet-java's files of the
 * same rows. Data: nulls, NaN, both zeros, infinities, extremes, empty strings, decimals on INT32
 * and FIXED_LEN_BYTE_ARRAY, a struct and a list, values clustered in runs so that pages and row
 * groups really are pruned. Layouts: row groups of a few hundred rows, pages of 64 bytes to 2 KiB,
 * page v1 and v2, dictionary on and off. Predicates: =, <, <=, >, >=, IN, IS [NOT] NULL and
 * conjunctions and disjunctions over several columns. And the footer's float and double statistics,
 * which aggregate pushdown answers MIN, MAX and COUNT from, bound every value of their row group.
 *
 * <p>"Filtered in Java" uses the comparator parquet-java's record filter uses for each column type
 * (for doubles {@link Double#compare}: NaN above +Infinity, -0.0 below +0.0; decimals on bytes as
 * signed integers). Seeded: the seed is printed; rerun one with {@code -Dpushdown.seed=N}, and keep
 * its files in a directory with {@code -Dpushdown.keep=DIR}.
 */
class PushdownDifferentialTest {
  private static final Logger LOG = LoggerFactory.getLogger(PushdownDifferentialTest.class);
  private static final long SEED = Long.getLong("pushdown.seed", System.nanoTime());
  private static final int LAYOUTS = 8;
  private static final int PREDICATES_PER_LAYOUT = 40;

  private static final CompressionCodec[] CODECS = {
    CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY, CompressionCodec.ZSTD
  };

  @TempDir Path dir;

  static MessageType schema() {
    return new MessageType(
        "pushdown",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("grp", OPTIONAL, PhysicalType.INT32),
            PrimitiveNode.of("i64", OPTIONAL, PhysicalType.INT64),
            PrimitiveNode.of("f32", OPTIONAL, PhysicalType.FLOAT),
            PrimitiveNode.of("f64", OPTIONAL, PhysicalType.DOUBLE),
            PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("d32", OPTIONAL, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(2, 9)),
            PrimitiveNode.fixed("dfix", OPTIONAL, 9)
                .withLogicalType(new LogicalType.DecimalType(2, 20)),
            PrimitiveNode.of("b", OPTIONAL, PhysicalType.BOOLEAN),
            new GroupNode(
                "st",
                OPTIONAL,
                List.of(
                    PrimitiveNode.of("x", OPTIONAL, PhysicalType.INT32),
                    PrimitiveNode.of("t", OPTIONAL, PhysicalType.BYTE_ARRAY)
                        .withLogicalType(LogicalType.STRING)),
                null,
                null,
                null),
            NestedTypes.list("l", OPTIONAL, PrimitiveNode.of("e", OPTIONAL, PhysicalType.INT64))));
  }

  private static final double[] DOUBLES = {
    Double.NaN,
    -0.0,
    0.0,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    1.5,
    -2.5,
    1e300
  };
  private static final float[] FLOATS = {
    Float.NaN,
    -0.0f,
    0.0f,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.MAX_VALUE,
    -Float.MAX_VALUE,
    Float.MIN_VALUE,
    1.5f,
    -2.5f
  };
  private static final long[] LONGS = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1};
  private static final String[] WORDS = {"", "a", "ab", "kafka", "é", "日本語", "😀", "zz", "\u0000"};

  /**
   * Rows whose columns change "regime" every few dozen rows (a narrow range, one special value, all
   * null, or anything), so page and row group bounds differ and pruning has work to do.
   */
  static List<Row> rows(MessageType schema, Random random, int count) {
    GroupNode root = schema.root();
    GroupNode st = (GroupNode) root.field(root.fieldIndex("st"));
    Regime[] regimes = new Regime[root.fieldCount()];
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      for (int c = 0; c < regimes.length; c++) {
        if (regimes[c] == null || random.nextInt(40) == 0) {
          regimes[c] = new Regime(random.nextInt(5), random.nextLong());
        }
      }
      Row nested =
          regimes[9].kind == 2
              ? null
              : Row.of(
                  st,
                  pick(
                      random,
                      regimes[9],
                      r -> (int) (regimes[9].base % 1000) + r.nextInt(10),
                      r -> r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE),
                  pick(
                      random,
                      regimes[9],
                      r -> bytes(WORDS[Math.floorMod(regimes[9].base, 9)] + r.nextInt(3)),
                      r -> bytes("")));
      List<Object> list = null;
      if (random.nextInt(6) != 0) {
        list = new ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) {
          list.add(random.nextInt(5) == 0 ? null : random.nextLong());
        }
      }
      int row = i;
      rows.add(
          Row.of(
              root,
              (long) i,
              pick(random, regimes[1], r -> row / 37, r -> Integer.MIN_VALUE),
              pick(
                  random,
                  regimes[2],
                  r -> (regimes[2].base >> 8) + r.nextInt(100),
                  r -> LONGS[r.nextInt(LONGS.length)]),
              pick(
                  random,
                  regimes[3],
                  r -> (float) (regimes[3].base % 100) + r.nextFloat(),
                  r -> FLOATS[r.nextInt(FLOATS.length)]),
              pick(
                  random,
                  regimes[4],
                  r -> (double) (regimes[4].base % 1000) + r.nextGaussian(),
                  r -> DOUBLES[r.nextInt(DOUBLES.length)]),
              pick(
                  random,
                  regimes[5],
                  r ->
                      bytes(WORDS[Math.floorMod(regimes[5].base, 9)] + (char) ('a' + r.nextInt(3))),
                  r -> bytes(WORDS[r.nextInt(WORDS.length)])),
              pick(
                  random,
                  regimes[6],
                  r -> (int) (regimes[6].base % 100_000) + r.nextInt(50),
                  r -> r.nextBoolean() ? 999_999_999 : -999_999_999),
              pick(
                  random,
                  regimes[7],
                  r ->
                      decimal(
                          BigInteger.valueOf(regimes[7].base % 1_000_000)
                              .add(BigInteger.valueOf(r.nextInt(1000)))),
                  r ->
                      decimal(
                          BigInteger.TEN
                              .pow(20)
                              .subtract(BigInteger.ONE)
                              .multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)))),
              pick(random, regimes[8], r -> (regimes[8].base & 1) == 0, r -> r.nextBoolean()),
              nested,
              list));
    }
    return rows;
  }

  /** How a column's values are drawn for a stretch of rows. */
  private record Regime(int kind, long base) {}

  /** 0: clustered, 1: one extreme, 2: all null, 3: anything (incl. null), 4: clustered+null. */
  private static Object pick(
      Random random,
      Regime regime,
      Function<Random, Object> clustered,
      Function<Random, Object> extreme) {
    return switch (regime.kind) {
      case 0 -> clustered.apply(random);
      case 1 -> extreme.apply(random);
      case 2 -> null;
      case 3 ->
          random.nextInt(5) == 0
              ? null
              : random.nextBoolean() ? extreme.apply(random) : clustered.apply(random);
      default -> random.nextInt(3) == 0 ? null : clustered.apply(random);
    };
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A 9-byte big-endian two's complement. */
  private static byte[] decimal(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[9];
    Arrays.fill(out, value.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(raw, 0, out, 9 - raw.length, raw.length);
    return out;
  }

  @Test
  void filteredReadsEqualAFullScanFilteredInJava() throws Exception {
    LOG.info("seed {} (-Dpushdown.seed={} replays it)", SEED, SEED);
    MessageType schema = schema();
    org.apache.parquet.schema.MessageType pjSchema = ParquetJavaOracle.toParquetJava(schema);
    Random random = new Random(SEED);
    String keep = System.getProperty("pushdown.keep");
    Path dir = keep != null ? Files.createDirectories(Path.of(keep)) : this.dir;
    for (int layout = 0; layout < LAYOUTS; layout++) {
      int count = 600 + random.nextInt(3400);
      List<Row> rows = rows(schema, random, count);
      PageVersion version = random.nextBoolean() ? PageVersion.V1 : PageVersion.V2;
      boolean dictionary = random.nextInt(3) != 0;
      int pageBytes = 64 << random.nextInt(6);
      int groupRows = 150 + random.nextInt(700);
      WriterOptions.Builder options =
          WriterOptions.builder()
              .pageVersion(version)
              .dictionary(dictionary)
              .pageByteLimit(pageBytes)
              .rowGroupRowLimit(groupRows)
              .codec(CODECS[random.nextInt(CODECS.length)]);
      if (random.nextBoolean()) {
        options.pageRowLimit(20 + random.nextInt(100));
      }
      if (random.nextBoolean()) {
        options.dictionaryByteLimit(1024);
      }
      if (random.nextInt(3) == 0) {
        options.bloomFilter("i64", 1000, 0.01).bloomFilter("s", 1000, 0.01);
      }
      WriterOptions built = options.build();
      String where =
          "seed "
              + SEED
              + ", layout "
              + layout
              + " ("
              + count
              + " rows, "
              + version
              + ", dictionary "
              + dictionary
              + ", pages of "
              + pageBytes
              + " bytes and at most "
              + built.pageRowLimit()
              + " rows, row groups of "
              + groupRows
              + " rows, "
              + built.codec()
              + ")";
      Path ours =
          WriterMatrix.write(dir.resolve("ours-" + layout + ".parquet"), schema, rows, built);
      Path theirs = dir.resolve("parquet-java-" + layout + ".parquet");
      ParquetJavaOracle.write(
          theirs,
          schema,
          rows,
          new ParquetJavaOracle.WriteOptions(
              CompressionCodecName.UNCOMPRESSED,
              dictionary,
              version == PageVersion.V2
                  ? ParquetProperties.WriterVersion.PARQUET_2_0
                  : ParquetProperties.WriterVersion.PARQUET_1_0,
              pageBytes,
              16 * 1024));
      assertFooterBoundsHoldEveryValue(ours, pjSchema, rows, where);
      Predicates predicates = new Predicates(pjSchema, rows, random);
      for (int p = 0; p < PREDICATES_PER_LAYOUT; p++) {
        Filter filter = predicates.next(2);
        List<Row> expected = rows.stream().filter(filter.matches).toList();
        for (Path file : List.of(ours, theirs)) {
          List<Row> actual =
              ParquetJavaOracle.read(
                  file,
                  schema,
                  b ->
                      b.withFilter(FilterCompat.get(filter.predicate))
                          .withConf(new Configuration(false))
                          .useStatsFilter(true)
                          .useDictionaryFilter(true)
                          .useColumnIndexFilter(true)
                          .useBloomFilter(true)
                          .useRecordFilter(true));
          WriterMatrix.assertRowsEqual(
              expected, actual, where + ", " + file.getFileName() + ", filter " + filter.predicate);
        }
      }
    }
  }

  /**
   * What aggregate pushdown (Spark's MIN/MAX/COUNT from the footer) relies on, as parquet-java
   * reads our chunk statistics: where a float or double chunk has min/max, every value of the row
   * group lies between them in parquet-java's order (so NaN, above every number there, is never
   * left out) and both are values of the chunk (but for -0.0/+0.0, which stand for either zero);
   * null counts are exact.
   */
  private static void assertFooterBoundsHoldEveryValue(
      Path file, org.apache.parquet.schema.MessageType pjSchema, List<Row> rows, String where)
      throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      int first = 0;
      for (BlockMetaData block : reader.getRowGroups()) {
        List<Row> group = rows.subList(first, first + (int) block.getRowCount());
        first += (int) block.getRowCount();
        for (String column : List.of("f32", "f64")) {
          ColumnChunkMetaData chunk = block.getColumns().get(pjSchema.getFieldIndex(column));
          Statistics<?> stats = chunk.getStatistics();
          List<Object> values = group.stream().map(r -> r.get(column)).toList();
          long nulls = values.stream().filter(v -> v == null).count();
          String at = where + ", " + column + " in row group at " + chunk.getStartingPos();
          assertEquals(nulls, stats.getNumNulls(), at + ": null count");
          if (!stats.hasNonNullValue()) {
            continue;
          }
          @SuppressWarnings({"unchecked", "rawtypes"})
          Comparator<Object> order = (Comparator) stats.comparator();
          for (Object v : values) {
            if (v != null) {
              assertTrue(
                  order.compare(v, stats.genericGetMin()) >= 0
                      && order.compare(v, stats.genericGetMax()) <= 0,
                  at
                      + ": "
                      + v
                      + " outside ["
                      + stats.genericGetMin()
                      + ", "
                      + stats.genericGetMax()
                      + "]");
            }
          }
          for (Object bound : List.of(stats.genericGetMin(), stats.genericGetMax())) {
            double b = ((Number) bound).doubleValue();
            assertTrue(
                b == 0 || values.stream().anyMatch(v -> v != null && order.compare(v, bound) == 0),
                at + ": the bound " + bound + " is no value of the chunk");
          }
        }
      }
    }
  }

  /** A parquet-java predicate and its meaning, evaluated on our rows. */
  record Filter(FilterPredicate predicate, Predicate<Row> matches) {}

  /** Random predicates whose constants are mostly values the rows hold. */
  static final class Predicates {
    private final org.apache.parquet.schema.MessageType pjSchema;
    private final List<Row> rows;
    private final Random random;

    Predicates(org.apache.parquet.schema.MessageType pjSchema, List<Row> rows, Random random) {
      this.pjSchema = pjSchema;
      this.rows = rows;
      this.random = random;
    }

    Filter next(int depth) {
      if (depth > 0 && random.nextInt(3) == 0) {
        Filter a = next(depth - 1);
        Filter b = next(depth - 1);
        return random.nextBoolean()
            ? new Filter(FilterApi.and(a.predicate, b.predicate), a.matches.and(b.matches))
            : new Filter(FilterApi.or(a.predicate, b.predicate), a.matches.or(b.matches));
      }
      return leaf();
    }

    private static final String[] COLUMNS = {
      "id", "grp", "i64", "f32", "f64", "s", "d32", "dfix", "b", "st.x", "st.t"
    };

    private Filter leaf() {
      String column = COLUMNS[random.nextInt(COLUMNS.length)];
      Function<Row, Object> get = valueOf(column);
      int op = random.nextInt(8);
      if (op == 0) {
        return new Filter(compare(2, column, null), r -> get.apply(r) == null);
      }
      if (op == 1) {
        return new Filter(compare(1, column, null), r -> get.apply(r) != null);
      }
      if (column.equals("b")) {
        boolean v = random.nextBoolean();
        return new Filter(
            FilterApi.eq(FilterApi.booleanColumn("b"), v),
            r -> Boolean.valueOf(v).equals(get.apply(r)));
      }
      @SuppressWarnings({"unchecked", "rawtypes"})
      PrimitiveComparator<Comparable> comparator =
          (PrimitiveComparator)
              pjSchema.getColumnDescription(column.split("\\.")).getPrimitiveType().comparator();
      Comparable v = constant(column, get);
      if (op == 7) {
        Set<Comparable> set = new HashSet<>();
        set.add(v);
        for (int k = random.nextInt(4); k > 0; k--) {
          set.add(constant(column, get));
        }
        return new Filter(
            compare(7, column, set),
            r -> {
              Comparable x = comparable(get.apply(r));
              return x != null && set.stream().anyMatch(s -> comparator.compare(x, s) == 0);
            });
      }
      Predicate<Integer> test =
          switch (op) {
            case 2 -> c -> c == 0;
            case 3 -> c -> c < 0;
            case 4 -> c -> c <= 0;
            case 5 -> c -> c > 0;
            default -> c -> c >= 0;
          };
      FilterPredicate predicate = compare(op, column, v);
      return new Filter(
          predicate,
          r -> {
            Comparable x = comparable(get.apply(r));
            return x != null && test.test(comparator.compare(x, v));
          });
    }

    /**
     * The parquet-java predicate: 1 IS NOT NULL, 2 = (IS NULL for null), 3 <, 4 <=, 5 >, 6 >=, 7 IN
     * ({@code value} is the set).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static FilterPredicate compare(int op, String column, Object value) {
      return switch (column) {
        case "id", "i64" -> compare(op, FilterApi.longColumn(column), value);
        case "grp", "d32", "st.x" -> compare(op, FilterApi.intColumn(column), value);
        case "f32" -> compare(op, FilterApi.floatColumn(column), value);
        case "f64" -> compare(op, FilterApi.doubleColumn(column), value);
        case "b" ->
            op == 1
                ? FilterApi.notEq(FilterApi.booleanColumn(column), null)
                : FilterApi.eq(FilterApi.booleanColumn(column), (Boolean) value);
        default -> compare(op, FilterApi.binaryColumn(column), value);
      };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
        FilterPredicate compare(int op, C column, Object value) {
      if (op == 7) {
        return FilterApi.in(column, (Set<T>) value);
      }
      T v = (T) value;
      return switch (op) {
        case 1 -> FilterApi.notEq(column, null);
        case 2 -> FilterApi.eq(column, v);
        case 3 -> FilterApi.lt(column, v);
        case 4 -> FilterApi.ltEq(column, v);
        case 5 -> FilterApi.gt(column, v);
        default -> FilterApi.gtEq(column, v);
      };
    }

    /** A value of the column from a random row, or a special one. */
    @SuppressWarnings("rawtypes")
    private Comparable constant(String column, Function<Row, Object> get) {
      if (random.nextInt(4) == 0) {
        switch (column) {
          case "f64":
            return DOUBLES[random.nextInt(DOUBLES.length)];
          case "f32":
            return FLOATS[random.nextInt(FLOATS.length)];
          case "i64":
            return LONGS[random.nextInt(LONGS.length)];
          case "s", "st.t":
            return Binary.fromString(WORDS[random.nextInt(WORDS.length)]);
          default:
            break;
        }
      }
      for (int tries = 0; tries < 20; tries++) {
        Object v = get.apply(rows.get(random.nextInt(rows.size())));
        if (v != null) {
          return comparable(v);
        }
      }
      return switch (column) {
        case "id", "i64" -> 0L;
        case "f32" -> 0.0f;
        case "f64" -> 0.0;
        case "s", "st.t" -> Binary.fromString("");
        case "dfix" -> Binary.fromConstantByteArray(new byte[9]);
        default -> 0;
      };
    }

    @SuppressWarnings("rawtypes")
    private static Comparable comparable(Object v) {
      return v instanceof byte[] b ? Binary.fromConstantByteArray(b) : (Comparable) v;
    }

    private static Function<Row, Object> valueOf(String column) {
      if (column.startsWith("st.")) {
        String field = column.substring(3);
        return r -> r.get("st") instanceof Row st ? st.get(field) : null;
      }
      return r -> r.get(column);
    }
  }
}
