package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;

/**
 * Decodes the deprecated BIT_PACKED encoding, which only data page v1 levels may use: the values
 * back to back, MSB first, {@code bitWidth} bits each, the last byte padded with zeros. There is no
 * header or length: the levels of {@code n} values take exactly {@code ceil(n * width / 8)} bytes,
 * which {@link #init} checks are present.
 */
final class BitPackedLevelsDecoder implements ValuesDecoder {
  private int bitWidth;
  private byte[] page;
  private long bitPos;
  private int end;
  private int valuesLeft;

  /** A decoder for values of {@code bitWidth} bits, 0..32. */
  public BitPackedLevelsDecoder(int bitWidth) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalArgumentException("bit width " + bitWidth + " outside 0..32");
    }
    this.bitWidth = bitWidth;
  }

  public int bitWidth() {
    return bitWidth;
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException {
    Decoders.checkRange(page.length, offset, length);
    if (valueCount < 0) {
      throw new CorruptDataException("BIT_PACKED: negative value count " + valueCount);
    }
    long bytes = BitPacking.bytesFor(valueCount, bitWidth);
    if (bytes > length) {
      throw new CorruptDataException(
          "BIT_PACKED: "
              + valueCount
              + " values of "
              + bitWidth
              + " bits need "
              + bytes
              + " bytes but only "
              + length
              + " exist");
    }
    this.page = page;
    this.bitPos = (long) offset << 3;
    this.end = offset + (int) bytes;
    this.valuesLeft = valueCount;
  }

  /** Like {@link #init(byte[], int, int, int)} with another bit width, 0..32. */
  public void init(byte[] page, int offset, int length, int valueCount, int bitWidth)
      throws CorruptDataException {
    Decoders.checkBitWidth("BIT_PACKED", bitWidth, 32);
    this.bitWidth = bitWidth;
    init(page, offset, length, valueCount);
  }

  /** The position just past the packed values: where the next section of the page starts. */
  public int end() {
    return end;
  }

  public int remaining() {
    return valuesLeft;
  }

  @Override
  public void readInts(int[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining("BIT_PACKED", len, valuesLeft);
    BitPacking.unpackIntsMsbFirstAtBit(page, bitPos, dst, off, len, bitWidth);
    bitPos += (long) len * bitWidth;
    valuesLeft -= len;
  }

  @Override
  public void skip(int n) throws CorruptDataException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining("BIT_PACKED", n, valuesLeft);
    bitPos += (long) n * bitWidth;
    valuesLeft -= n;
  }
}
