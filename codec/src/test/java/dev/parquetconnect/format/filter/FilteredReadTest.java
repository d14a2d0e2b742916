package dev.parquetconnect.format.filter;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.FilterCounters;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.Projection;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Filtered reading as the source uses it: a reader started at the position after any returned row
 * returns exactly the rest, with or without a filter; bloom filters rule out row groups whose
 * statistics cannot.
 */
class FilteredReadTest {
  private static final Logger LOG = LoggerFactory.getLogger(FilteredReadTest.class);
  private static final long SEED = Long.getLong("filter.seed", System.nanoTime());

  @TempDir Path dir;

  private static final MessageType SCHEMA =
      new MessageType(
          "events",
          List.of(
              PrimitiveNode.of("offset", REQUIRED, PhysicalType.INT64),
              PrimitiveNode.of("key", OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING),
              PrimitiveNode.of("amount", OPTIONAL, PhysicalType.INT32)));

  private Path write(int rows, Random random, WriterOptions options) throws Exception {
    Path file = dir.resolve("events.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, SCHEMA, options)) {
      for (int i = 0; i < rows; i++) {
        writer.write(
            Row.of(
                SCHEMA.root(),
                (long) i,
                ("k" + random.nextInt(1_000_000)).getBytes(StandardCharsets.UTF_8),
                random.nextInt(10) == 0 ? null : random.nextInt(1000)));
      }
    }
    return file;
  }

  /** Position after a returned row, and the row. */
  private record Returned(int rowGroup, long rowInGroup, Row row) {}

