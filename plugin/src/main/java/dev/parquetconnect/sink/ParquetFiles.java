package dev.parquetconnect.sink;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.connect.SchemaCompatibility;
import dev.parquetconnect.connect.SchemaEvolution;
import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.EncodingPolicy;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.storage.UnclosedOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The sink's record format: Parquet files through the conversion layer ({@code
 * dev.parquetconnect.connect}). Maps the connector's settings to the writer's options and to the
 * layout of each file, and asks {@link SchemaEvolution} whether a record fits its file.
 */
final class ParquetFiles implements RecordWriterFactory {
  /**
   * The heap an open file's writer holds besides its rows (column writers, page buffers,
   * dictionaries, statistics), which {@link ParquetRecordWriter#bufferedBytes()} does not count:
   * measured at about 95 KiB for a 13-column schema (7 KiB per column plus a few KiB). Counted in
   * the memory budget, so a thousand open files are seen to cost what they cost.
   */
  static final long FILE_BYTES = 8 * 1024;

  static final long COLUMN_BYTES = 7 * 1024;

  /**
   * Leaf columns past which new files no longer start from the learned layout: JSON whose keys are
   * data (ids as object keys) would otherwise make every open file carry every column ever seen, at
   * {@link #COLUMN_BYTES} of heap each. Past it, a file starts from its records' shapes as before,
   * and may roll more often.
   */
  static final int MAX_LEARNED_COLUMNS = 1_000;

  private final WriterOptions options;
  private final ColumnTuning columnTuning;
  private final MappingOptions mapping;
  private final SchemaInference inference;
  private final SchemaEvolution evolution;

  /**
   * Per topic, the widest layout this task's files took so far (schemaless: the merge of every
   * inferred schema; with schemas: the one the others project to under {@code
   * schema.compatibility}, e.g. the newest version under BACKWARD): a new file starts from it, so
   * records of shapes or versions seen before in any directory or Kafka partition fit it. Under
   * NONE it is the newest file's, which only a record of the same schema fits.
   */
  private final Map<String, FileLayout> learned = new HashMap<>();

  private Function<SinkRecord, UnaryOperator<MessageType>> fileSchemas =
      record -> UnaryOperator.identity();

  private ParquetFiles(ParquetSinkConfig config) {
    this.options = writerOptions(config);
    this.columnTuning = config.columnTuning();
    MappingOptions mapping =
        MappingOptions.defaults()
            .withKafkaMetadata(config.storeKafkaMetadata())
            .withKafkaKey(config.storeKafkaKey())
            .withKafkaHeaders(config.storeKafkaHeaders())
            .withTimestampUnit(
                config.timestampUnit().equals("micros") ? TimeUnit.MICROS : TimeUnit.MILLIS)
            .withTimeLogicalType(config.timeLogicalType())
            .withTombstones(
                config.nullValueBehavior() == ParquetSinkConfig.NullValueBehavior.WRITE);
    // Iceberg's timestamps are microseconds: its readers take any INT64 timestamp column as such.
    this.mapping = config.icebergTables() ? mapping.forIcebergTables() : mapping;
    this.inference =
        new SchemaInference(
            config.schemalessConflictsAsText()
                ? SchemaInference.ConflictPolicy.STRING
                : SchemaInference.ConflictPolicy.FAIL);
    this.evolution =
        new SchemaEvolution(
            SchemaCompatibility.valueOf(config.schemaCompatibility().name()), inference);
  }

  /** The format Connect's instance of the task writes. */
  static RecordWriterFactory writerFactory(ParquetSinkConfig config) {
    return new ParquetFiles(config);
  }

