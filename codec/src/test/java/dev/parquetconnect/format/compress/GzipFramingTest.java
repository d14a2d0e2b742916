package dev.parquetconnect.format.compress;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** GZIP member framing (RFC 1952): several members, optional header fields, CRC and length. */
class GzipFramingTest {

  private static byte[] gzipWithJdk(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] decompress(byte[] compressed, int size) throws Exception {
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.GZIP)) {
      byte[] back = new byte[size];
      decompressor.decompress(compressed, 0, compressed.length, back, 0, size);
      return back;
    }
  }

  private static byte[] compress(byte[] data, int level) throws Exception {
    try (Compressor compressor = Codecs.compressor(CompressionCodec.GZIP, level)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      return out.toByteArray();
    }
  }

  @Test
  void readsSeveralConcatenatedMembers() throws Exception {
    byte[] a = TestInputs.compressible(1, 70_000);
    byte[] b = TestInputs.random(2, 1000);
    byte[] empty = new byte[0];
    byte[] c = TestInputs.compressible(3, 5);
    byte[] members = concat(gzipWithJdk(a), gzipWithJdk(b), gzipWithJdk(empty), compress(c, 9));
    assertArrayEquals(concat(a, b, empty, c), decompress(members, a.length + b.length + c.length));
  }

  @Test
  void checksEachMembersCrcAndLength() throws Exception {
    byte[] a = TestInputs.compressible(4, 3000);
    byte[] b = TestInputs.compressible(5, 3000);
    byte[] first = gzipWithJdk(a);
    byte[] second = gzipWithJdk(b);
    byte[] badCrc = concat(first, second);
    badCrc[first.length - 8] ^= 1; // first member's CRC
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decompress(badCrc, 6000));
    assertTrue(
        e.getMessage().contains("CRC-32 mismatch at byte " + (first.length - 8)), e.getMessage());

    byte[] badLength = concat(first, second);
    badLength[badLength.length - 1] ^= 1; // second member's ISIZE
    e = assertThrows(CorruptDataException.class, () -> decompress(badLength, 6000));
    assertTrue(e.getMessage().contains("member length mismatch"), e.getMessage());
  }

  /** A header with every optional field: FEXTRA, FNAME, FCOMMENT and a correct FHCRC. */
  @Test
  void skipsOptionalHeaderFields() throws Exception {
    byte[] data = TestInputs.compressible(6, 20_000);
    ByteArrayOutputStream member = new ByteArrayOutputStream();
    int allFlags = 0x02 | 0x04 | 0x08 | 0x10; // FHCRC, FEXTRA, FNAME, FCOMMENT
    member.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) allFlags, 1, 2, 3, 4, 0, 3});
    member.writeBytes(new byte[] {5, 0, 'A', 'B', 2, 0, 9}); // XLEN=5, one subfield
    member.writeBytes("page.bin\0".getBytes(ISO_8859_1));
    member.writeBytes("a comment\0".getBytes(ISO_8859_1));
    CRC32 headerCrc = new CRC32();
    headerCrc.update(member.toByteArray());
    member.write((int) headerCrc.getValue() & 0xFF);
    member.write((int) (headerCrc.getValue() >>> 8) & 0xFF);
    Deflater deflater = new Deflater(6, true);
    deflater.setInput(data);
    deflater.finish();
    byte[] buf = new byte[30_000];
    int n = deflater.deflate(buf);
    deflater.end();
    member.write(buf, 0, n);
    CRC32 crc = new CRC32();
    crc.update(data);
    writeIntLE(member, (int) crc.getValue());
    writeIntLE(member, data.length);
    byte[] bytes = member.toByteArray();
    assertArrayEquals(data, decompress(bytes, data.length));

    bytes[10 + 7 + 9 + 10] ^= 1; // the header CRC
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decompress(bytes, data.length));
    assertTrue(e.getMessage().contains("header CRC"), e.getMessage());
  }

  private static void writeIntLE(ByteArrayOutputStream out, int v) {
    out.write(v);
    out.write(v >>> 8);
    out.write(v >>> 16);
    out.write(v >>> 24);
  }

  @Test
  void rejectsBrokenFraming() throws Exception {
    byte[] data = TestInputs.compressible(7, 4000);
    byte[] good = compress(data, Codecs.DEFAULT_LEVEL);

    byte[] magic = good.clone();
    magic[1] = (byte) 0x8c;
    assertMessage(magic, data.length, "no gzip member at byte 0");

    byte[] method = good.clone();
    method[2] = 7;
    assertMessage(method, data.length, "not deflate");

    byte[] reserved = good.clone();
    reserved[3] = (byte) 0x80;
    assertMessage(reserved, data.length, "reserved header flags");

    byte[] truncated = Arrays.copyOf(good, good.length - 9);
    assertThrows(CorruptDataException.class, () -> decompress(truncated, data.length));

    byte[] noTrailer = Arrays.copyOf(good, good.length - 3);
    assertMessage(noTrailer, data.length, "trailer");

    byte[] trailingGarbage = concat(good, new byte[] {1, 2, 3});
    assertMessage(trailingGarbage, data.length, "no gzip member at byte " + good.length);

    byte[] headerOnly = Arrays.copyOf(good, 6);
    assertThrows(CorruptDataException.class, () -> decompress(headerOnly, data.length));
  }

  @Test
  void rejectsOutputLongerOrShorterThanAnnounced() throws Exception {
    byte[] data = TestInputs.compressible(8, 4000);
    byte[] twoMembers = concat(compress(data, 1), compress(data, 1));
    assertMessage(twoMembers, 2 * data.length - 1, "more than the 7999 bytes");
    assertMessage(twoMembers, 2 * data.length + 1, "decompressed to 8000 bytes");
    assertMessage(twoMembers, data.length, "more than the 4000 bytes");
  }

  private static void assertMessage(byte[] compressed, int size, String expected) {
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decompress(compressed, size));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void writesOneStandardMemberTheJdkReads() throws Exception {
    byte[] data = TestInputs.compressible(9, 100_000);
    for (int level : new int[] {0, 1, 6, 9}) {
      byte[] ours = compress(data, level);
      assertEquals(0x1f, ours[0] & 0xFF);
      assertEquals(0x8b, ours[1] & 0xFF);
      assertEquals(level == 9 ? 2 : level == 1 ? 4 : 0, ours[8], "XFL at level " + level);
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(ours))) {
        assertArrayEquals(data, in.readAllBytes(), "level " + level);
      }
    }
  }
}
