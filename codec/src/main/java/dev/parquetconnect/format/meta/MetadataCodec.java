package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import java.io.IOException;
import java.io.InputStream;
import org.apache.thrift.TException;

/**
 * Reads and writes Parquet's Thrift metadata (footer, page headers, page index, bloom filter
 * headers) in the compact protocol, with hand-written struct readers and writers over libthrift's
 * {@code TCompactProtocol}.
 *
 * <p>Reading treats the bytes as untrusted: unknown fields are skipped (files from newer writers
 * read), every length is checked against the input before anything is allocated for it, nesting is
 * bounded, and every failure is a {@link CorruptDataException} (damaged bytes, a required field
 * missing) or an {@link UnsupportedFeatureException} (a codec, encoding or page type this project
 * does not know) whose message names the structure and the byte position within it. Writing emits
 * what Thrift's generated code emits for the same values, byte for byte.
 *
 * <p>All methods are static and thread-safe.
 */
public final class MetadataCodec {
  /** Largest page header {@link #readPageHeader(InputStream)} accepts, as parquet-cpp does. */
  public static final int DEFAULT_MAX_PAGE_HEADER_SIZE = 16 * 1024 * 1024;

  /** The file trailer: 4-byte little-endian footer length, then the magic. */
  public static final int TRAILER_LENGTH = 8;

  private static final int MAGIC_LENGTH = 4;
  private static final int PAR1 = LittleEndian.getInt(new byte[] {'P', 'A', 'R', '1'}, 0);
  private static final int PARE = LittleEndian.getInt(new byte[] {'P', 'A', 'R', 'E'}, 0);

  private MetadataCodec() {}

  // ---- footer

  /**
   * Checks the 8-byte trailer at {@code buf[off..off+8)} of a file of {@code fileLength} bytes and
   * returns the length of the footer that precedes it.
   *
   * @throws UnsupportedFeatureException for an encrypted footer (magic {@code PARE})
   * @throws CorruptDataException for a wrong magic or a footer length the file cannot hold
   */
  public static int footerLength(byte[] buf, int off, long fileLength) throws ParquetException {
    checkSlice(buf, off, TRAILER_LENGTH);
    if (fileLength < MAGIC_LENGTH + TRAILER_LENGTH) {
      throw new CorruptDataException(
          "a Parquet file needs at least 12 bytes, this one has " + fileLength);
    }
    int magic = LittleEndian.getInt(buf, off + 4);
    if (magic == PARE) {
      throw new UnsupportedFeatureException(
          "the footer is encrypted (magic PARE): Parquet modular encryption is not supported");
    }
    if (magic != PAR1) {
      throw new CorruptDataException("the file does not end in the magic PAR1");
    }
    int length = LittleEndian.getInt(buf, off);
    long room = fileLength - MAGIC_LENGTH - TRAILER_LENGTH;
    if (length < 0 || length > room) {
      throw new CorruptDataException(
          "footer length "
              + (length & 0xFFFFFFFFL)
              + " does not fit a file of "
              + fileLength
              + " bytes");
    }
    return length;
  }

  /** Decodes the footer from {@code buf[off..off+len)}; bytes after the struct are ignored. */
  public static FileMetaData readFileMetaData(byte[] buf, int off, int len)
      throws ParquetException {
    return decode(buf, off, len, "footer", FooterCodec::readFileMetaData).value();
  }

  public static void write(FileMetaData metadata, GrowableBuffer out) {
    encode(out, o -> FooterCodec.writeFileMetaData(o, metadata));
  }

  // ---- page headers

  /** Decodes the page header at the start of {@code buf[off..off+len)} and its encoded length. */
  public static Decoded<PageHeader> readPageHeader(byte[] buf, int off, int len)
      throws ParquetException {
    return decode(buf, off, len, "page header", PageHeaderCodec::readPageHeader);
  }

  /**
   * Reads a page header from a stream, taking exactly its bytes, so the page body follows in the
   * stream. Headers over {@link #DEFAULT_MAX_PAGE_HEADER_SIZE} are rejected as corrupt.
   *
   * @throws IOException when the stream itself fails (a truncated stream is corrupt data)
   */
  public static PageHeader readPageHeader(InputStream in) throws IOException, ParquetException {
    return readPageHeader(in, DEFAULT_MAX_PAGE_HEADER_SIZE);
  }

