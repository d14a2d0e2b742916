package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.Row;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link S3ColumnReadIT}'s one-column read on HDFS (MiniDFSCluster on 127.0.0.1), smaller (about 64
 * MB: the in-process datanodes replicate every block twice). HDFS has no proxy to count at, so the
 * bytes are those our reader asked the store for ({@link StoreInput#bytesRead}): the footer's tail
 * and the column's pages.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
final class HdfsColumnReadIT {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsColumnReadIT.class);

  private static final long TARGET_SIZE = 64L << 20;

  @TempDir Path dir;

  @Test
  void aProjectedColumnReadsLessThanTwiceItsCompressedSize() throws Exception {
    try (ItStores.Hdfs hdfs = ItStores.hdfs(dir.resolve("hdfs"));
        Store store = hdfs.open("wide")) {
      long rows;
      try (StoreOutput out = store.create("one-column.parquet")) {
        rows = S3ColumnReadIT.write(out, TARGET_SIZE);
        out.commit();
      }
      long fileSize = store.stat("one-column.parquet").size();
      StoreInput input = store.open("one-column.parquet");
      long columnBytes;
      long read = 0;
      try (ParquetFileReader reader = ParquetFileReader.open(input);
          RowReader records = reader.rowReader(reader.projection(List.of("amount")))) {
        columnBytes = S3ColumnReadIT.columnBytes(reader, 1);
        while (records.hasNext()) {
          Row row = records.next();
          Long expected = S3ColumnReadIT.amount(read);
          if (expected == null) {
            assertNull(row.get(0), "row " + read);
          } else {
            assertEquals(expected, row.get(0), "row " + read);
          }
          read++;
        }
      }
      LOG.info(
          String.format(
              "HDFS one-column read: file %d bytes, %d rows; column 'amount' %d "
                  + "compressed bytes; %d bytes read (%.3f x the column)",
              fileSize,
              rows,
              columnBytes,
              input.bytesRead(),
              (double) input.bytesRead() / columnBytes));
      assertEquals(rows, read);
      assertTrue(
          input.bytesRead() < 2 * columnBytes,
          input.bytesRead() + " bytes read for a column of " + columnBytes);
    }
  }
}
