package dev.parquetconnect.source;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generic mode: one file replayed row by row, each row a record of {@code topic}, with its own
 * source partition {@code {file}} and offset {@code {rowGroup, row, done}}.
 */
final class FileReplay implements ReplayUnit {
  private static final Logger LOG = LoggerFactory.getLogger(FileReplay.class);

  private final TaskRuntime rt;
  private final StoreFile file;
  private final Map<String, Object> sourcePartition;
  private final Map<String, Object> committed;
  private FileCursor cursor;
  private GenericRowMapper mapper;
  private boolean done;

  /**
   * @param committed the file's committed offset, or null when it was never read
   */
  FileReplay(TaskRuntime rt, StoreFile file, Map<String, Object> committed) {
    this.rt = rt;
    this.file = file;
    this.sourcePartition = SourcePositions.filePartition(file.key());
    this.committed = committed;
  }

  /** Whether a committed offset says the file was read to its end (or skipped) before. */
  static boolean finishedBefore(Map<String, Object> committed) {
    return SourcePositions.flagOf(committed, SourcePositions.DONE);
  }

  @Override
  public boolean hasWork() {
    return !done;
  }

  @Override
  public void read(List<SourceRecord> out, int max) {
    if (done) {
      return;
    }
    try {
      if (cursor == null) {
        open();
      }
      while (out.size() < max) {
        if (!cursor.hasNext()) {
          finish(null);
          return;
        }
        cursor.next();
        int rowGroup = cursor.rowGroup();
        long rowAfter = cursor.rowInGroup();
        Exception peekFailure = null;
        boolean more;
        try {
          more = cursor.hasNext();
        } catch (IOException | ParquetException | RuntimeException e) {
          more = true;
          peekFailure = e;
        }
        SourceRecord record =
            mapper.toRecord(
                cursor.record(),
                sourcePartition,
                SourcePositions.fileOffset(rowGroup, rowAfter, !more));
        // A record outside the time range is not sent; the next one sent carries the position
        // past it, and a restart before that reads it again and leaves it out again.
        boolean selected = rt.selection.timeSelected(record.timestamp());
        if (selected) {
          out.add(record);
          rt.sent(file.key());
        }
        if (peekFailure != null) {
          fail(peekFailure, out);
          return;
        }
        if (!more) {
          finish(selected ? record : null);
          return;
        }
      }
    } catch (IOException | ParquetException | RuntimeException e) {
      if (e instanceof org.apache.kafka.connect.errors.ConnectException c
          && !(e instanceof org.apache.kafka.connect.errors.DataException)) {
        throw c;
      }
      fail(e, out);
    }
  }

  private void open() throws IOException, ParquetException {
    cursor = FileCursor.open(rt.store, file);
    mapper =
        GenericRowMapper.of(
            cursor.schema(),
            rt.config.topic(),
            rt.config.keyFields(),
            rt.config.timestampField(),
            file.modified().toEpochMilli(),
            rt.partitions);
    cursor.readWith(mapper.mapping());
    rt.selection.filter(cursor);
    rt.selection.skipPagesOutsideTime(cursor, rt.config.timestampField());
    if (committed != null) {
      int rowGroup = (int) SourcePositions.longOf(committed, SourcePositions.ROW_GROUP, 0);
      long row = SourcePositions.longOf(committed, SourcePositions.ROW, 0);
      cursor.seek(rowGroup, row);
      LOG.info(
          "{} resuming file {} at row group {}, row {}", rt.logPrefix, file.key(), rowGroup, row);
    } else {
      LOG.info(
          "{} replaying file {} ({} bytes, {} row groups)",
          rt.logPrefix,
          file.key(),
          file.size(),
          cursor.rowGroupCount());
    }
  }

  private void finish(SourceRecord last) {
    closeCursor();
    done = true;
    rt.files.finished(file, ReplayedFiles.Action.AFTER_REPLAY);
    rt.fileEnded(last);
  }

  private void fail(Exception e, List<SourceRecord> out) {
    int rowGroup = cursor == null ? 0 : cursor.rowGroup();
    long row = cursor == null ? 0 : cursor.rowInGroup();
    closeCursor();
    done = true;
    SourceRecord report =
        rt.corruptFiles.handle(
            file, rowGroup, row, e, sourcePartition, SourcePositions.skippedFileOffset());
    if (report != null) {
      out.add(report);
    }
    rt.fileEnded(report);
  }

  private void closeCursor() {
    if (cursor != null) {
      try {
        cursor.close();
      } catch (IOException e) {
        LOG.debug("{} closing {}: {}", rt.logPrefix, file.key(), e.toString());
      }
      cursor = null;
    }
  }

  @Override
  public void close() {
    closeCursor();
  }
}
