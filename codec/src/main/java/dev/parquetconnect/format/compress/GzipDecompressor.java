package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.ByteReader;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * GZIP: one or more RFC 1952 members back to back (Compression.md asks readers to accept several).
 * The member headers and trailers are parsed here; each member's raw deflate data goes through one
 * reused {@link Inflater}, and its CRC-32 and length are checked against the trailer. Positions in
 * messages count from the start of the compressed page data.
 */
final class GzipDecompressor implements Decompressor {
  private static final int FLAG_HCRC = 0x02;
  private static final int FLAG_EXTRA = 0x04;
  private static final int FLAG_NAME = 0x08;
  private static final int FLAG_COMMENT = 0x10;
  private static final int FLAGS_RESERVED = 0xE0;
  private static final int CM_DEFLATE = 8;

  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final ByteReader header = new ByteReader();

  /** Where one byte past the announced size lands, to detect output longer than announced. */
  private final byte[] overflowProbe = new byte[1];

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.GZIP;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len == 0 && uncompressedSize == 0) {
      return;
    }
    int end = off + len;
    int pos = off;
    int produced = 0;
    do {
      int memberStart = pos;
      int dataStart = skipHeader(src, pos, end, off);
      int memberOut;
      try {
        memberOut =
            inflateMember(
                src,
                dataStart,
                end,
                dst,
                dstOff + produced,
                uncompressedSize - produced,
                uncompressedSize);
      } catch (DataFormatException e) {
        throw new CorruptDataException(
            "GZIP: malformed deflate data in the member at byte "
                + (memberStart - off)
                + ": "
                + e.getMessage(),
            e);
      }
      if (memberOut < 0) {
        throw new CorruptDataException(
            "GZIP: the member at byte "
                + (memberStart - off)
                + " ends before its deflate data"
                + " does ("
                + len
                + " bytes in all)");
      }
      int trailer = end - inflater.getRemaining();
      pos = checkTrailer(src, trailer, end, off, dst, dstOff + produced, memberOut);
      produced += memberOut;
    } while (pos < end);
    if (produced != uncompressedSize) {
      throw SizeLimits.shorter(codec(), produced, uncompressedSize);
    }
  }

  /**
   * Inflates one member's deflate stream from {@code src[pos, end)} into {@code dst} from {@code
   * dstOff}, allowing at most {@code room} bytes (what is left of the page's {@code announced}
   * size), and stops at the end of the stream. Returns the bytes produced, or -1 when the input
   * ends before the stream does.
   */
  private int inflateMember(
      byte[] src, int pos, int end, byte[] dst, int dstOff, int room, int announced)
      throws ParquetException, DataFormatException {
    inflater.reset();
    inflater.setInput(src, pos, end - pos);
    int out = 0;
    while (!inflater.finished()) {
      int remainingBefore = inflater.getRemaining();
      int n;
      if (out < room) {
        n = inflater.inflate(dst, dstOff + out, room - out);
        out += n;
      } else {
        n = inflater.inflate(overflowProbe, 0, 1);
        if (n > 0) {
          throw SizeLimits.longer(codec(), announced);
        }
      }
      if (n == 0 && !inflater.finished()) {
        if (inflater.needsDictionary()) {
          throw new CorruptDataException("GZIP: deflate data asks for a preset dictionary");
        }
        if (inflater.needsInput()) {
          return -1;
        }
        if (inflater.getRemaining() == remainingBefore) {
          throw new CorruptDataException("GZIP: deflate data makes no progress");
        }
      }
    }
    return out;
  }

  /** Checks a member header at {@code pos} and returns where its deflate data starts. */
  private int skipHeader(byte[] src, int pos, int end, int base) throws CorruptDataException {
    header.reset(src, pos, end - pos);
    int id1 = header.readUnsignedByte("GZIP member header");
    int id2 = header.readUnsignedByte("GZIP member header");
    if (id1 != 0x1f || id2 != 0x8b) {
      throw new CorruptDataException(
          String.format(
              "GZIP: no gzip member at byte %d (magic %02x %02x instead of 1f 8b)",
              pos - base, id1, id2));
    }
    int method = header.readUnsignedByte("GZIP member header");
    if (method != CM_DEFLATE) {
      throw new CorruptDataException(
          "GZIP: compression method "
              + method
              + " at byte "
              + (pos - base + 2)
              + " is not deflate (8)");
    }
    int flags = header.readUnsignedByte("GZIP member header");
    if ((flags & FLAGS_RESERVED) != 0) {
      throw new CorruptDataException(
          "GZIP: reserved header flags set (0x"
              + Integer.toHexString(flags)
              + ") at byte "
              + (pos - base + 3));
    }
    header.skip(6, "GZIP member header"); // MTIME, XFL, OS
    if ((flags & FLAG_EXTRA) != 0) {
      int extraLength =
          header.readUnsignedByte("GZIP extra field length")
              | header.readUnsignedByte("GZIP extra field length") << 8;
      header.skip(extraLength, "GZIP extra field");
    }
    if ((flags & FLAG_NAME) != 0) {
      skipZeroTerminated("GZIP file name");
    }
    if ((flags & FLAG_COMMENT) != 0) {
      skipZeroTerminated("GZIP comment");
    }
    if ((flags & FLAG_HCRC) != 0) {
      int headerEnd = header.position();
      int stored =
          header.readUnsignedByte("GZIP header CRC")
              | header.readUnsignedByte("GZIP header CRC") << 8;
      crc.reset();
      crc.update(src, pos, headerEnd - pos);
      if (stored != ((int) crc.getValue() & 0xFFFF)) {
        throw new CorruptDataException(
            "GZIP: header CRC mismatch in the member at byte " + (pos - base));
      }
    }
    return header.position();
  }

  private void skipZeroTerminated(String what) throws CorruptDataException {
    while (header.readUnsignedByte(what) != 0) {
      // The field's content does not matter for decompression.
    }
  }

  /**
   * Checks the CRC-32 and ISIZE trailer at {@code pos} against the member's output and returns the
   * position after it.
   */
  private int checkTrailer(
      byte[] src, int pos, int end, int base, byte[] out, int outOff, int outLen)
      throws CorruptDataException {
    if (end - pos < GzipCompressor.TRAILER_SIZE) {
      throw new CorruptDataException(
          "GZIP: member trailer at byte "
              + (pos - base)
              + " needs 8 bytes but only "
              + (end - pos)
              + " remain");
    }
    int storedCrc = LittleEndian.getInt(src, pos);
    int storedSize = LittleEndian.getInt(src, pos + 4);
    crc.reset();
    crc.update(out, outOff, outLen);
    if (storedCrc != (int) crc.getValue()) {
      throw new CorruptDataException(
          String.format(
              "GZIP: CRC-32 mismatch at byte %d: trailer says %08x, data has %08x",
              pos - base, storedCrc, (int) crc.getValue()));
    }
    if (storedSize != outLen) {
      throw new CorruptDataException(
          "GZIP: member length mismatch at byte "
              + (pos - base + 4)
              + ": trailer says "
              + Integer.toUnsignedString(storedSize)
              + ", data has "
              + outLen);
    }
    return pos + GzipCompressor.TRAILER_SIZE;
  }

  @Override
  public void close() {
    inflater.end();
  }
}
