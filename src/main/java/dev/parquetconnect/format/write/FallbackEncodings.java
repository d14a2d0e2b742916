package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.ValuesCodecs;
import dev.parquetconnect.format.encoding.ValuesEncoder;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.PrimitiveNode;

/**
 * Picks the encoding of a column's pages that are not dictionary-encoded, from the data: the
 * candidates the policy allows for the type are tried on the column's first such page and the
 * smallest wins (after compression when the column is compressed, since that is what the file
 * stores), PLAIN on ties. Tried once per column: later pages keep the choice, so a column's
 * pages share one encoding and the cost is a few encodings of one page.
 */
final class FallbackEncodings {
  private FallbackEncodings() {}

  /**
   * The encoding to use without measuring, or null when candidates must be measured: an
   * override, the policy's only option, or the one encoding of a type.
   */
  static Encoding fixedChoice(
      PhysicalType type, Encoding override, EncodingPolicy policy, PageVersion version) {
    if (override != null) {
      return override;
    }
    if (policy == EncodingPolicy.COMPATIBLE || type == PhysicalType.INT96) {
      return Encoding.PLAIN;
    }
    if (type == PhysicalType.BOOLEAN) {
      // RLE booleans came with the v2 pages; v1 readers expect PLAIN.
      return version == PageVersion.V2 ? Encoding.RLE : Encoding.PLAIN;
    }
    return null;
  }

  /**
   * The candidates for {@code column}, PLAIN first. The delta string encodings are offered only
   * for byte strings that are text or plain binary: readers such as DuckDB 1.4 refuse them for
   * DECIMAL, UUID and FLOAT16 columns (as they refuse BYTE_STREAM_SPLIT for anything but FLOAT
   * and DOUBLE).
   */
  static Encoding[] candidates(PrimitiveNode column, CompressionCodec codec) {
    PhysicalType type = column.type();
    boolean compressed = codec != CompressionCodec.UNCOMPRESSED;
    if ((type == PhysicalType.BYTE_ARRAY || type == PhysicalType.FIXED_LEN_BYTE_ARRAY)
        && !isTextOrBinary(column.logicalType())) {
      return new Encoding[] {Encoding.PLAIN};
    }
    return switch (type) {
      case INT32, INT64 -> new Encoding[] {Encoding.PLAIN, Encoding.DELTA_BINARY_PACKED};
      case FLOAT, DOUBLE -> compressed
          ? new Encoding[] {Encoding.PLAIN, Encoding.BYTE_STREAM_SPLIT}
          : new Encoding[] {Encoding.PLAIN};
      case BYTE_ARRAY -> new Encoding[] {
        Encoding.PLAIN, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY
      };
      case FIXED_LEN_BYTE_ARRAY -> new Encoding[] {Encoding.PLAIN, Encoding.DELTA_BYTE_ARRAY};
      case BOOLEAN, INT96 -> new Encoding[] {Encoding.PLAIN};
    };
  }

  private static boolean isTextOrBinary(LogicalType type) {
    return type == null
        || type instanceof LogicalType.StringType
        || type instanceof LogicalType.EnumType
        || type instanceof LogicalType.JsonType
        || type instanceof LogicalType.BsonType;
  }

  /** The candidate that stores {@code page}'s values in the fewest bytes. */
  static Encoding measure(
      PrimitiveNode column, PageBuffer page, Compressor compressor, PageScratch scratch) {
    PhysicalType type = column.type();
    int typeLength = column.typeLength();
    Encoding[] candidates = candidates(column, compressor.codec());
    Encoding best = candidates[0];
    long bestSize = Long.MAX_VALUE;
    for (Encoding candidate : candidates) {
      ValuesEncoder encoder = ValuesCodecs.encoder(candidate, type, typeLength);
      PageValues.writeTo(page, encoder);
      scratch.trial.reset();
      encoder.flushTo(scratch.trial);
      long size = scratch.trial.size();
      if (compressor.codec() != CompressionCodec.UNCOMPRESSED) {
        scratch.trialCompressed.reset();
        compressor.compress(scratch.trial.array(), 0, scratch.trial.size(), scratch.trialCompressed);
        size = scratch.trialCompressed.size();
      }
      if (size < bestSize) {
        best = candidate;
        bestSize = size;
      }
    }
    return best;
  }
}