  /** The file writer's options from the {@code parquet.*} keys. */
  static WriterOptions writerOptions(ParquetSinkConfig config) {
    WriterOptions.Builder builder =
        WriterOptions.builder()
            .codec(config.codec(), config.codecLevel())
            .pageVersion(config.pageVersion().equals("v2") ? PageVersion.V2 : PageVersion.V1)
            .encodingPolicy(EncodingPolicy.parse(config.encodingPolicy()))
            .rowGroupByteTarget(config.rowGroupBytes())
            .pageByteLimit(config.pageBytes())
            .dictionaryByteLimit(config.dictionaryBytes());
    if (config.pageRows() > 0) {
      builder.pageRowLimit(config.pageRows());
    }
    for (String column : config.bloomFilterColumns()) {
      builder.bloomFilter(column, config.bloomFilterNdv(), config.bloomFilterFpp());
    }
    config.columnTuning().apply(builder, config.bloomFilterNdv(), config.bloomFilterFpp());
    return builder.build();
  }

  @Override
  public RecordFileWriter create(OutputStream out, SinkRecord first, RecordFileWriter predecessor)
      throws IOException {
    FileLayout layout =
        predecessor instanceof ParquetFile previous && previous.successor != null
            ? previous.successor
            : startingLayout(first, null);
    columnTuning.check(layout.parquetSchema(), first.topic());
    ParquetFile file =
        new ParquetFile(
            first.topic(),
            new ParquetRecordWriter(
                new UnclosedOutput(out), layout, options, inference, fileSchemas.apply(first)));
    // Learned once the file's schema is accepted: a table that refuses it (a bad record) must not
    // make the topic's next files start from the refused layout.
    learn(first.topic(), layout);
    return file;
  }

  /** The Parquet schema a new file opened for {@code record} would have now. */
  MessageType schemaFor(SinkRecord record) {
    return startingLayout(record, null).parquetSchema();
  }

  /**
   * Gives each new file's Parquet schema what a table wants of it (the table's field ids), per
   * record: {@code table.format=iceberg}. Without it files are written with the layout's schema.
   */
  void fileSchemas(Function<SinkRecord, UnaryOperator<MessageType>> schemas) {
    this.fileSchemas = schemas;
  }

  /**
   * The layout of a new file for {@code first}: the topic's learned layout widened by it (and by
   * {@code current}, the layout of the file it did not fit, if any).
   *
   * @throws DataException when the record's types conflict with what was learned under the failing
   *     conflict policy: it is a bad record, as it would be in a file that already held the other
   *     type
   */
  private FileLayout startingLayout(SinkRecord first, FileLayout current) {
    FileLayout own = evolution.layoutFor(first, current, mapping);
    FileLayout known = learned.get(first.topic());
    if (known == null || known.parquetSchema().columns().size() > MAX_LEARNED_COLUMNS) {
      return own;
    }
    return evolution.widest(known, own, mapping);
  }

  private void learn(String topic, FileLayout layout) {
    FileLayout known = learned.get(topic);
    try {
      learned.put(topic, known == null ? layout : evolution.widest(known, layout, mapping));
    } catch (DataException conflict) {
      // A conflict between files of different partitions under the failing policy: the files
      // start from what was learned before; the record of the other type is a bad record there.
    }
  }

  @Override
  public void learnFromFooter(String topic, Map<String, String> keyValueMetadata) {
    FileLayout layout = FileLayout.ofSchemalessFooter(keyValueMetadata, mapping);
    if (layout != null) {
      learn(topic, layout);
    }
  }

  /** One Parquet file and the schema decisions for its records. */
  private final class ParquetFile implements RecordFileWriter {
    private final String topic;
    private final ParquetRecordWriter writer;
    private FileLayout layout;
    private long fixedBytes;

    /** Changes of the layout made in this file ({@link ParquetRecordWriter#reshape}). */
    private int reshapes;

    /** The layout of the next file, once a record did not fit this one. */
    private FileLayout successor;

    /** The last record {@link #accepts} decided on: {@link #write} reuses its decision. */
    private SinkRecord decided;

    private SchemaEvolution.Action action;
    private boolean finished;

    /**
     * {@link #bufferedBytes} as of {@code bufferedAtRecords} records: the task asks twice per
     * record (memory budget, file.max.bytes).
     */
    private long buffered;

    /** {@link #heapBytes} as of {@code bufferedAtRecords} records. */
    private long heap;

    private long bufferedAtRecords = -1;