  /** {@link #readPageHeader(InputStream)} with a given limit on the header size. */
  public static PageHeader readPageHeader(InputStream in, int maxHeaderSize)
      throws IOException, ParquetException {
    if (maxHeaderSize <= 0) {
      throw new IllegalArgumentException("maxHeaderSize " + maxHeaderSize);
    }
    StreamTransport transport = new StreamTransport(in, maxHeaderSize);
    ThriftInput input = new ThriftInput(transport, "page header");
    PageHeader header;
    try {
      header = PageHeaderCodec.readPageHeader(input);
    } catch (TException | RuntimeException e) {
      if (transport.failure() != null) {
        throw transport.failure();
      }
      throw malformed("page header", transport.position(), e);
    }
    if (transport.unconsumed() != 0) {
      // A list or binary announced more bytes than the header then used: they were taken from
      // the stream and the page body no longer starts where the caller will read it.
      throw input.corrupt(
          "the header announced " + transport.unconsumed() + " bytes more than it contains");
    }
    return header;
  }

  public static void write(PageHeader header, GrowableBuffer out) {
    encode(out, o -> PageHeaderCodec.writePageHeader(o, header));
  }

  // ---- page index and bloom filter header

  public static ColumnIndex readColumnIndex(byte[] buf, int off, int len) throws ParquetException {
    return decode(buf, off, len, "column index", PageIndexCodec::readColumnIndex).value();
  }

  public static void write(ColumnIndex index, GrowableBuffer out) {
    encode(out, o -> PageIndexCodec.writeColumnIndex(o, index));
  }

  public static OffsetIndex readOffsetIndex(byte[] buf, int off, int len) throws ParquetException {
    return decode(buf, off, len, "offset index", PageIndexCodec::readOffsetIndex).value();
  }

  public static void write(OffsetIndex index, GrowableBuffer out) {
    encode(out, o -> PageIndexCodec.writeOffsetIndex(o, index));
  }

  /** Decodes the bloom filter header at the start of the slice; the bitset follows it. */
  public static Decoded<BloomFilterHeader> readBloomFilterHeader(byte[] buf, int off, int len)
      throws ParquetException {
    return decode(buf, off, len, "bloom filter header", PageIndexCodec::readBloomFilterHeader);
  }

  /**
   * @throws IllegalArgumentException for a header with an unrecognised union member
   */
  public static void write(BloomFilterHeader header, GrowableBuffer out) {
    encode(out, o -> PageIndexCodec.writeBloomFilterHeader(o, header));
  }

  // ---- plumbing

  private static <T> Decoded<T> decode(
      byte[] buf, int off, int len, String what, ThriftInput.StructReader<T> reader)
      throws ParquetException {
    checkSlice(buf, off, len);
    ByteArrayTransport transport = new ByteArrayTransport(buf, off, len);
    try {
      T value = reader.read(new ThriftInput(transport, what));
      return new Decoded<>(value, transport.position());
    } catch (TException | RuntimeException e) {
      // libthrift's own checks (lengths, types, end of input) and anything unchecked a lying
      // input could still provoke: all of it is damaged metadata to the caller.
      throw malformed(what, transport.position(), e);
    }
  }

  private static CorruptDataException malformed(String what, int position, Exception cause) {
    String detail = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName();
    return new CorruptDataException(
        what + ": malformed Thrift near byte " + position + ": " + detail, cause);
  }

  @FunctionalInterface
  private interface StructWriter {
    void write(ThriftOutput out) throws TException;
  }

  /** Appends one struct; on failure (an unwritable value) the buffer is left as it was. */
  private static void encode(GrowableBuffer out, StructWriter writer) {
    int start = out.size();
    try {
      writer.write(new ThriftOutput(out));
    } catch (TException e) {
      out.truncate(start);
      throw new IllegalStateException("writing Thrift to memory failed", e);
    } catch (RuntimeException e) {
      out.truncate(start);
      throw e;
    }
  }

  private static void checkSlice(byte[] buf, int off, int len) {
    if (off < 0 || len < 0 || off > buf.length - len) {
      throw new IllegalArgumentException(
          "slice [" + off + ", +" + len + ") outside array of " + buf.length);
    }
  }
}
