package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import java.io.IOException;

/**
 * Reads and decodes the footer: one ranged read of the file's tail (enough for the footer of nearly
 * every file), a second one only for a footer longer than that, and a 4-byte read of the leading
 * magic when the tail does not reach the start. The magic at both ends and the footer length are
 * checked against the file before the footer is allocated or decoded.
 */
final class FooterReader {
  static final String ENCRYPTED = "encrypted Parquet files are not supported";
  private static final int MAGIC_LENGTH = 4;

  /** Leading magic, footer length, trailing magic: an empty footer still needs these. */
  private static final int MIN_FILE_SIZE = MAGIC_LENGTH + MetadataCodec.TRAILER_LENGTH;

  private static final int PAR1 = LittleEndian.getInt(new byte[] {'P', 'A', 'R', '1'}, 0);
  private static final int PARE = LittleEndian.getInt(new byte[] {'P', 'A', 'R', 'E'}, 0);

  /** The decoded footer and where it starts in the file (the end of the data region). */
  record Footer(FileMetaData metadata, long start) {}

  private FooterReader() {}

  static Footer read(SeekableInput in, ReadOptions options) throws IOException, ParquetException {
    String name = in.name();
    long size = in.length();
    if (size < MIN_FILE_SIZE) {
      throw new CorruptDataException(
              "not a Parquet file: " + size + " bytes, fewer than the 12 of an empty one")
          .at(name, null, 0);
    }
    int tailLength = (int) Math.min(size, options.footerReadSize());
    byte[] tail = new byte[tailLength];
    in.readFully(size - tailLength, tail, 0, tailLength);
    if (LittleEndian.getInt(tail, tailLength - MAGIC_LENGTH) == PARE) {
      throw encrypted("the footer is encrypted: magic PARE", name);
    }
    int footerLength;
    try {
      footerLength = MetadataCodec.footerLength(tail, tailLength - 8, size);
    } catch (ParquetException e) {
      throw e.at(name, null, size - MetadataCodec.TRAILER_LENGTH);
    }
    if (footerLength > options.maxFooterSize()) {
      throw new UnsupportedFeatureException(
              "footer of "
                  + footerLength
                  + " bytes exceeds the reader's limit of "
                  + options.maxFooterSize()
                  + " (ReadOptions.maxFooterSize)")
          .at(name, null, size - MetadataCodec.TRAILER_LENGTH);
    }
    checkLeadingMagic(in, tail, size, name);

    long footerStart = size - MetadataCodec.TRAILER_LENGTH - footerLength;
    byte[] footer;
    int footerOffset;
    int inTail = tailLength - MetadataCodec.TRAILER_LENGTH;
    if (footerLength <= inTail) {
      footer = tail;
      footerOffset = inTail - footerLength;
    } else {
      // The tail holds the footer's last bytes; fetch only the part before it.
      footer = new byte[footerLength];
      footerOffset = 0;
      int missing = footerLength - inTail;
      in.readFully(footerStart, footer, 0, missing);
      System.arraycopy(tail, 0, footer, missing, inTail);
    }
    FileMetaData metadata;
    try {
      metadata = MetadataCodec.readFileMetaData(footer, footerOffset, footerLength);
    } catch (ParquetException e) {
      throw e.at(name, null, footerStart);
    }
    if (metadata.usesEncryption()) {
      throw encrypted("the footer is plaintext but columns are encrypted", name);
    }
    return new Footer(metadata, footerStart);
  }

  private static void checkLeadingMagic(SeekableInput in, byte[] tail, long size, String name)
      throws IOException, ParquetException {
    int magic;
    if (tail.length == size) {
      magic = LittleEndian.getInt(tail, 0);
    } else {
      byte[] head = new byte[MAGIC_LENGTH];
      in.readFully(0, head, 0, MAGIC_LENGTH);
      magic = LittleEndian.getInt(head, 0);
    }
    if (magic == PARE) {
      throw encrypted("the file starts with the magic PARE", name);
    }
    if (magic != PAR1) {
      throw new CorruptDataException("the file does not start with the magic PAR1")
          .at(name, null, 0);
    }
  }

  private static ParquetException encrypted(String detail, String name) {
    return new UnsupportedFeatureException(ENCRYPTED + " (" + detail + ")").at(name, null, -1);
  }
}
