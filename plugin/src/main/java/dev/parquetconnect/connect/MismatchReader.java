package dev.parquetconnect.connect;

import org.apache.kafka.connect.errors.DataException;

/** A Parquet shape no value of the Connect schema converts from: fails where one is present. */
final class MismatchReader extends FieldReader {
  private final DataException problem;

  MismatchReader(DataException problem) {
    this.problem = problem;
  }

  @Override
  Object read() {
    throw new DataException(problem.getMessage());
  }
}
