package dev.parquetconnect.source;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.source.ParquetSourceConfig.OnCorruptFile;
import dev.parquetconnect.storage.StoreFile;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file that cannot be read (a damaged footer or page, a missing metadata column, an I/O failure
 * that outlasted the store's retries), handled as {@code errors.on.corrupt.file} says: fail the
 * task with a message naming the file and the position, or skip the file, logging it, reporting it
 * to {@code errors.topic} and moving it under {@code errors.quarantine.prefix} once the report is
 * acknowledged. A skipped file's position is recorded as skipped, so a restart does not read it
 * again: never a crash loop.
 */
final class CorruptFiles {
  private static final Logger LOG = LoggerFactory.getLogger(CorruptFiles.class);

  static final Schema REPORT_SCHEMA =
      SchemaBuilder.struct()
          .name("dev.parquetconnect.source.CorruptFile")
          .field("store", Schema.STRING_SCHEMA)
          .field("file", Schema.STRING_SCHEMA)
          .field("row_group", Schema.INT32_SCHEMA)
          .field("row", Schema.INT64_SCHEMA)
          .field("error", Schema.STRING_SCHEMA)
          .field("task", Schema.STRING_SCHEMA)
          .field("time", Schema.INT64_SCHEMA)
          .build();

  private final OnCorruptFile policy;
  private final String errorsTopic;
  private final String storeUrl;
  private final String taskName;
  private final String logPrefix;
  private final ReplayedFiles files;

  CorruptFiles(ParquetSourceConfig config, ReplayedFiles files, String taskName, String logPrefix) {
    this.policy = config.onCorruptFile();
    this.errorsTopic = config.errorsTopic();
    this.storeUrl = config.storeUrl();
    this.taskName = taskName;
    this.logPrefix = logPrefix;
    this.files = files;
  }

  /**
   * Deals with an unreadable file.
   *
   * @param rowGroup the row group being read when it failed (0 when the footer failed)
   * @param row the row in it
   * @param sourcePartition the partition the report record carries
   * @param skippedOffset the offset that marks the file as skipped
   * @return the report record to send, or null when no errors topic is set
   * @throws ConnectException in fail mode
   */
  SourceRecord handle(
      StoreFile file,
      int rowGroup,
      long row,
      Exception cause,
      Map<String, ?> sourcePartition,
      Map<String, ?> skippedOffset) {
    String where = "file " + file.key() + " (row group " + rowGroup + ", row " + row + ")";
    String why = describe(cause);
    if (policy == OnCorruptFile.FAIL) {
      throw new ConnectException(
          "cannot read "
              + where
              + " of "
              + storeUrl
              + ": "
              + why
              + "; set errors.on.corrupt.file=skip to go on without it",
          cause);
    }
    LOG.error("{} skipping unreadable {}: {}", logPrefix, where, why, cause);
    SourceRecord report = null;
    if (!errorsTopic.isEmpty()) {
      Struct value =
          new Struct(REPORT_SCHEMA)
              .put("store", storeUrl)
              .put("file", file.key())
              .put("row_group", rowGroup)
              .put("row", row)
              .put("error", why)
              .put("task", taskName)
              .put("time", System.currentTimeMillis());
      report =
          new SourceRecord(
              sourcePartition,
              skippedOffset,
              errorsTopic,
              null,
              Schema.STRING_SCHEMA,
              file.key(),
              REPORT_SCHEMA,
              value);
      files.sent(file.key());
    }
    files.finished(file, ReplayedFiles.Action.QUARANTINE);
    return report;
  }

  /** The message of the failure, with the location the format layer knows. */
  private static String describe(Exception cause) {
    if (cause instanceof ParquetException p) {
      return p.getClass().getSimpleName() + ": " + p.getMessage();
    }
    return cause.toString();
  }
}
