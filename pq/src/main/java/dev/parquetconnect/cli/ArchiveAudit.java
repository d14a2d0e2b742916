package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an archive our sink wrote (files mode): per original topic and partition, which offsets
 * its files cover, where offsets are missing (gaps) or held twice (duplicates), and which files
 * cannot be read.
 *
 * <p>What counts, as the source reads it: files named {@code
 * <topic>+<partition>+<first>[+<last>][-<attempt>].parquet}; of the files sharing a first offset
 * only the highest attempt (a lower one is a rolled-back commit the sink deletes); never a file
 * whose attempt an outcome marker ({@code _markers/<connector>/<topic>/<partition>/<first>-
 * <attempt>.outcome}) says {@code aborted}; never temporary files ({@code .tmp-pqc-*}) or other
 * entries whose name starts with {@code _} or {@code .}. Those are counted, not checked.
 *
 * <p>A commit covers the offsets of its name, first to last (a name without a last offset: to the
 * largest offset in its files); offsets inside a commit that no row holds are ones the sink read
 * and did not write (dead letters, transaction markers, records compacted away) and are not gaps. A
 * gap is a range of offsets between commits, or before the first commit when {@code --from} says
 * where the archive starts (otherwise the first offset present is the start: retention deletes the
 * earliest files). A duplicate is an offset held by more than one row. A file whose footer or
 * {@code __kafka_offset} column cannot be read is unreadable, and its commit's offsets count as
 * missing.
 */
final class ArchiveAudit {
  static final String OFFSET_COLUMN = "__kafka_offset";
  static final String TIMESTAMP_COLUMN = "__kafka_timestamp";

  private static final Pattern NAME =
      Pattern.compile(
          "([^+]+)\\+(\\d{1,10})\\+(\\d{1,20})(?:\\+(\\d{1,20}))?(?:-(\\d{1,10}))?\\..*");
  private static final Pattern OUTCOME =
      Pattern.compile(
          "(?:.*/)?_markers/[^/]+/([^/]+)/(\\d{1,10})/(\\d{1,20})-(\\d{1,9})\\.outcome");
  private static final int MAX_OUTCOME_BYTES = 64 * 1024;
  private static final int BATCH = 4096;

  /** A topic-partition of the archive. */
  record TopicPartition(String topic, int partition) {
    @Override
    public String toString() {
      return topic + "-" + partition;
    }
  }

