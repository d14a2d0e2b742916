package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.DeltaBinaryPackedEncoder;
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

  /**
   * DELTA_BINARY_PACKED block layouts tried: parquet-java's 128 values in 4 miniblocks, and
   * larger blocks (DuckDB writes 2048 in 8), whose per-block header (min delta, one width byte
   * per miniblock) costs less per value when the deltas are narrow and even, as in ids and
   * event times.
   */
  private static final int[][] DELTA_BLOCKS = {{128, 4}, {1024, 8}, {4096, 16}};

  /**
   * The encoder (a fresh one, or the winner of the trials, reset) that stores {@code page}'s
   * values in the fewest bytes among the candidates for {@code column}.
   */
  static ValuesEncoder measure(
      PrimitiveNode column, PageBuffer page, Compressor compressor, PageScratch scratch) {
    PhysicalType type = column.type();
    int typeLength = column.typeLength();
    ValuesEncoder best = null;
    long bestSize = Long.MAX_VALUE;
    for (Encoding candidate : candidates(column, compressor.codec())) {
      for (ValuesEncoder encoder : encoders(candidate, type, typeLength)) {
        long size = measure(encoder, page, compressor, scratch);
        if (size < bestSize) {
          best = encoder;
          bestSize = size;
        }
      }
    }
    best.reset();
    return best;
  }

  private static ValuesEncoder[] encoders(Encoding encoding, PhysicalType type, int typeLength) {
    if (encoding != Encoding.DELTA_BINARY_PACKED) {
      return new ValuesEncoder[] {ValuesCodecs.encoder(encoding, type, typeLength)};
    }
    ValuesEncoder[] layouts = new ValuesEncoder[DELTA_BLOCKS.length];
    for (int i = 0; i < layouts.length; i++) {
      layouts[i] = new DeltaBinaryPackedEncoder(type, DELTA_BLOCKS[i][0], DELTA_BLOCKS[i][1]);
    }
    return layouts;
  }

  /** The bytes {@code encoder} stores the page's values in, compressed when the column is. */
  private static long measure(
      ValuesEncoder encoder, PageBuffer page, Compressor compressor, PageScratch scratch) {
    PageValues.writeTo(page, encoder);
    scratch.trial.reset();
    encoder.flushTo(scratch.trial);
    if (compressor.codec() == CompressionCodec.UNCOMPRESSED) {
      return scratch.trial.size();
    }
    scratch.trialCompressed.reset();
    compressor.compress(scratch.trial.array(), 0, scratch.trial.size(), scratch.trialCompressed);
    return scratch.trialCompressed.size();
  }
}