  private static List<Returned> read(Path file, String where, int rowGroup, long row)
      throws Exception {
    List<Returned> out = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      Projection all = Projection.all(reader.schema());
      try (RowReader rows =
          where == null
              ? reader.rowReader(all)
              : reader.rowReader(all, PredicateParser.parse(where).bind(reader.schema()))) {
        rows.startAt(rowGroup, row);
        while (rows.hasNext()) {
          Row r = rows.next();
          out.add(new Returned(rows.rowGroup(), rows.rowInGroup(), r));
        }
      }
    }
    return out;
  }

  @Test
  void aReaderStartedAtAReturnedPositionReturnsExactlyTheRest() throws Exception {
    LOG.info("seed {} (-Dfilter.seed={} replays it)", SEED, SEED);
    Random random = new Random(SEED);
    Path file =
        write(3000, random, WriterOptions.builder().pageRowLimit(25).rowGroupRowLimit(700).build());
    for (String where : new String[] {null, "amount < 100", "amount IS NULL OR amount > 900"}) {
      List<Returned> full = read(file, where, 0, 0);
      assertTrue(full.size() > 100, where + ": " + full.size());
      for (int k = 0; k < 30; k++) {
        int cut = random.nextInt(full.size());
        Returned at = full.get(cut);
        List<Returned> rest = read(file, where, at.rowGroup(), at.rowInGroup());
        assertEquals(
            full.subList(cut + 1, full.size()).stream().map(Returned::row).toList(),
            rest.stream().map(Returned::row).toList(),
            "seed " + SEED + ", " + where + ", resumed after row " + cut);
      }
    }
  }

  @Test
  void matchingRowsAreThePositionsTheFilteredReaderReturns() throws Exception {
    Random random = new Random(SEED);
    Path file =
        write(2000, random, WriterOptions.builder().pageRowLimit(30).rowGroupRowLimit(600).build());
    String where = "amount < 50 OR (amount > 990 AND key >= 'k5')";
    List<Returned> returned = read(file, where, 0, 0);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      BoundPredicate p = PredicateParser.parse(where).bind(reader.schema());
      List<String> fromRanges = new ArrayList<>();
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        RowRanges rows = reader.matchingRows(g, p);
        for (int r = 0; r < rows.rangeCount(); r++) {
          for (long row = rows.start(r); row < rows.end(r); row++) {
            fromRanges.add(g + ":" + row);
          }
        }
      }
      assertEquals(
          returned.stream().map(x -> x.rowGroup() + ":" + (x.rowInGroup() - 1)).toList(),
          fromRanges);
    }
  }

  @Test
  void corpusBloomFiltersHoldEveryValueAndRuleOutOthers() throws Exception {
    String[] present = {
      "Hello",
      "How",
      "This is",
      "a",
      "are you",
      "brown fox",
      "dog",
      "doing ",
      "jumps",
      "over",
      "test",
      "the lazy",
      "the quick",
      "today"
    };
    String[] absent = {"Hellp", "cat", "fox", "mouse", "the", "quick"};
    for (String name :
        new String[] {"data_index_bloom_encoding_stats", "data_index_bloom_encoding_with_length"}) {
      Path file =
          Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing")
              .resolve("data/" + name + ".parquet");
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
        assertTrue(reader.bloomFilter(0, reader.schema().column(0)) != null, name);
        for (String value : present) {
          BoundPredicate p =
              PredicateParser.parse("String = '" + value + "'").bind(reader.schema());
          assertTrue(p.mightMatchBloom(reader.bloomFilters(0)), name + ": " + value);
          assertEquals(1, reader.matchingRows(0, p).rowCount(), name + ": " + value);
        }
        int ruledOut = 0;
        for (String value : absent) {
          BoundPredicate p =
              PredicateParser.parse("String = '" + value + "'").bind(reader.schema());
          if (!p.mightMatchBloom(reader.bloomFilters(0))) {
            ruledOut++;
          }
          assertEquals(0, reader.matchingRows(0, p).rowCount(), name + ": " + value);
        }
        assertTrue(ruledOut >= absent.length - 1, name + ": " + ruledOut + " ruled out");
      }
    }
  }

  @Test
  void bloomFiltersRuleOutRowGroupsTheirStatisticsCannot() throws Exception {
    Random random = new Random(SEED);
    Path file =
        write(
            4000,
            random,
            WriterOptions.builder().rowGroupRowLimit(500).bloomFilter("key", 500, 0.01).build());
    // A key of the file that every row group's bounds span: one near either end of the key
    // space can fall outside a row group's 500 random keys, and then the statistics rule it out.
    String present = null;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader rows = reader.rowReader()) {
      for (int i = 0; i < 1234; i++) {
        rows.next();
      }
      while (present == null && rows.hasNext()) {
        String key = new String((byte[]) rows.next().get("key"), StandardCharsets.UTF_8);
        BoundPredicate p = PredicateParser.parse("key = '" + key + "'").bind(reader.schema());
        boolean everyGroupKeeps = true;
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          everyGroupKeeps &=
              p.mightMatch(reader.rowGroups().get(g), reader.metadata().columnOrders());
        }
        if (everyGroupKeeps) {
          present = key;
        }
      }
    }
    assertNotNull(present, "no key inside every row group's bounds");
    // Keys are k0..k999999 in random order: every row group's bounds span nearly all of them.
    for (String key : new String[] {"k5000001", present}) {
      try (LocalFileInput input = new LocalFileInput(file);
          ParquetFileReader reader = ParquetFileReader.open(input)) {
        BoundPredicate p = PredicateParser.parse("key = '" + key + "'").bind(reader.schema());
        int statisticsKeep = 0;
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          if (p.mightMatch(reader.rowGroups().get(g), reader.metadata().columnOrders())) {
            statisticsKeep++;
          }
        }
        int matches = 0;
        FilterCounters counters;
        try (RowReader rows = reader.rowReader(Projection.all(reader.schema()), p)) {
          while (rows.hasNext()) {
            rows.next();
            matches++;
          }
          counters = rows.counters();
        }
        LOG.info(
            "key = '{}': statistics keep {} of 8 row groups; read: {}; {} bytes",
            key,
            statisticsKeep,
            counters,
            input.bytesRead());
        assertEquals(8, statisticsKeep, "the statistics cannot rule the key out");
        if (key.equals(present)) {
          assertTrue(matches >= 1);
          assertTrue(counters.rowGroupsSkipped() >= 5, counters.toString());
        } else {
          assertEquals(0, matches);
          assertTrue(counters.rowGroupsSkipped() >= 6, counters.toString());
        }
      }
    }
  }
}
