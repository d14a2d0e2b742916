package dev.parquetconnect.format.write;

/**
 * What the column writers of one file hold, as running totals: each open page and each chunk adds
 * the change of its own share whenever that share changes (a value or level appended, an array
 * grown, a page closed, a row group written), so that a sink asking after every record what the
 * file holds gets the answer without a walk over every column.
 */
final class HeldBytes {
  /** The sum of the columns' {@link ColumnChunkWriter#bufferedBytes()}. */
  long bufferedBytes;

  /** The sum of the columns' {@link ColumnChunkWriter#heapBytes()}. */
  long heapBytes;
}
