package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/** Reads and writes {@code PageHeader} and its per-type headers. */
final class PageHeaderCodec {
  private static final String[] PAGE_FIELDS = {
    null,
    "type",
    "uncompressed_page_size",
    "compressed_page_size",
    "crc",
    "data_page_header",
    "index_page_header",
    "dictionary_page_header",
    "data_page_header_v2"
  };
  private static final String[] DATA_FIELDS = {
    null,
    "num_values",
    "encoding",
    "definition_level_encoding",
    "repetition_level_encoding",
    "statistics"
  };
  private static final String[] DICTIONARY_FIELDS = {null, "num_values", "encoding", "is_sorted"};
  private static final String[] DATA_V2_FIELDS = {
    null,
    "num_values",
    "num_nulls",
    "num_rows",
    "encoding",
    "definition_levels_byte_length",
    "repetition_levels_byte_length",
    "is_compressed",
    "statistics"
  };
  private static final int REQUIRED_1_TO_2 = 0b110;
  private static final int REQUIRED_1_TO_3 = 0b1110;
  private static final int REQUIRED_1_TO_4 = 0b11110;
  private static final int REQUIRED_1_TO_6 = 0b1111110;

  private PageHeaderCodec() {}

  static PageHeader readPageHeader(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    PageType type = null;
    int uncompressedSize = 0;
    int compressedSize = 0;
    Integer crc = null;
    DataPageHeader data = null;
    IndexPageHeader index = null;
    DictionaryPageHeader dictionary = null;
    DataPageHeaderV2 dataV2 = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            type = in.pageType(in.i32(), "PageHeader.type");
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            uncompressedSize = in.i32();
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I32)) {
            compressedSize = in.i32();
            seen |= 1 << 3;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I32)) {
            crc = in.i32();
          }
        }
        case 5 -> {
          if (in.accept(f, TType.STRUCT)) {
            data = readDataPageHeader(in);
          }
        }
        case 6 -> {
          if (in.accept(f, TType.STRUCT)) {
            in.skip(TType.STRUCT);
            index = IndexPageHeader.INSTANCE;
          }
        }
        case 7 -> {
          if (in.accept(f, TType.STRUCT)) {
            dictionary = readDictionaryPageHeader(in);
          }
        }
        case 8 -> {
          if (in.accept(f, TType.STRUCT)) {
            dataV2 = readDataPageHeaderV2(in);
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_3, "PageHeader", PAGE_FIELDS);
    if (uncompressedSize < 0 || compressedSize < 0) {
      // Caught here, with the position, rather than by every page reader.
      throw in.corrupt(
          "negative page size: uncompressed_page_size "
              + uncompressedSize
              + ", compressed_page_size "
              + compressedSize);
    }
    in.structEnd();
    return new PageHeader(
        type, uncompressedSize, compressedSize, crc, data, index, dictionary, dataV2);
  }

  static void writePageHeader(ThriftOutput out, PageHeader h) throws TException {
    out.structBegin();
    out.i32(1, h.type().value());
    out.i32(2, h.uncompressedPageSize());
    out.i32(3, h.compressedPageSize());
    out.optI32(4, h.crc());
    if (h.dataPageHeader() != null) {
      DataPageHeader d = h.dataPageHeader();
      out.fieldBegin(TType.STRUCT, 5);
      out.structBegin();
      out.i32(1, d.numValues());
      out.i32(2, d.encoding().value());
      out.i32(3, d.definitionLevelEncoding().value());
      out.i32(4, d.repetitionLevelEncoding().value());
      writeOptStatistics(out, 5, d.statistics());
      out.structEnd();
    }
    if (h.indexPageHeader() != null) {
      out.emptyStruct(6);
    }
    if (h.dictionaryPageHeader() != null) {
      DictionaryPageHeader d = h.dictionaryPageHeader();
      out.fieldBegin(TType.STRUCT, 7);
      out.structBegin();
      out.i32(1, d.numValues());
      out.i32(2, d.encoding().value());
      out.optBool(3, d.isSorted());
      out.structEnd();
    }
    if (h.dataPageHeaderV2() != null) {
      DataPageHeaderV2 d = h.dataPageHeaderV2();
      out.fieldBegin(TType.STRUCT, 8);
      out.structBegin();
      out.i32(1, d.numValues());
      out.i32(2, d.numNulls());
      out.i32(3, d.numRows());
      out.i32(4, d.encoding().value());
      out.i32(5, d.definitionLevelsByteLength());
      out.i32(6, d.repetitionLevelsByteLength());
      out.optBool(7, d.isCompressed());
      writeOptStatistics(out, 8, d.statistics());
      out.structEnd();
    }
    out.structEnd();
  }

  private static void writeOptStatistics(ThriftOutput out, int fieldId, Statistics s)
      throws TException {
    if (s != null) {
      out.fieldBegin(TType.STRUCT, fieldId);
      StatisticsCodec.writeStatistics(out, s);
    }
  }

  private static DataPageHeader readDataPageHeader(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    int numValues = 0;
    Encoding encoding = null;
    Encoding definitionEncoding = null;
    Encoding repetitionEncoding = null;
    Statistics statistics = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            numValues = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            encoding = in.encoding(in.i32(), "DataPageHeader.encoding");
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I32)) {
            definitionEncoding = in.encoding(in.i32(), "DataPageHeader.definition_level_encoding");
            seen |= 1 << 3;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I32)) {
            repetitionEncoding = in.encoding(in.i32(), "DataPageHeader.repetition_level_encoding");
            seen |= 1 << 4;
          }
        }
        case 5 -> {
          if (in.accept(f, TType.STRUCT)) {
            statistics = StatisticsCodec.readStatistics(in);
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_4, "DataPageHeader", DATA_FIELDS);
    in.structEnd();
    return new DataPageHeader(
        numValues, encoding, definitionEncoding, repetitionEncoding, statistics);
  }

  private static DictionaryPageHeader readDictionaryPageHeader(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    int numValues = 0;
    Encoding encoding = null;
    Boolean sorted = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            numValues = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            encoding = in.encoding(in.i32(), "DictionaryPageHeader.encoding");
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.BOOL)) {
            sorted = in.bool();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_2, "DictionaryPageHeader", DICTIONARY_FIELDS);
    in.structEnd();
    return new DictionaryPageHeader(numValues, encoding, sorted);
  }

  private static DataPageHeaderV2 readDataPageHeaderV2(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    int numValues = 0;
    int numNulls = 0;
    int numRows = 0;
    Encoding encoding = null;
    int definitionLength = 0;
    int repetitionLength = 0;
    Boolean compressed = null;
    Statistics statistics = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      int id = ThriftInput.id(f);
      switch (id) {
        case 1, 2, 3, 5, 6 -> {
          if (in.accept(f, TType.I32)) {
            int v = in.i32();
            switch (id) {
              case 1 -> numValues = v;
              case 2 -> numNulls = v;
              case 3 -> numRows = v;
              case 5 -> definitionLength = v;
              default -> repetitionLength = v;
            }
            seen |= 1 << id;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I32)) {
            encoding = in.encoding(in.i32(), "DataPageHeaderV2.encoding");
            seen |= 1 << 4;
          }
        }
        case 7 -> {
          if (in.accept(f, TType.BOOL)) {
            compressed = in.bool();
          }
        }
        case 8 -> {
          if (in.accept(f, TType.STRUCT)) {
            statistics = StatisticsCodec.readStatistics(in);
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_6, "DataPageHeaderV2", DATA_V2_FIELDS);
    in.structEnd();
    return new DataPageHeaderV2(
        numValues,
        numNulls,
        numRows,
        encoding,
        definitionLength,
        repetitionLength,
        compressed,
        statistics);
  }
}
