package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Chooses the decoder and encoder for a page's encoding and a column's physical type: one {@code
 * switch} over the Thrift encoding enum, so adding an encoding means adding one case. Combinations
 * the specification does not define (DELTA_BINARY_PACKED on a FLOAT column, say) are refused with
 * {@link UnsupportedFeatureException}, whatever a file claims.
 */
public final class ValuesCodecs {
  private ValuesCodecs() {}

  /**
   * A decoder for data-page values of {@code type} in {@code encoding}. Dictionary-encoded pages
   * need the column's dictionary: use {@link #dictionaryDecoder} for them.
   *
   * @param typeLength the FIXED_LEN_BYTE_ARRAY length (ignored for other types)
   */
  public static ValuesDecoder decoder(Encoding encoding, PhysicalType type, int typeLength)
      throws ParquetException {
    return switch (encoding) {
      case PLAIN ->
          type == PhysicalType.FIXED_LEN_BYTE_ARRAY
              ? new PlainDecoder(type, typeLength)
              : new PlainDecoder(type);
      case RLE -> {
        // RLE as a values encoding exists only for booleans: width 1, with a length prefix.
        require(type == PhysicalType.BOOLEAN, encoding, type);
        yield new RleBitPackedHybridDecoder(1, true);
      }
      case BIT_PACKED ->
          throw new UnsupportedFeatureException(
              "BIT_PACKED is an encoding of levels only, not of " + type + " values");
      case DELTA_BINARY_PACKED -> {
        require(type == PhysicalType.INT32 || type == PhysicalType.INT64, encoding, type);
        yield new DeltaBinaryPackedDecoder();
      }
      case DELTA_LENGTH_BYTE_ARRAY -> {
        require(type == PhysicalType.BYTE_ARRAY, encoding, type);
        yield new DeltaLengthByteArrayDecoder();
      }
      case DELTA_BYTE_ARRAY ->
          switch (type) {
            case BYTE_ARRAY -> DeltaByteArrayDecoder.forByteArray();
            case FIXED_LEN_BYTE_ARRAY -> DeltaByteArrayDecoder.forFixedLenByteArray(typeLength);
            default -> throw notDefined(encoding, type);
          };
      case BYTE_STREAM_SPLIT ->
          switch (type) {
            case FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY ->
                ByteStreamSplitDecoder.forType(type, typeLength);
            default -> throw notDefined(encoding, type);
          };
      case GROUP_VAR_INT -> GroupVarIntDecoder.forType(type);
      case PLAIN_DICTIONARY, RLE_DICTIONARY ->
          throw new UnsupportedFeatureException(
              encoding + " pages need the column's dictionary page");
    };
  }

  /** A decoder for a dictionary-encoded data page (PLAIN_DICTIONARY or RLE_DICTIONARY). */
  public static DictionaryDecoder dictionaryDecoder(Encoding encoding, Dictionary dictionary)
      throws ParquetException {
    if (!encoding.usesDictionary()) {
      throw new UnsupportedFeatureException(encoding + " is not a dictionary encoding");
    }
    return new DictionaryDecoder(dictionary);
  }

  /**
   * An encoder for data-page values of {@code type} in {@code encoding}. Dictionary encoding is
   * driven by the column writer ({@link DictionaryBuilder} and {@link DictionaryIndicesEncoder}),
   * not through here. GROUP_VAR_INT is only for users who ask for it explicitly: no other Parquet
   * reader decodes it.
   */
  public static ValuesEncoder encoder(Encoding encoding, PhysicalType type, int typeLength) {
    return switch (encoding) {
      case PLAIN ->
          type == PhysicalType.FIXED_LEN_BYTE_ARRAY
              ? new PlainEncoder(type, typeLength)
              : new PlainEncoder(type);
      case RLE -> {
        requireArgument(type == PhysicalType.BOOLEAN, encoding, type);
        yield new RleBitPackedHybridEncoder(1, true);
      }
      case DELTA_BINARY_PACKED -> {
        requireArgument(type == PhysicalType.INT32 || type == PhysicalType.INT64, encoding, type);
        yield new DeltaBinaryPackedEncoder(type);
      }
      case DELTA_LENGTH_BYTE_ARRAY -> {
        requireArgument(type == PhysicalType.BYTE_ARRAY, encoding, type);
        yield new DeltaLengthByteArrayEncoder();
      }
      case DELTA_BYTE_ARRAY ->
          switch (type) {
            case BYTE_ARRAY -> DeltaByteArrayEncoder.forByteArray();
            case FIXED_LEN_BYTE_ARRAY -> DeltaByteArrayEncoder.forFixedLenByteArray(typeLength);
            default -> throw new IllegalArgumentException(encoding + " is not defined for " + type);
          };
      case BYTE_STREAM_SPLIT -> ByteStreamSplitEncoder.forType(type, typeLength);
      case GROUP_VAR_INT -> new GroupVarIntEncoder(type);
      case BIT_PACKED, PLAIN_DICTIONARY, RLE_DICTIONARY ->
          throw new IllegalArgumentException(
              encoding + " values are not written through ValuesCodecs.encoder");
    };
  }

  /** Whether the specification defines {@code encoding} for values of {@code type}. */
  public static boolean isDefined(Encoding encoding, PhysicalType type) {
    return switch (encoding) {
      case PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY -> true;
      case RLE -> type == PhysicalType.BOOLEAN;
      case BIT_PACKED -> false;
      case DELTA_BINARY_PACKED, GROUP_VAR_INT ->
          type == PhysicalType.INT32 || type == PhysicalType.INT64;
      case DELTA_LENGTH_BYTE_ARRAY -> type == PhysicalType.BYTE_ARRAY;
      case DELTA_BYTE_ARRAY ->
          type == PhysicalType.BYTE_ARRAY || type == PhysicalType.FIXED_LEN_BYTE_ARRAY;
      case BYTE_STREAM_SPLIT ->
          type != PhysicalType.BOOLEAN
              && type != PhysicalType.BYTE_ARRAY
              && type != PhysicalType.INT96;
    };
  }

  private static void require(boolean ok, Encoding encoding, PhysicalType type)
      throws UnsupportedFeatureException {
    if (!ok) {
      throw notDefined(encoding, type);
    }
  }

  private static UnsupportedFeatureException notDefined(Encoding encoding, PhysicalType type) {
    return new UnsupportedFeatureException(encoding + " is not defined for " + type + " values");
  }

  private static void requireArgument(boolean ok, Encoding encoding, PhysicalType type) {
    if (!ok) {
      throw new IllegalArgumentException(encoding + " is not defined for " + type + " values");
    }
  }
}
