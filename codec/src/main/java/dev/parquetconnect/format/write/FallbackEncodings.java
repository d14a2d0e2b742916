package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.DeltaBinaryPackedEncoder;
import dev.parquetconnect.format.encoding.ValuesCodecs;
import dev.parquetconnect.format.encoding.ValuesEncoder;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.PrimitiveNode;

/**
 * Picks the encoding of a column's pages that are not dictionary-encoded, from the data: the
 * candidates the policy allows for the type are tried on the column's first such page and the
 * smallest wins (after compression when the column is compressed, since that is what the file
 * stores), PLAIN on ties. Tried once per column: later pages keep the choice, so a column's pages
 * share one encoding and the cost is a few encodings of one page. A large page is tried on a sample
 * of it (see {@link #sampleRuns}): encoding and compressing every candidate over a whole 1 MiB page
 * cost about as much as writing the page itself several times over.
 */
final class FallbackEncodings {
  private FallbackEncodings() {}

  /**
   * The encoding to use without measuring, or null when candidates must be measured: an override,
   * the policy's only option, or the one encoding of a type.
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
   * The candidates for {@code column} under {@code policy} (not COMPATIBLE, which has none to
   * measure), PLAIN first. BYTE_STREAM_SPLIT only under EXTENDED: Spark's vectorized reader before
   * 4.1 and Trino refuse it. The delta string encodings are offered only for byte strings that are
   * text or plain binary: readers such as DuckDB 1.4 refuse them for DECIMAL, UUID, FLOAT16 and
   * INTERVAL (a converted type without a logical type) columns (as they refuse BYTE_STREAM_SPLIT
   * for anything but FLOAT and DOUBLE).
   */
  static Encoding[] candidates(
      PrimitiveNode column, CompressionCodec codec, EncodingPolicy policy) {
    PhysicalType type = column.type();
    boolean compressed = codec != CompressionCodec.UNCOMPRESSED;
    if ((type == PhysicalType.BYTE_ARRAY || type == PhysicalType.FIXED_LEN_BYTE_ARRAY)
        && (!isTextOrBinary(column.logicalType())
            || column.convertedType() == ConvertedType.INTERVAL)) {
      return new Encoding[] {Encoding.PLAIN};
    }
    return switch (type) {
      case INT32, INT64 -> new Encoding[] {Encoding.PLAIN, Encoding.DELTA_BINARY_PACKED};
      case FLOAT, DOUBLE ->
          compressed && policy == EncodingPolicy.EXTENDED
              ? new Encoding[] {Encoding.PLAIN, Encoding.BYTE_STREAM_SPLIT}
              : new Encoding[] {Encoding.PLAIN};
      case BYTE_ARRAY ->
          new Encoding[] {
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
   * DELTA_BINARY_PACKED block layouts tried: parquet-java's 128 values in 4 miniblocks, and larger
   * blocks (DuckDB writes 2048 in 8), whose per-block header (min delta, one width byte per
   * miniblock) costs less per value when the deltas are narrow and even, as in ids and event times.
   */
  private static final int[][] DELTA_BLOCKS = {{128, 4}, {1024, 8}, {4096, 16}};

  /**
   * The encoder (a fresh one, or the winner of the trials, reset) that stores {@code page}'s values
   * in the fewest bytes among the candidates for {@code column}.
   */
  static ValuesEncoder measure(
      PrimitiveNode column,
      EncodingPolicy policy,
      PageBuffer page,
      Compressor compressor,
      PageScratch scratch) {
    PhysicalType type = column.type();
    int typeLength = column.typeLength();
    ValuesEncoder best = null;
    long bestSize = Long.MAX_VALUE;
    for (Encoding candidate : candidates(column, compressor.codec(), policy)) {
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

  /** Pages of up to this many values are measured whole. */
  static final int WHOLE_PAGE_VALUES = 8192;

  /** The fraction of a larger page that is measured: one value in this many. */
  private static final int SAMPLE_DIVISOR = 20;

  /** The fewest values a sample holds, so short-lived patterns do not decide alone. */
  private static final int MIN_SAMPLE_VALUES = 4096;

  /** How many stretches of the page a sample is taken from (start, evenly spaced, end). */
  private static final int SAMPLE_RUNS = 4;

  /**
   * The stretches of a page of {@code values} values that are measured, as {start, length} pairs:
   * the whole page when it is small, else {@link #SAMPLE_RUNS} contiguous runs spread evenly over
   * it, holding about a twentieth of its values. Runs and not scattered values, because what the
   * candidates differ in (deltas between neighbours, shared prefixes, repeats the compressor finds)
   * is a property of neighbouring values.
   */
  static int[] sampleRuns(int values) {
    if (values <= WHOLE_PAGE_VALUES) {
      return new int[] {0, values};
    }
    int sample = Math.max(MIN_SAMPLE_VALUES, values / SAMPLE_DIVISOR);
    int runLength = sample / SAMPLE_RUNS;
    int[] runs = new int[2 * SAMPLE_RUNS];
    long span = values - runLength;
    for (int i = 0; i < SAMPLE_RUNS; i++) {
      runs[2 * i] = (int) (span * i / (SAMPLE_RUNS - 1));
      runs[2 * i + 1] = runLength;
    }
    return runs;
  }

  /**
   * The bytes {@code encoder} stores the sampled values of the page in, compressed when the column
   * is. Each run is encoded as a page of its own (so the jump between two runs does not count as a
   * delta), and the runs' encodings are compressed together.
   */
  private static long measure(
      ValuesEncoder encoder, PageBuffer page, Compressor compressor, PageScratch scratch) {
    scratch.trial.reset();
    int[] runs = sampleRuns(page.values);
    for (int i = 0; i < runs.length; i += 2) {
      PageValues.writeTo(page, runs[i], runs[i + 1], encoder);
      encoder.flushTo(scratch.trial);
    }
    if (compressor.codec() == CompressionCodec.UNCOMPRESSED) {
      return scratch.trial.size();
    }
    scratch.trialCompressed.reset();
    compressor.compress(scratch.trial.array(), 0, scratch.trial.size(), scratch.trialCompressed);
    return scratch.trialCompressed.size();
  }
}
