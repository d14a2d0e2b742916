package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/**
 * Reads and writes the page index ({@code ColumnIndex}, {@code OffsetIndex}) and {@code
 * BloomFilterHeader}.
 */
final class PageIndexCodec {
  private static final String[] COLUMN_INDEX_FIELDS = {
    null,
    "null_pages",
    "min_values",
    "max_values",
    "boundary_order",
    "null_counts",
    "repetition_level_histograms",
    "definition_level_histograms",
    "nan_counts"
  };
  private static final String[] OFFSET_INDEX_FIELDS = {
    null, "page_locations", "unencoded_byte_array_data_bytes"
  };
  private static final String[] LOCATION_FIELDS = {
    null, "offset", "compressed_page_size", "first_row_index"
  };
  private static final String[] BLOOM_FIELDS = {
    null, "numBytes", "algorithm", "hash", "compression"
  };
  private static final int REQUIRED_1 = 1 << 1;
  private static final int REQUIRED_1_TO_3 = 0b1110;
  private static final int REQUIRED_1_TO_4 = 0b11110;

  private PageIndexCodec() {}

  static ColumnIndex readColumnIndex(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    List<Boolean> nullPages = null;
    List<ByteString> minValues = null;
    List<ByteString> maxValues = null;
    BoundaryOrder boundaryOrder = null;
    List<Long> nullCounts = null;
    List<Long> repetitionHistograms = null;
    List<Long> definitionHistograms = null;
    List<Long> nanCounts = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.LIST)) {
            nullPages = in.boolList();
            seen |= nullPages != null ? 1 << 1 : 0;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            minValues = in.binaryList();
            seen |= minValues != null ? 1 << 2 : 0;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.LIST)) {
            maxValues = in.binaryList();
            seen |= maxValues != null ? 1 << 3 : 0;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I32)) {
            boundaryOrder = in.boundaryOrder(in.i32(), "ColumnIndex.boundary_order");
            seen |= 1 << 4;
          }
        }
        case 5 -> {
          if (in.accept(f, TType.LIST)) {
            nullCounts = in.i64List();
          }
        }
        case 6 -> {
          if (in.accept(f, TType.LIST)) {
            repetitionHistograms = in.i64List();
          }
        }
        case 7 -> {
          if (in.accept(f, TType.LIST)) {
            definitionHistograms = in.i64List();
          }
        }
        case 8 -> {
          if (in.accept(f, TType.LIST)) {
            nanCounts = in.i64List();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_4, "ColumnIndex", COLUMN_INDEX_FIELDS);
    in.structEnd();
    return new ColumnIndex(
        nullPages,
        minValues,
        maxValues,
        boundaryOrder,
        nullCounts,
        repetitionHistograms,
        definitionHistograms,
        nanCounts);
  }

  static void writeColumnIndex(ThriftOutput out, ColumnIndex c) throws TException {
    out.structBegin();
    out.boolList(1, c.nullPages());
    out.binaryList(2, c.minValues());
    out.binaryList(3, c.maxValues());
    out.i32(4, c.boundaryOrder().value());
    out.optI64List(5, c.nullCounts());
    out.optI64List(6, c.repetitionLevelHistograms());
    out.optI64List(7, c.definitionLevelHistograms());
    out.optI64List(8, c.nanCounts());
    out.structEnd();
  }

  static OffsetIndex readOffsetIndex(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    List<PageLocation> locations = null;
    List<Long> unencoded = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.LIST)) {
            locations = in.structList(PageIndexCodec::readPageLocation);
            seen |= locations != null ? 1 << 1 : 0;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            unencoded = in.i64List();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1, "OffsetIndex", OFFSET_INDEX_FIELDS);
    in.structEnd();
    return new OffsetIndex(locations, unencoded);
  }

  static void writeOffsetIndex(ThriftOutput out, OffsetIndex o) throws TException {
    out.structBegin();
    out.listBegin(1, TType.STRUCT, o.pageLocations().size());
    for (PageLocation p : o.pageLocations()) {
      out.structBegin();
      out.i64(1, p.offset());
      out.i32(2, p.compressedPageSize());
      out.i64(3, p.firstRowIndex());
      out.structEnd();
    }
    out.optI64List(2, o.unencodedByteArrayDataBytes());
    out.structEnd();
  }

  private static PageLocation readPageLocation(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    long offset = 0;
    int compressedSize = 0;
    long firstRow = 0;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I64)) {
            offset = in.i64();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            compressedSize = in.i32();
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I64)) {
            firstRow = in.i64();
            seen |= 1 << 3;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_3, "PageLocation", LOCATION_FIELDS);
    in.structEnd();
    return new PageLocation(offset, compressedSize, firstRow);
  }

  static BloomFilterHeader readBloomFilterHeader(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    int numBytes = 0;
    BloomFilterHeader.Algorithm algorithm = null;
    BloomFilterHeader.Hash hash = null;
    BloomFilterHeader.Compression compression = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            numBytes = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRUCT)) {
            algorithm =
                in.emptyStructUnion("BloomFilterAlgorithm") == 1
                    ? BloomFilterHeader.Algorithm.BLOCK
                    : BloomFilterHeader.Algorithm.UNRECOGNIZED;
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.STRUCT)) {
            hash =
                in.emptyStructUnion("BloomFilterHash") == 1
                    ? BloomFilterHeader.Hash.XXHASH
                    : BloomFilterHeader.Hash.UNRECOGNIZED;
            seen |= 1 << 3;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.STRUCT)) {
            compression =
                in.emptyStructUnion("BloomFilterCompression") == 1
                    ? BloomFilterHeader.Compression.UNCOMPRESSED
                    : BloomFilterHeader.Compression.UNRECOGNIZED;
            seen |= 1 << 4;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_4, "BloomFilterHeader", BLOOM_FIELDS);
    in.structEnd();
    return new BloomFilterHeader(numBytes, algorithm, hash, compression);
  }

  static void writeBloomFilterHeader(ThriftOutput out, BloomFilterHeader b) throws TException {
    if (!b.isSupported()) {
      throw new IllegalArgumentException("cannot write an unrecognised bloom filter member: " + b);
    }
    out.structBegin();
    out.i32(1, b.numBytes());
    out.fieldBegin(TType.STRUCT, 2);
    out.emptyStructUnion(b.algorithm().fieldId());
    out.fieldBegin(TType.STRUCT, 3);
    out.emptyStructUnion(b.hash().fieldId());
    out.fieldBegin(TType.STRUCT, 4);
    out.emptyStructUnion(b.compression().fieldId());
    out.structEnd();
  }
}
