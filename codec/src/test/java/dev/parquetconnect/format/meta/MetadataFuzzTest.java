package dev.parquetconnect.format.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.ParquetException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Random and mutated inputs for every decoder, with fixed seeds and a time budget per decoder
 * ({@code -Dfuzz.millis}, default 1500): only {@link ParquetException}s may come out, never another
 * exception, an error or a hang. Samples are our encodings of hand-built and random metadata,
 * parquet-java's encodings, and the real footers, page headers and page indexes of the
 * parquet-testing corpus.
 */
@Timeout(60)
class MetadataFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataFuzzTest.class);

  private static final long MILLIS = Long.getLong("fuzz.millis", 1500);
  private static final int MIN_ITERATIONS = 200;

  private static final List<byte[]> FOOTERS = new ArrayList<>();
  private static final List<byte[]> PAGE_HEADERS = new ArrayList<>();
  private static final List<byte[]> COLUMN_INDEXES = new ArrayList<>();
  private static final List<byte[]> OFFSET_INDEXES = new ArrayList<>();
  private static final List<byte[]> BLOOM_HEADERS = new ArrayList<>();

  @FunctionalInterface
  interface Decoder {
    /** Decodes {@code buf[off..off+len)}, checking any invariant of a successful result. */
    void decode(byte[] buf, int off, int len) throws ParquetException, IOException;
  }

  @BeforeAll
  static void collectSamples() throws Exception {
    FOOTERS.add(MetadataOracleCrossCheckTest.write(SampleMetadata.fullFileMetaData()));
    FOOTERS.add(MetadataOracleCrossCheckTest.write(SampleMetadata.minimalFileMetaData()));
    PAGE_HEADERS.add(MetadataOracleCrossCheckTest.write(SampleMetadata.fullPageHeader()));
    for (PageHeader h : SampleMetadata.minimalPageHeaders()) {
      PAGE_HEADERS.add(MetadataOracleCrossCheckTest.write(h));
    }
    COLUMN_INDEXES.add(MetadataOracleCrossCheckTest.write(SampleMetadata.fullColumnIndex()));
    OFFSET_INDEXES.add(MetadataOracleCrossCheckTest.write(SampleMetadata.fullOffsetIndex()));
    BLOOM_HEADERS.add(MetadataOracleCrossCheckTest.write(SampleMetadata.bloomFilterHeader()));
    for (int seed = 0; seed < 20; seed++) {
      RandomOracleMetadata random = new RandomOracleMetadata(50_000 + seed);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeFileMetaData(random.fileMetaData(), out);
      FOOTERS.add(out.toByteArray());
      out = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writePageHeader(random.pageHeader(), out);
      PAGE_HEADERS.add(out.toByteArray());
      out = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeColumnIndex(random.columnIndex(), out);
      COLUMN_INDEXES.add(out.toByteArray());
      out = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeOffsetIndex(random.offsetIndex(), out);
      OFFSET_INDEXES.add(out.toByteArray());
    }
    for (Path path : ParquetTestingCorpusTest.files()) {
      addCorpusSamples(Files.readAllBytes(path));
    }
  }

  private static void addCorpusSamples(byte[] file) {
    byte[] footer = ParquetTestingCorpusTest.footerOrNull(file);
    if (footer == null) {
      return;
    }
    FOOTERS.add(footer);
    FileMetaData m;
    try {
      m = MetadataCodec.readFileMetaData(footer, 0, footer.length);
    } catch (ParquetException e) {
      return;
    }
    for (RowGroup g : m.rowGroups()) {
      for (ColumnChunk c : g.columns()) {
        if (c.metaData() != null) {
          // The header and whatever page bytes follow it, as a page reader sees them.
          addSlice(PAGE_HEADERS, file, c.metaData().dataPageOffset(), 256);
          if (c.metaData().bloomFilterOffset() != null) {
            addSlice(BLOOM_HEADERS, file, c.metaData().bloomFilterOffset(), 64);
          }
        }
        if (c.columnIndexOffset() != null && c.columnIndexLength() != null) {
          addSlice(COLUMN_INDEXES, file, c.columnIndexOffset(), c.columnIndexLength());
        }
        if (c.offsetIndexOffset() != null && c.offsetIndexLength() != null) {
          addSlice(OFFSET_INDEXES, file, c.offsetIndexOffset(), c.offsetIndexLength());
        }
      }
    }
  }

  private static void addSlice(List<byte[]> samples, byte[] file, long off, int len) {
    if (off >= 0 && len > 0 && off < file.length && samples.size() < 400) {
      samples.add(Arrays.copyOfRange(file, (int) off, (int) Math.min(file.length, off + len)));
    }
  }

  @Test
  void footer() {
    fuzz("footer", 1, FOOTERS, (b, off, len) -> MetadataCodec.readFileMetaData(b, off, len));
  }

  @Test
  void pageHeader() {
    fuzz("page header", 2, PAGE_HEADERS, MetadataFuzzTest::pageHeaderBothWays);
  }

  @Test
  void columnIndex() {
    fuzz(
        "column index",
        3,
        COLUMN_INDEXES,
        (b, off, len) -> MetadataCodec.readColumnIndex(b, off, len));
  }

  @Test
  void offsetIndex() {
    fuzz(
        "offset index",
        4,
        OFFSET_INDEXES,
        (b, off, len) -> MetadataCodec.readOffsetIndex(b, off, len));
  }

  @Test
  void bloomFilterHeader() {
    fuzz(
        "bloom filter header",
        5,
        BLOOM_HEADERS,
        (b, off, len) -> {
          Decoded<BloomFilterHeader> d = MetadataCodec.readBloomFilterHeader(b, off, len);
          assertTrue(d.length() > 0 && d.length() <= len);
        });
  }

  @Test
  void trailer() {
    fuzz(
        "trailer",
        6,
        List.of(HexFormat.of().parseHex("0400000050415231")),
        (b, off, len) -> {
          if (len >= 8) {
            int footer = MetadataCodec.footerLength(b, off + len - 8, len);
            assertTrue(footer >= 0 && footer <= len - 12);
          }
        });
  }

  /**
   * The array and the stream readers must agree: both fail, or both give the same header, and the
   * stream reader takes exactly the bytes the array reader reports.
   */
  private static void pageHeaderBothWays(byte[] b, int off, int len)
      throws ParquetException, IOException {
    Decoded<PageHeader> fromArray = null;
    ParquetException arrayError = null;
    try {
      fromArray = MetadataCodec.readPageHeader(b, off, len);
    } catch (ParquetException e) {
      arrayError = e;
    }
    ByteArrayInputStream stream = new ByteArrayInputStream(b, off, len);
    PageHeader fromStream;
    try {
      fromStream = MetadataCodec.readPageHeader(stream);
    } catch (ParquetException e) {
      if (fromArray != null) {
        throw new AssertionError("array reader accepts what the stream reader rejects", e);
      }
      throw e;
    }
    if (arrayError != null) {
      throw new AssertionError("stream reader accepts what the array reader rejects", arrayError);
    }
    assertEquals(fromArray.value(), fromStream);
    assertTrue(fromArray.length() > 0 && fromArray.length() <= len);
    assertEquals(fromArray.length(), len - stream.available());
  }

  private static void fuzz(String what, long seed, List<byte[]> samples, Decoder decoder) {
    assertTrue(!samples.isEmpty(), "no " + what + " samples");
    Random random = new Random(seed);
    long deadline = System.nanoTime() + MILLIS * 1_000_000L;
    int iterations = 0;
    int accepted = 0;
    int rejected = 0;
    while (iterations < MIN_ITERATIONS || System.nanoTime() < deadline) {
      byte[] input =
          random.nextInt(8) == 0
              ? randomBytes(random)
              : mutate(samples.get(random.nextInt(samples.size())), samples, random);
      // Decode from the middle of a larger array whose padding is varint continuation bytes,
      // so a read past the slice would show as a different result, not go unnoticed.
      int pad = random.nextInt(4);
      byte[] buf = new byte[input.length + pad * 2];
      Arrays.fill(buf, (byte) 0x80);
      System.arraycopy(input, 0, buf, pad, input.length);
      try {
        decoder.decode(buf, pad, input.length);
        accepted++;
      } catch (ParquetException expected) {
        rejected++; // the only acceptable way to refuse bad input
      } catch (Throwable t) {
        fail(
            what
                + " seed "
                + seed
                + " iteration "
                + iterations
                + ": "
                + t
                + "\ninput: "
                + HexFormat.of().formatHex(input),
            t);
      }
      iterations++;
    }
    assertTrue(iterations >= MIN_ITERATIONS);
    assertEquals(iterations, accepted + rejected);
    LOG.info(
        "fuzz "
            + what
            + ": "
            + iterations
            + " inputs, "
            + accepted
            + " accepted, "
            + rejected
            + " rejected with a ParquetException");
  }

  private static byte[] randomBytes(Random random) {
    byte[] b = new byte[random.nextInt(64)];
    random.nextBytes(b);
    return b;
  }

  private static byte[] mutate(byte[] sample, List<byte[]> samples, Random random) {
    byte[] b = sample.clone();
    for (int m = 1 + random.nextInt(3); m > 0; m--) {
      if (b.length == 0) {
        return b;
      }
      int at = random.nextInt(b.length);
      switch (random.nextInt(9)) {
        case 0 -> b[at] ^= (byte) (1 << random.nextInt(8));
        case 1 -> b[at] = (byte) random.nextInt(256);
        case 2 ->
            b[at] = new byte[] {0, (byte) 0xFF, (byte) 0x80, 0x7F, 0x0C, 0x19}[random.nextInt(6)];
        case 3 -> b = Arrays.copyOf(b, at);
        case 4 ->
            b =
                splice(
                    b, at, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07});
        case 5 -> {
          byte[] extra = new byte[1 + random.nextInt(8)];
          random.nextBytes(extra);
          b = splice(b, at, extra);
        }
        case 6 -> {
          int end = Math.min(b.length, at + 1 + random.nextInt(16));
          byte[] cut = new byte[b.length - (end - at)];
          System.arraycopy(b, 0, cut, 0, at);
          System.arraycopy(b, end, cut, at, b.length - end);
          b = cut;
        }
        case 7 -> {
          int len = Math.min(b.length - at, 1 + random.nextInt(32));
          b = splice(b, random.nextInt(b.length), Arrays.copyOfRange(b, at, at + len));
        }
        default -> {
          byte[] other = samples.get(random.nextInt(samples.size()));
          if (other.length > 0) {
            int from = random.nextInt(other.length);
            int len = Math.min(other.length - from, 1 + random.nextInt(64));
            b = splice(Arrays.copyOf(b, at), at, Arrays.copyOfRange(other, from, from + len));
          }
        }
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int at, byte[] insert) {
    byte[] out = new byte[b.length + insert.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(b, at, out, at + insert.length, b.length - at);
    return out;
  }
}
