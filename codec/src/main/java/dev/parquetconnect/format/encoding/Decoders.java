package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;

/** Shared checks for decoders: one place for the messages users see on bad input. */
public final class Decoders {
  private Decoders() {}

  static UnsupportedFeatureException unsupported(ValuesDecoder decoder, String type) {
    return new UnsupportedFeatureException(
        decoder.getClass().getSimpleName() + " cannot decode " + type + " values");
  }

  /** Checks a caller's destination range; a bug in the caller, hence unchecked. */
  public static void checkRange(int arrayLength, int off, int len) {
    if (off < 0 || len < 0 || off > arrayLength - len) {
      throw new IndexOutOfBoundsException(
          "range [" + off + ", +" + len + ") outside array of " + arrayLength);
    }
  }

  /** Fails when a read asks for more values than remain in the page. */
  public static void checkRemaining(String encoding, int requested, int remaining)
      throws CorruptDataException {
    if (requested > remaining) {
      throw new CorruptDataException(
          encoding
              + ": asked for "
              + requested
              + " values but only "
              + remaining
              + " remain in the page");
    }
  }

  /** Fails when a bit width read from the data is outside what the type allows. */
  public static void checkBitWidth(String encoding, int bitWidth, int max)
      throws CorruptDataException {
    if (bitWidth < 0 || bitWidth > max) {
      throw new CorruptDataException(encoding + ": bit width " + bitWidth + " outside 0.." + max);
    }
  }
}