    ParquetFile(String topic, ParquetRecordWriter writer) {
      this.topic = topic;
      this.writer = writer;
      this.layout = writer.layout();
      this.fixedBytes = FILE_BYTES + COLUMN_BYTES * layout.parquetSchema().columns().size();
    }

    @Override
    public boolean accepts(SinkRecord record) {
      SchemaEvolution.Action decision = decide(record);
      if (decision != SchemaEvolution.Action.NEW_FILE) {
        return true;
      }
      // Computed now, while this file is open: a schemaless type conflict under the failing
      // policy throws here, and the record is a bad record rather than a reason to commit.
      FileLayout widened = evolution.layoutFor(record, layout, mapping);
      if (widened.valueSchemaless()) {
        // What keeps every value written so far (new optional columns at any depth, a first
        // type for a column that was only null, an integer widened) is done in this file.
        FileLayout wider = startingLayout(record, layout);
        // New columns get their per-column settings too: a misfit is named before the writer
        // would refuse it.
        columnTuning.check(wider.parquetSchema(), topic);
        columnTuning.check(widened.parquetSchema(), topic);
        if (!wider.equals(widened) && writer.reshape(wider) || writer.reshape(widened)) {
          layout = writer.layout();
          fixedBytes = FILE_BYTES + COLUMN_BYTES * layout.parquetSchema().columns().size();
          bufferedAtRecords = -1;
          learn(topic, layout);
          decided = null;
          reshapes++;
          if (decide(record) != SchemaEvolution.Action.NEW_FILE) {
            return true;
          }
        }
      }
      successor = startingLayout(record, widened);
      return false;
    }

    @Override
    public int reshapes() {
      return reshapes;
    }

    @Override
    public void write(SinkRecord record) throws IOException {
      SinkRecord fitted =
          decide(record) == SchemaEvolution.Action.PROJECT
              ? evolution.project(record, layout)
              : record;
      writer.write(fitted);
    }

    @Override
    public boolean writeStaged(SinkRecord record, StagedRow row) throws IOException {
      return !finished && writer.writeStaged(record, row);
    }

    private SchemaEvolution.Action decide(SinkRecord record) {
      if (record != decided) {
        action = evolution.decide(layout, record);
        decided = record;
      }
      return action;
    }

    @Override
    public long recordCount() {
      return writer.recordCount();
    }

    @Override
    public MessageType parquetSchema() {
      return layout.parquetSchema();
    }

    @Override
    public FileMetaData footer() {
      return finished ? writer.footer() : null;
    }

    @Override
    public long bufferedBytes() {
      if (finished) {
        return 0;
      }
      long records = writer.recordCount();
      if (records != bufferedAtRecords) {
        buffered = writer.bufferedBytes() + fixedBytes;
        heap = writer.heapBytes() + fixedBytes;
        bufferedAtRecords = records;
      }
      return buffered;
    }

    /**
     * {@link #bufferedBytes} with the spare capacity of the column writers' arrays, which grow by
     * doubling: a page buffer of a file that took most of the records holds its doubled arrays.
     */
    @Override
    public long heapBytes() {
      bufferedBytes();
      return finished ? 0 : heap;
    }

    /**
     * The buffered rows without {@link #fixedBytes}: the column writers' own heap is counted in the
     * memory budget but never written to the file. Counted in {@code file.max.bytes} it committed a
     * file of a wide schema long before it reached the limit (16 columns: 120 KiB of overhead, so
     * file.max.bytes=128 KiB committed files of 3.6 KB), and a file of 20 columns under that limit
     * after every record.
     */
    @Override
    public long unwrittenFileBytes() {
      return finished ? 0 : bufferedBytes() - fixedBytes;
    }

    @Override
    public long bytesWritten() {
      return writer.bytesWritten();
    }

    @Override
    public void flushRowGroup() throws IOException {
      bufferedAtRecords = -1;
      writer.flushRowGroup();
    }

    @Override
    public void finish() throws IOException {
      writer.close();
      finished = true;
    }
  }
}