  /** A sink file name's parts; {@code last} is -1 when the name has none. */
  record FileName(TopicPartition tp, long first, long last, int attempt) {
    static FileName parse(String name) {
      Matcher m = NAME.matcher(name);
      if (!m.matches()) {
        return null;
      }
      String topic = percentDecode(m.group(1));
      try {
        return topic == null
            ? null
            : new FileName(
                new TopicPartition(topic, Integer.parseInt(m.group(2))),
                Long.parseLong(m.group(3)),
                m.group(4) == null ? -1 : Long.parseLong(m.group(4)),
                m.group(5) == null ? 0 : Integer.parseInt(m.group(5)));
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  /** Offsets {@code from} to {@code to}, inclusive. */
  record Range(long from, long to) {
    long count() {
      return to - from + 1;
    }

    @Override
    public String toString() {
      return from == to ? Long.toString(from) : from + "-" + to;
    }
  }

  /** What one file holds: consecutive offset runs, rows, timestamps, schema; or why unreadable. */
  static final class FileFacts {
    final Archive.Entry entry;
    final FileName name;
    final List<Range> runs = new ArrayList<>();
    long rows;
    Long minTimestamp;
    Long maxTimestamp;
    String schema;
    String error;

    FileFacts(Archive.Entry entry, FileName name) {
      this.entry = entry;
      this.name = name;
    }

    long lastOffset() {
      if (name.last() >= 0) {
        return name.last();
      }
      long max = name.first();
      for (Range r : runs) {
        max = Math.max(max, r.to());
      }
      return max;
    }
  }

  /** A gap: offsets no commit covers, with the files on either side (null at an end). */
  record Gap(Range offsets, String before, String after, String cause) {}

  /** A duplicate: offsets held by more than one file (or twice by one). */
  record Duplicate(Range offsets, String first, String second) {}

  /** The audit of one topic-partition. */
  static final class PartitionReport {
    final TopicPartition tp;
    final List<FileFacts> files = new ArrayList<>();
    final List<Gap> gaps = new ArrayList<>();
    final List<Duplicate> duplicates = new ArrayList<>();
    final List<String> misplaced = new ArrayList<>();
    final Map<String, Long> schemaVersions = new LinkedHashMap<>();
    long firstOffset = -1;
    long lastOffset = -1;
    long rows;
    long bytes;
    long offsetsWithoutRows;
    Long firstTimestamp;
    Long lastTimestamp;

    PartitionReport(TopicPartition tp) {
      this.tp = tp;
    }

    boolean complete() {
      return gaps.isEmpty() && duplicates.isEmpty() && misplaced.isEmpty();
    }
  }

  /** The whole archive's audit. */
  static final class Report {
    final List<PartitionReport> partitions = new ArrayList<>();
    final List<String> rolledBack = new ArrayList<>();
    final List<String> superseded = new ArrayList<>();
    final List<String> temporary = new ArrayList<>();
    final List<String> foreign = new ArrayList<>();

    boolean complete() {
      return partitions.stream().allMatch(PartitionReport::complete);
    }
  }

  private ArchiveAudit() {}

  /**
   * Audits {@code archive}.
   *
   * @param topic only this topic, or null for all
   * @param starts where partitions start when retention has not deleted their beginning ({@code
   *     --from}); partitions not in it start at their first offset present
   */
  static Report audit(Archive archive, String topic, Map<TopicPartition, Long> starts)
      throws IOException {
    Report report = new Report();
    List<Archive.Entry> entries = archive.list();
    Set<String> aborted = new HashSet<>();
    for (Archive.Entry e : entries) {
      Matcher m = OUTCOME.matcher(e.key());
      if (m.matches() && readsAborted(archive, e)) {
        String t = percentDecode(m.group(1));
        aborted.add(
            t
                + "+"
                + Integer.parseInt(m.group(2))
                + "+"
                + Long.parseLong(m.group(3))
                + "-"
                + Integer.parseInt(m.group(4)));
      }
    }
    Map<TopicPartition, List<FileFacts>> byPartition =
        new TreeMap<>(
            Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
    for (Archive.Entry e : entries) {
      if (hidden(e.key())) {
        if (e.name().startsWith(".tmp-pqc-")
            || e.key().contains("/.tmp-pqc-")
            || e.key().startsWith(".tmp-pqc-")) {
          report.temporary.add(e.key());
        }
        continue;
      }
      FileName name = e.name().endsWith(".parquet") ? FileName.parse(e.name()) : null;
      if (name == null) {
        report.foreign.add(e.key());
        continue;
      }
      if (topic != null && !topic.equals(name.tp().topic())) {
        continue;
      }
      String attempt =
          name.tp().topic()
              + "+"
              + name.tp().partition()
              + "+"
              + name.first()
              + "-"
              + name.attempt();
      if (aborted.contains(attempt)) {
        report.rolledBack.add(e.key());
        continue;
      }
      byPartition.computeIfAbsent(name.tp(), k -> new ArrayList<>()).add(new FileFacts(e, name));
    }
    for (Map.Entry<TopicPartition, List<FileFacts>> p : byPartition.entrySet()) {
      report.partitions.add(auditPartition(archive, p.getKey(), p.getValue(), starts, report));
    }
    return report;
  }

  private static PartitionReport auditPartition(
      Archive archive,
      TopicPartition tp,
      List<FileFacts> all,
      Map<TopicPartition, Long> starts,
      Report report) {
    PartitionReport pr = new PartitionReport(tp);
    // Of the files sharing a first offset, the highest attempt only: a lower one is a commit the
    // sink rolled back and deletes.
    Map<Long, Integer> highest = new HashMap<>();
    for (FileFacts f : all) {
      highest.merge(f.name.first(), f.name.attempt(), Math::max);
    }
    TreeMap<Long, List<FileFacts>> commits = new TreeMap<>();
    for (FileFacts f : all) {
      // In a table every file a snapshot references counts (its attempt numbers are random).
      if (!archive.everyFileCommitted() && f.name.attempt() < highest.get(f.name.first())) {
        report.superseded.add(f.entry.key());
        continue;
      }
      commits.computeIfAbsent(f.name.first(), k -> new ArrayList<>()).add(f);
      pr.files.add(f);
      read(archive, f);
      pr.bytes += f.entry.size();
      pr.rows += f.rows;
      if (f.minTimestamp != null) {
        pr.firstTimestamp =
            pr.firstTimestamp == null
                ? f.minTimestamp
                : Math.min(pr.firstTimestamp, f.minTimestamp);
      }
      if (f.maxTimestamp != null) {
        pr.lastTimestamp =
            pr.lastTimestamp == null ? f.maxTimestamp : Math.max(pr.lastTimestamp, f.maxTimestamp);
      }
      if (f.schema != null && !pr.schemaVersions.containsKey(f.schema)) {
        pr.schemaVersions.put(f.schema, f.name.first());
      }
    }
    // Gaps: offsets between commits (and before the first, when the start is given).
    Long start = starts.get(tp);
    long expected = start == null ? (commits.isEmpty() ? 0 : commits.firstKey()) : start;
    pr.firstOffset = expected;
    String previous = null;
    for (Map.Entry<Long, List<FileFacts>> c : commits.entrySet()) {
      long first = c.getKey();
      long last = first;
      String here = c.getValue().get(0).entry.key();
      for (FileFacts f : c.getValue()) {
        last = Math.max(last, f.lastOffset());
        if (f.error != null) {
          pr.gaps.add(
              new Gap(
                  new Range(first, f.lastOffset()),
                  null,
                  null,
                  f.entry.key() + " cannot be read: " + f.error));
        }
      }
      if (first > expected) {
        pr.gaps.add(new Gap(new Range(expected, first - 1), previous, here, null));
      }
      expected = Math.max(expected, last + 1);
      previous = c.getValue().get(c.getValue().size() - 1).entry.key();
      pr.lastOffset = Math.max(pr.lastOffset, last);
      // Rows outside their own commit's offsets: a file under the wrong name.
      for (FileFacts f : c.getValue()) {
        for (Range r : f.runs) {
          if (r.from() < first || r.to() > f.lastOffset()) {
            pr.misplaced.add(
                f.entry.key()
                    + " holds offsets "
                    + r
                    + " outside its name's "
                    + first
                    + "-"
                    + f.lastOffset());
          }
        }
      }
    }
    // Duplicates: runs of all files by first offset, each checked against the furthest so far.
    List<Object[]> runs = new ArrayList<>();
    for (FileFacts f : pr.files) {
      for (Range r : f.runs) {
        runs.add(new Object[] {r, f.entry.key()});
      }
    }
    runs.sort(Comparator.comparingLong(o -> ((Range) o[0]).from()));
    long reach = Long.MIN_VALUE;
    String reachFile = null;
    long held = 0;
    for (Object[] o : runs) {
      Range r = (Range) o[0];
      String file = (String) o[1];
      if (r.from() <= reach) {
        pr.duplicates.add(
            new Duplicate(new Range(r.from(), Math.min(r.to(), reach)), reachFile, file));
      }
      if (r.to() > reach) {
        held += r.to() - Math.max(r.from(), reach + 1) + 1;
        reach = r.to();
        reachFile = file;
      }
    }
    if (pr.lastOffset >= pr.firstOffset) {
      long covered = pr.lastOffset - pr.firstOffset + 1;
      long missing = 0;
      for (Gap g : pr.gaps) {
        missing += g.offsets().count();
      }
      pr.offsetsWithoutRows = Math.max(0, covered - missing - held);
    }
    return pr;
  }

  /** Reads a file's footer and its offsets; a failure is kept as the file's error. */
  private static void read(Archive archive, FileFacts f) {
    try (SeekableInput input = archive.open(f.entry.key());
        ParquetFileReader reader = ParquetFileReader.open(input)) {
      f.schema = reader.schema().toString();
      ColumnDescriptor offsets = reader.schema().column(OFFSET_COLUMN);
      if (offsets == null
          || offsets.maxRepetitionLevel() != 0
          || offsets.primitive().type() != PhysicalType.INT64) {
        throw new IllegalArgumentException("no top-level INT64 " + OFFSET_COLUMN + " column");
      }
      ColumnDescriptor timestamps = reader.schema().column(TIMESTAMP_COLUMN);
      ColumnBatch batch = new ColumnBatch(PhysicalType.INT64, BATCH);
      long runFrom = 0;
      long runTo = -2;
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        RowGroup group = reader.rowGroups().get(g);
        f.rows += group.numRows();
        if (timestamps != null && timestamps.primitive().type() == PhysicalType.INT64) {
          timestampBounds(f, group.columns().get(timestamps.index()), micros(timestamps));
        }
        try (ColumnReader column = reader.columnReader(g, offsets)) {
          int n;
          while ((n = column.readBatch(batch)) > 0) {
            long[] values = batch.longs();
            int[] definitions = batch.definitionLevels();
            int v = 0;
            for (int i = 0; i < n; i++) {
              if (offsets.maxDefinitionLevel() > 0 && definitions[i] == 0) {
                continue; // a null offset: no position to check
              }
              long offset = values[v++];
              if (offset == runTo + 1) {
                runTo = offset;
              } else {
                if (runTo >= runFrom) {
                  f.runs.add(new Range(runFrom, runTo));
                }
                runFrom = offset;
                runTo = offset;
              }
            }
          }
        }
      }
      if (runTo >= runFrom) {
        f.runs.add(new Range(runFrom, runTo));
      }
    } catch (IOException | ParquetException | RuntimeException e) {
      f.error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      f.runs.clear();
    }
  }

  /** Whether a timestamp column is in microseconds (an Iceberg table's files), else millis. */
  private static boolean micros(ColumnDescriptor column) {
    return column.primitive().logicalType() instanceof LogicalType.TimestampType t
        && t.unit() == TimeUnit.MICROS;
  }

  private static void timestampBounds(FileFacts f, ColumnChunk chunk, boolean micros) {
    if (chunk.metaData() == null || chunk.metaData().statistics() == null) {
      return;
    }
    Statistics s = chunk.metaData().statistics();
    Long min = int64(s.minValue() != null ? s.minValue() : s.min());
    Long max = int64(s.maxValue() != null ? s.maxValue() : s.max());
    if (micros) {
      min = min == null ? null : Math.floorDiv(min, 1000L);
      max = max == null ? null : Math.floorDiv(max, 1000L);
    }
    if (min != null) {
      f.minTimestamp = f.minTimestamp == null ? min : Math.min(f.minTimestamp, min);
    }
    if (max != null) {
      f.maxTimestamp = f.maxTimestamp == null ? max : Math.max(f.maxTimestamp, max);
    }
  }

  private static Long int64(ByteString bound) {
    if (bound == null || bound.length() != Long.BYTES) {
      return null;
    }
    return LittleEndian.getLong(bound.toByteArray(), 0);
  }

  private static boolean readsAborted(Archive archive, Archive.Entry e) throws IOException {
    try (SeekableInput in = archive.open(e.key())) {
      int length = (int) Math.min(in.length(), MAX_OUTCOME_BYTES);
      byte[] bytes = new byte[length];
      in.readFully(0, bytes, 0, length);
      for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
        if (line.equals("outcome=aborted")) {
          return true;
        }
      }
      return false;
    }
  }

  /** Whether any segment of a key starts with {@code _} or {@code .}: not data. */
  private static boolean hidden(String key) {
    for (String segment : key.split("/")) {
      if (segment.startsWith("_") || segment.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code %XX} sequences back to UTF-8, as the sink encodes topics in names; null if malformed.
   */
  static String percentDecode(String encoded) {
    if (encoded.indexOf('%') < 0) {
      return encoded;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c != '%') {
        byte[] plain = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(plain, 0, plain.length);
        continue;
      }
      if (i + 2 >= encoded.length()) {
        return null;
      }
      int hi = Character.digit(encoded.charAt(i + 1), 16);
      int lo = Character.digit(encoded.charAt(i + 2), 16);
      if (hi < 0 || lo < 0) {
        return null;
      }
      bytes.write(hi << 4 | lo);
      i += 2;
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
