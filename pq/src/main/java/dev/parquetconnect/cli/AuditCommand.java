package dev.parquetconnect.cli;

import dev.parquetconnect.cli.ArchiveAudit.Duplicate;
import dev.parquetconnect.cli.ArchiveAudit.Gap;
import dev.parquetconnect.cli.ArchiveAudit.PartitionReport;
import dev.parquetconnect.cli.ArchiveAudit.Report;
import dev.parquetconnect.cli.ArchiveAudit.TopicPartition;
import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code pq audit PATH}: whether an archive the sink wrote holds every offset once ({@link
 * ArchiveAudit}); exit 0 when complete and exact, 1 naming each gap, duplicate and unreadable file.
 */
final class AuditCommand implements Command {
  @Override
  public String name() {
    return "audit";
  }

  @Override
  public String summary() {
    return "check a sink archive: every offset once; exit 1 naming gaps and duplicates";
  }

  @Override
  public String help() {
    return """
        usage: pq audit PATH_OR_URL [--topic TOPIC] [--from TOPIC:PARTITION:OFFSET,...] [--json]
                        [--store-config FILE]

        Checks an archive the sink wrote (its topics.dir, or any directory above the files),
        per original topic and partition: the offsets its files cover, gaps, duplicates,
        files, rows, bytes, schema versions and the first and last __kafka_timestamp.

        Counted as the source reads them: files named <topic>+<partition>+<first>[+<last>]
        [-<attempt>].parquet; of the files sharing a first offset the highest attempt only;
        never a file whose attempt the sink's outcome marker (_markers/) says aborted, nor
        temporary files (.tmp-pqc-*) or other entries whose name starts with _ or .
        (uncommitted or rolled-back work, listed, not checked).

        A gap is a range of offsets no commit covers: between two files' named ranges, or
        before the first when --from gives where a partition starts (otherwise the first
        offset present is the start, as retention deletes the earliest files). Offsets
        inside a commit's named range that no row holds are ones the sink read and did
        not write (dead letters, transaction markers, compacted records): counted, not gaps.
        A duplicate is an offset held by two rows. A file that cannot be read is a gap over
        its named offsets.

        PATH_OR_URL: a local directory or file:// URL; hdfs://namenode:port/path or
        s3://bucket/prefix when the Connect plugin's jars are on the class path (bin/pq adds
        plugin/target/plugin/lib when it exists), with the store settings of
        docs/storage.md (s3.region, s3.endpoint, aws.access.key.id, hadoop.*...) in the
        properties file --store-config.
        iceberg://NAMESPACE.TABLE[@SNAPSHOT_ID]: the data files an Iceberg table's snapshot
        references (the plugin's jars again), with store.url and the iceberg.catalog.* keys
        in --store-config; every referenced file counts.

        Exit 0: every partition complete and exact. Exit 1: each gap, duplicate and
        unreadable file named (file and offsets). For a scheduled check, run it after the
        sink's commits settle and alert on a non-zero exit; --json gives the same report
        as one JSON object.
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of("topic", "from", "store-config");
  }

  @Override
  public Set<String> flags() {
    return Set.of("json");
  }

  @Override
  public int run(Arguments args, CommandOutput output)
      throws UsageException, InputException, IOException, ParquetException {
    String path = args.positionals(1, 1, "PATH").get(0);
    Map<TopicPartition, Long> starts = starts(args.option("from"));
    Report report;
    try (Archive archive = Archive.open(path, storeSettings(args.option("store-config")))) {
      report = ArchiveAudit.audit(archive, args.option("topic"), starts);
    }
    Writer out = output.out();
    if (args.flag("json")) {
      out.write(json(path, report));
    } else {
      out.write(text(path, report));
    }
    return report.complete() ? Pq.OK : Pq.FAILED;
  }

  /** The store settings of a properties file (the connector's store keys), or none. */
  static Map<String, String> storeSettings(String file) throws InputException, IOException {
    Map<String, String> settings = new LinkedHashMap<>();
    if (file == null) {
      return settings;
    }
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (NoSuchFileException e) {
      throw new InputException("--store-config: no such file: " + file);
    }
    for (String key : properties.stringPropertyNames()) {
      settings.put(key, properties.getProperty(key));
    }
    return settings;
  }

  /** {@code topic:partition:offset} entries, comma-separated. */
  static Map<TopicPartition, Long> starts(String option) throws UsageException {
    Map<TopicPartition, Long> starts = new LinkedHashMap<>();
    if (option == null || option.isBlank()) {
      return starts;
    }
    for (String raw : option.split(",")) {
      String entry = raw.trim();
      int last = entry.lastIndexOf(':');
      int middle = last <= 0 ? -1 : entry.lastIndexOf(':', last - 1);
      try {
        if (middle <= 0) {
          throw new NumberFormatException();
        }
        starts.put(
            new TopicPartition(
                entry.substring(0, middle), Integer.parseInt(entry.substring(middle + 1, last))),
            Long.parseLong(entry.substring(last + 1)));
      } catch (NumberFormatException e) {
        throw new UsageException(
            "--from needs TOPIC:PARTITION:OFFSET entries, got '" + entry + "'");
      }
    }
    return starts;
  }

  private static String time(Long millis) {
    return millis == null ? "none" : Instant.ofEpochMilli(millis).toString();
  }

  static String text(String path, Report report) {
    StringBuilder s = new StringBuilder();
    int problems = 0;
    for (PartitionReport p : report.partitions) {
      s.append(p.tp.topic()).append(" partition ").append(p.tp.partition()).append(": ");
      if (p.lastOffset >= p.firstOffset) {
        s.append("offsets ").append(p.firstOffset).append('-').append(p.lastOffset);
      } else {
        s.append("no offsets");
      }
      s.append(", ")
          .append(p.files.size())
          .append(" files, ")
          .append(p.rows)
          .append(" rows, ")
          .append(p.bytes)
          .append(" bytes, ")
          .append(p.schemaVersions.size())
          .append(p.schemaVersions.size() == 1 ? " schema version" : " schema versions")
          .append(", timestamps ")
          .append(time(p.firstTimestamp))
          .append(" to ")
          .append(time(p.lastTimestamp));
      if (p.offsetsWithoutRows > 0) {
        s.append(", ").append(p.offsetsWithoutRows).append(" offsets read but not written");
      }
      s.append(p.complete() ? ": complete\n" : ": INCOMPLETE\n");
      for (Gap g : p.gaps) {
        problems++;
        s.append("  GAP offsets ").append(g.offsets());
        if (g.cause() != null) {
          s.append(": ").append(g.cause());
        } else {
          s.append(" missing")
              .append(g.before() == null ? " before the first file" : " after " + g.before())
              .append(g.after() == null ? "" : ", before " + g.after());
        }
        s.append('\n');
      }
      for (Duplicate d : p.duplicates) {
        problems++;
        s.append("  DUPLICATE offsets ").append(d.offsets()).append(" in ").append(d.first());
        s.append(d.first().equals(d.second()) ? " (twice)" : " and " + d.second()).append('\n');
      }
      for (String m : p.misplaced) {
        problems++;
        s.append("  MISPLACED ").append(m).append('\n');
      }
    }
    list(s, "rolled back (outcome marker aborted), not counted", report.rolledBack);
    list(s, "superseded by a later attempt, not counted", report.superseded);
    list(s, "temporary (uncommitted), not counted", report.temporary);
    if (!report.foreign.isEmpty()) {
      s.append(report.foreign.size()).append(" other files, not sink files: not counted\n");
    }
    s.append(report.complete() ? "OK " : "FAILED ")
        .append(path)
        .append(": ")
        .append(report.partitions.size())
        .append(" partitions, ")
        .append(problems)
        .append(problems == 1 ? " problem\n" : " problems\n");
    return s.toString();
  }

  private static void list(StringBuilder s, String what, List<String> keys) {
    if (!keys.isEmpty()) {
      s.append(keys.size()).append(" files ").append(what).append(":\n");
      for (String k : keys) {
        s.append("  ").append(k).append('\n');
      }
    }
  }

  static String json(String path, Report report) {
    StringBuilder s = new StringBuilder("{\"path\":");
    Json.appendString(s, path);
    s.append(",\"complete\":").append(report.complete()).append(",\"partitions\":[");
    for (int i = 0; i < report.partitions.size(); i++) {
      PartitionReport p = report.partitions.get(i);
      s.append(i == 0 ? "" : ",").append("{\"topic\":");
      Json.appendString(s, p.tp.topic());
      s.append(",\"partition\":").append(p.tp.partition());
      s.append(",\"complete\":").append(p.complete());
      s.append(",\"firstOffset\":").append(p.firstOffset);
      s.append(",\"lastOffset\":").append(p.lastOffset);
      s.append(",\"files\":").append(p.files.size());
      s.append(",\"rows\":").append(p.rows);
      s.append(",\"bytes\":").append(p.bytes);
      s.append(",\"schemaVersions\":").append(p.schemaVersions.size());
      s.append(",\"offsetsReadNotWritten\":").append(p.offsetsWithoutRows);
      s.append(",\"firstTimestamp\":").append(p.firstTimestamp);
      s.append(",\"lastTimestamp\":").append(p.lastTimestamp);
      s.append(",\"gaps\":[");
      for (int g = 0; g < p.gaps.size(); g++) {
        Gap gap = p.gaps.get(g);
        s.append(g == 0 ? "" : ",").append("{\"from\":").append(gap.offsets().from());
        s.append(",\"to\":").append(gap.offsets().to()).append(",\"after\":");
        appendNullable(s, gap.before());
        s.append(",\"before\":");
        appendNullable(s, gap.after());
        s.append(",\"cause\":");
        appendNullable(s, gap.cause());
        s.append('}');
      }
      s.append("],\"duplicates\":[");
      for (int d = 0; d < p.duplicates.size(); d++) {
        Duplicate dup = p.duplicates.get(d);
        s.append(d == 0 ? "" : ",").append("{\"from\":").append(dup.offsets().from());
        s.append(",\"to\":").append(dup.offsets().to()).append(",\"files\":[");
        Json.appendString(s, dup.first());
        s.append(',');
        Json.appendString(s, dup.second());
        s.append("]}");
      }
      s.append("],\"misplaced\":");
      appendStrings(s, p.misplaced);
      s.append('}');
    }
    s.append("],\"rolledBack\":");
    appendStrings(s, report.rolledBack);
    s.append(",\"superseded\":");
    appendStrings(s, report.superseded);
    s.append(",\"temporary\":");
    appendStrings(s, report.temporary);
    s.append(",\"otherFiles\":").append(report.foreign.size()).append("}\n");
    return s.toString();
  }

  private static void appendNullable(StringBuilder s, String value) {
    if (value == null) {
      s.append("null");
    } else {
      Json.appendString(s, value);
    }
  }

  private static void appendStrings(StringBuilder s, List<String> values) {
    s.append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        s.append(',');
      }
      Json.appendString(s, values.get(i));
    }
    s.append(']');
  }
}
