package dev.parquetconnect.sink;

import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.sink.Epoch.Place;
import dev.parquetconnect.sink.commit.CommitProtocol.DataFile;
import dev.parquetconnect.sink.commit.CommitProtocol.PendingCommit;
import dev.parquetconnect.sink.commit.DeferredOutput;
import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The files of one Kafka partition's open commit ({@link Epoch}): finds the open file of a record's
 * place, opens a new one under the commit's provisional name, and at the commit gives every file
 * its final name.
 */
final class FileOpener {
  private final TopicPartition source;
  private final SinkRuntime rt;

  /** The place of the previous record, reused while records keep going to the same one. */
  private Place lastPlace;

  FileOpener(TopicPartition source, SinkRuntime runtime) {
    this.source = source;
    this.rt = runtime;
  }

  /**
   * The place of a record: the previous record's when topic and partition columns are the same (the
   * columns by identity, as partitioners that cache them return them), so the open file's lookup in
   * {@link Epoch#file} finds it without hashing.
   */
  Place place(String topic, List<PartitionColumn> columns) {
    Place last = lastPlace;
    if (last != null && last.columns() == columns && last.topic().equals(topic)) {
      return last;
    }
    lastPlace = new Place(topic, columns);
    return lastPlace;
  }

  /** The open file of {@code place} in the open commit, or null. */
  OpenFile find(Epoch current, Place place) {
    OpenFile file = current.file(place);
    return file != null ? file : fileInSameDirectory(current, place);
  }

  /**
   * The open file of another place whose columns name the same directory as {@code place}'s, or
   * null. Different columns can: null and "" are both the default partition (and values past the
   * cap share a directory when their hashes do). They must share its file: a second file of the
   * commit would get the same key and replace the first, whose records would be lost although their
   * offsets are committed.
   */
  private OpenFile fileInSameDirectory(Epoch current, Place place) {
    String dir;
    try {
      dir = rt.keys().dataDir(place.topic(), HivePaths.path(place.columns()));
    } catch (IllegalArgumentException e) {
      return null; // open makes it the record's error
    }
    OpenFile file = current.fileIn(dir);
    if (file != null) {
      current.alias(place, file);
    }
    return file;
  }

  /**
   * A new file of the open commit for {@code first}, its writer taking over the schema of {@code
   * predecessor} (null if none).
   *
   * @throws UnstorableDirectory the store's key rules refuse the record's partition directory
   */
  OpenFile open(Epoch current, Place place, SinkRecord first, RecordFileWriter predecessor)
      throws IOException {
    String dir;
    String key;
    String partitionPath;
    try {
      partitionPath = HivePaths.path(place.columns());
      dir = rt.keys().dataDir(place.topic(), partitionPath);
      key =
          rt.keys()
              .check(
                  StoreKeys.join(
                      dir,
                      SinkKeys.dataName(
                          source, current.start(), SinkKeys.OPEN, current.attempt())));
      // Every final name has this length (offsets are printed with 20 digits) and only digits
      // differ: if this one passes, the name given at the commit will too.
      rt.keys()
          .check(
              StoreKeys.join(
                  dir,
                  SinkKeys.dataName(source, current.start(), Long.MAX_VALUE, current.attempt())));
    } catch (IllegalArgumentException e) {
      // The store's key rules refused the path (e.g. too long in total): a property of the
      // record, so it is the record's error.
      throw new UnstorableDirectory(e);
    }
    StoreOutput output = new DeferredOutput(rt.store(), key);
    OpenFile file = new OpenFile(key, dir, partitionPath, output);
    try {
      file.writer(rt.writers().create(output, first, predecessor));
    } catch (IOException | RuntimeException e) {
      file.abortQuietly();
      throw e;
    }
    current.add(place, file);
    return file;
  }

  /**
   * The store's key rules refuse a record's partition directory. A type of its own: the writer
   * reports it as the record's error at once, where the writer's own refusal of the record is
   * reported only after the file just opened is taken back.
   */
  static final class UnstorableDirectory extends DataException {
    UnstorableDirectory(IllegalArgumentException cause) {
      super("its partition directory cannot be stored: " + cause.getMessage(), cause);
    }
  }

  /** Takes back a file just opened whose first record was refused, so no empty file is kept. */
  void dropUnwritten(Epoch current, Place place, OpenFile file) {
    current.remove(place, file);
    rt.budget().release(file);
    file.abortQuietly();
  }

  /**
   * The open commit as the protocol commits it. The end offset is known now: every file gets its
   * full name, the same in each directory, so that recovery finds (or deletes) exactly what the
   * commit made visible.
   */
  PendingCommit named(Epoch e) {
    String name = SinkKeys.dataName(source, e.start(), e.end(), e.attempt());
    List<DataFile> files = new ArrayList<>(e.files().size());
    for (OpenFile file : e.files()) {
      file.finalKey(StoreKeys.join(file.directory(), name));
      files.add(new Publication(file));
    }
    return new PendingCommit(e.start(), e.end(), e.attempt(), e.recordsWritten(), files);
  }

  /** A finished file, made visible under its final key; its memory is free then. */
  private final class Publication implements DataFile {
    private final OpenFile file;

    Publication(OpenFile file) {
      this.file = file;
    }

    @Override
    public String key() {
      return file.finalKey();
    }

    @Override
    public void publish() throws IOException {
      file.output().commitAs(file.finalKey());
      rt.budget().release(file);
    }

    @Override
    public long sizeBytes() {
      return file.writer().bytesWritten();
    }

    @Override
    public long recordCount() {
      return file.writer().recordCount();
    }

    @Override
    public MessageType schema() {
      return file.writer().parquetSchema();
    }

    @Override
    public String partitionPath() {
      return file.partitionPath();
    }

    @Override
    public FileMetaData footer() {
      return file.writer().footer();
    }
  }
}
