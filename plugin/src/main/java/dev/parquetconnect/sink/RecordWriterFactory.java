package dev.parquetconnect.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/** Starts files: the seam between the sink's bookkeeping and the record format. */
interface RecordWriterFactory {

  /**
   * Starts a file on {@code out} whose schema fits {@code first} (which the caller writes next).
   *
   * @param predecessor the file of the same directory that did not {@link RecordFileWriter#accepts
   *     accept} {@code first}, or null: a schemaless file's successor takes the merged schema of
   *     both, so records of either shape keep fitting
   * @throws org.apache.kafka.connect.errors.DataException if no file can hold {@code first}
   */
  RecordFileWriter create(OutputStream out, SinkRecord first, RecordFileWriter predecessor)
      throws IOException;

  /**
   * Learns from a committed file of {@code topic} (the task starts, or gets a partition): its
   * footer's key/value metadata, so new files start from the schema its files had before.
   */
  default void learnFromFooter(String topic, Map<String, String> keyValueMetadata) {}
}
