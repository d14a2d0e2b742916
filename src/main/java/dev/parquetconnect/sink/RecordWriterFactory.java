package dev.parquetconnect.sink;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.kafka.connect.sink.SinkRecord;

/** Starts files: the seam between the sink's bookkeeping and the record format. */
interface RecordWriterFactory {

  /**
   * Starts a file on {@code out} whose schema fits {@code first} (which the caller writes next).
   *
   * @throws org.apache.kafka.connect.errors.DataException if no file can hold {@code first}
   */
  RecordFileWriter create(OutputStream out, SinkRecord first) throws IOException;
}
