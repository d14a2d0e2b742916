package dev.parquetconnect.format.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks against parquet-java's generated metadata classes and {@code Util}: what
 * parquet-java writes we read with equal values and write back byte for byte, and what we write
 * parquet-java reads with equal values. Random objects come from fixed seeds.
 */
class MetadataOracleCrossCheckTest {
  private static final int SEEDS = 300;

  // ---- parquet-java writes, we read

  @Test
  void oracleFooterReadsEqualAndWritesBackIdentically() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      org.apache.parquet.format.FileMetaData theirs = new RandomOracleMetadata(seed).fileMetaData();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeFileMetaData(theirs, bytes);
      byte[] encoded = bytes.toByteArray();

      FileMetaData ours = MetadataCodec.readFileMetaData(encoded, 0, encoded.length);
      assertEquals(OracleConverter.fromOracle(theirs), ours, "seed " + seed);
      assertArrayEquals(encoded, write(ours), "seed " + seed);
    }
  }

  @Test
  void oraclePageHeaderReadsEqualAndWritesBackIdentically() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      org.apache.parquet.format.PageHeader theirs = new RandomOracleMetadata(seed).pageHeader();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writePageHeader(theirs, bytes);
      byte[] encoded = bytes.toByteArray();

      // Read from the middle of a larger buffer, as a page reader does.
      byte[] padded = new byte[encoded.length + 20];
      System.arraycopy(encoded, 0, padded, 7, encoded.length);
      Decoded<PageHeader> ours = MetadataCodec.readPageHeader(padded, 7, encoded.length + 13);
      assertEquals(OracleConverter.fromOracle(theirs), ours.value(), "seed " + seed);
      assertEquals(encoded.length, ours.length(), "seed " + seed);
      assertArrayEquals(encoded, write(ours.value()), "seed " + seed);

      ByteArrayInputStream stream = new ByteArrayInputStream(padded, 7, encoded.length + 13);
      assertEquals(ours.value(), MetadataCodec.readPageHeader(stream), "seed " + seed);
      assertEquals(13, stream.available(), "stream variant must take exactly the header");
    }
  }

  @Test
  void oraclePageIndexAndBloomHeaderReadEqualAndWriteBackIdentically() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      RandomOracleMetadata random = new RandomOracleMetadata(seed);

      org.apache.parquet.format.ColumnIndex columnIndex = random.columnIndex();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeColumnIndex(columnIndex, bytes);
      byte[] encoded = bytes.toByteArray();
      ColumnIndex ourIndex = MetadataCodec.readColumnIndex(encoded, 0, encoded.length);
      assertEquals(OracleConverter.fromOracle(columnIndex), ourIndex, "seed " + seed);
      assertArrayEquals(encoded, write(ourIndex), "seed " + seed);

      org.apache.parquet.format.OffsetIndex offsetIndex = random.offsetIndex();
      bytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeOffsetIndex(offsetIndex, bytes);
      encoded = bytes.toByteArray();
      OffsetIndex ourOffsets = MetadataCodec.readOffsetIndex(encoded, 0, encoded.length);
      assertEquals(OracleConverter.fromOracle(offsetIndex), ourOffsets, "seed " + seed);
      assertArrayEquals(encoded, write(ourOffsets), "seed " + seed);

      org.apache.parquet.format.BloomFilterHeader bloom = random.bloomFilterHeader();
      bytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeBloomFilterHeader(bloom, bytes);
      encoded = bytes.toByteArray();
      Decoded<BloomFilterHeader> ourBloom =
          MetadataCodec.readBloomFilterHeader(encoded, 0, encoded.length);
      assertEquals(OracleConverter.fromOracle(bloom), ourBloom.value(), "seed " + seed);
      assertEquals(encoded.length, ourBloom.length());
      assertArrayEquals(encoded, write(ourBloom.value()), "seed " + seed);
    }
  }

  // ---- we write, parquet-java reads

  @Test
  void ourFooterReadsEqualInOracle() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      // Our values, from a different seed than the other direction uses.
      FileMetaData ours =
          OracleConverter.fromOracle(new RandomOracleMetadata(10_000 + seed).fileMetaData());
      byte[] encoded = write(ours);

      org.apache.parquet.format.FileMetaData theirs =
          org.apache.parquet.format.Util.readFileMetaData(new ByteArrayInputStream(encoded));
      assertEquals(OracleConverter.toOracle(ours), theirs, "seed " + seed);
      ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeFileMetaData(theirs, rewritten);
      assertArrayEquals(encoded, rewritten.toByteArray(), "seed " + seed);
    }
  }

  @Test
  void ourPageHeaderAndIndexesReadEqualInOracle() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      RandomOracleMetadata random = new RandomOracleMetadata(20_000 + seed);

      PageHeader header = OracleConverter.fromOracle(random.pageHeader());
      byte[] encoded = write(header);
      org.apache.parquet.format.PageHeader theirHeader =
          org.apache.parquet.format.Util.readPageHeader(new ByteArrayInputStream(encoded));
      assertEquals(OracleConverter.toOracle(header), theirHeader, "seed " + seed);
      assertArrayEquals(encoded, oracleBytes(theirHeader), "seed " + seed);

      ColumnIndex columnIndex = OracleConverter.fromOracle(random.columnIndex());
      encoded = write(columnIndex);
      org.apache.parquet.format.ColumnIndex theirIndex =
          org.apache.parquet.format.Util.readColumnIndex(new ByteArrayInputStream(encoded));
      assertEquals(OracleConverter.toOracle(columnIndex), theirIndex, "seed " + seed);

      OffsetIndex offsetIndex = OracleConverter.fromOracle(random.offsetIndex());
      encoded = write(offsetIndex);
      org.apache.parquet.format.OffsetIndex theirOffsets =
          org.apache.parquet.format.Util.readOffsetIndex(new ByteArrayInputStream(encoded));
      assertEquals(OracleConverter.toOracle(offsetIndex), theirOffsets, "seed " + seed);

      BloomFilterHeader bloom = OracleConverter.fromOracle(random.bloomFilterHeader());
      encoded = write(bloom);
      org.apache.parquet.format.BloomFilterHeader theirBloom =
          org.apache.parquet.format.Util.readBloomFilterHeader(new ByteArrayInputStream(encoded));
      assertEquals(OracleConverter.toOracle(bloom), theirBloom, "seed " + seed);
    }
  }

  /**
   * Fields newer than parquet-java 1.16 (Statistics.nan_count, ColumnIndex.nan_counts) are skipped
   * by it, and everything else still reads equal: our output stays readable by older readers.
   */
  @Test
  void fieldsNewerThanTheOracleAreSkippedByIt() throws Exception {
    for (int seed = 0; seed < 50; seed++) {
      RandomOracleMetadata random = new RandomOracleMetadata(30_000 + seed);
      PageHeader plain = OracleConverter.fromOracle(random.pageHeader());
      Statistics withNan =
          new Statistics(ByteString.ofUtf8("max"), null, 3L, null, null, null, true, null, 42L);
      PageHeader header =
          new PageHeader(
              PageType.DATA_PAGE,
              plain.uncompressedPageSize(),
              plain.compressedPageSize(),
              plain.crc(),
              new DataPageHeader(10, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, withNan),
              null,
              plain.dictionaryPageHeader(),
              plain.dataPageHeaderV2());
      org.apache.parquet.format.PageHeader theirs =
          org.apache.parquet.format.Util.readPageHeader(new ByteArrayInputStream(write(header)));
      assertEquals(OracleConverter.fromOracle(theirs), withoutNanCount(header), "seed " + seed);

      ColumnIndex base = OracleConverter.fromOracle(random.columnIndex());
      List<Long> nanCounts = new ArrayList<>();
      for (int i = 0; i < base.nullPages().size(); i++) {
        nanCounts.add((long) i);
      }
      ColumnIndex index =
          new ColumnIndex(
              base.nullPages(),
              base.minValues(),
              base.maxValues(),
              base.boundaryOrder(),
              base.nullCounts(),
              base.repetitionLevelHistograms(),
              base.definitionLevelHistograms(),
              nanCounts);
      org.apache.parquet.format.ColumnIndex theirIndex =
          org.apache.parquet.format.Util.readColumnIndex(new ByteArrayInputStream(write(index)));
      assertEquals(base, OracleConverter.fromOracle(theirIndex), "seed " + seed);
    }
  }

  private static PageHeader withoutNanCount(PageHeader h) {
    Statistics s = h.dataPageHeader().statistics();
    Statistics stripped =
        new Statistics(
            s.max(),
            s.min(),
            s.nullCount(),
            s.distinctCount(),
            s.maxValue(),
            s.minValue(),
            s.isMaxValueExact(),
            s.isMinValueExact(),
            null);
    DataPageHeader d = h.dataPageHeader();
    return new PageHeader(
        h.type(),
        h.uncompressedPageSize(),
        h.compressedPageSize(),
        h.crc(),
        new DataPageHeader(
            d.numValues(),
            d.encoding(),
            d.definitionLevelEncoding(),
            d.repetitionLevelEncoding(),
            stripped),
        h.indexPageHeader(),
        h.dictionaryPageHeader(),
        h.dataPageHeaderV2());
  }

  private static byte[] oracleBytes(org.apache.parquet.format.PageHeader h) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    org.apache.parquet.format.Util.writePageHeader(h, out);
    return out.toByteArray();
  }

  static byte[] write(FileMetaData m) {
    GrowableBuffer out = new GrowableBuffer();
    MetadataCodec.write(m, out);
    return out.toByteArray();
  }

  static byte[] write(PageHeader h) {
    GrowableBuffer out = new GrowableBuffer();
    MetadataCodec.write(h, out);
    return out.toByteArray();
  }

  static byte[] write(ColumnIndex c) {
    GrowableBuffer out = new GrowableBuffer();
    MetadataCodec.write(c, out);
    return out.toByteArray();
  }

  static byte[] write(OffsetIndex o) {
    GrowableBuffer out = new GrowableBuffer();
    MetadataCodec.write(o, out);
    return out.toByteArray();
  }

  static byte[] write(BloomFilterHeader b) {
    GrowableBuffer out = new GrowableBuffer();
    MetadataCodec.write(b, out);
    return out.toByteArray();
  }
}
