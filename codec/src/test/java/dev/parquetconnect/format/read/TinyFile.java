package dev.parquetconnect.format.read;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.DataPageHeader;
import dev.parquetconnect.format.meta.DataPageHeaderV2;
import dev.parquetconnect.format.meta.DictionaryPageHeader;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.IndexPageHeader;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds a one-column file ({@code optional int32 x}, one row group) page by page, for page layouts
 * no writer at hand produces: v2 pages stored uncompressed in a compressed chunk, index pages,
 * dictionary pages in the wrong place, headers that lie. Levels are written as RLE runs of bit
 * width 1, values as PLAIN.
 */
final class TinyFile {
  static final MessageType SCHEMA =
      new MessageType(
          "tiny", List.of(PrimitiveNode.of("x", FieldRepetitionType.OPTIONAL, PhysicalType.INT32)));

  private final CompressionCodec codec;
  private final GrowableBuffer file = new GrowableBuffer();
  private long values;

  TinyFile(CompressionCodec codec) {
    this.codec = codec;
    file.write("PAR1".getBytes(StandardCharsets.US_ASCII));
  }

  /** A v1 data page of {@code def} levels (1 = present) and the present {@code values}. */
  TinyFile v1(int[] def, int[] present) {
    GrowableBuffer body = new GrowableBuffer();
    GrowableBuffer levels = levels(def);
    body.writeIntLE(levels.size());
    body.write(levels);
    body.write(plain(present));
    byte[] stored = compress(body.toByteArray());
    page(
        new PageHeader(
            PageType.DATA_PAGE,
            body.size(),
            stored.length,
            null,
            new DataPageHeader(def.length, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, null),
            null,
            null,
            null),
        stored);
    values += def.length;
    return this;
  }

  /** A v2 data page; with {@code compressed} false its values are stored as they are. */
  TinyFile v2(int[] def, int[] present, boolean compressed, int declaredNulls) {
    GrowableBuffer levels = levels(def);
    byte[] plain = plain(present).toByteArray();
    byte[] stored = compressed ? compress(plain) : plain;
    GrowableBuffer body = new GrowableBuffer();
    body.write(levels);
    body.write(stored);
    page(
        new PageHeader(
            PageType.DATA_PAGE_V2,
            levels.size() + plain.length,
            body.size(),
            null,
            null,
            null,
            null,
            new DataPageHeaderV2(
                def.length,
                declaredNulls,
                def.length,
                Encoding.PLAIN,
                levels.size(),
                0,
                compressed,
                null)),
        body.toByteArray());
    values += def.length;
    return this;
  }

  /** A dictionary page of {@code entries}. */
  TinyFile dictionary(int[] entries) {
    byte[] plain = plain(entries).toByteArray();
    byte[] stored = compress(plain);
    page(
        new PageHeader(
            PageType.DICTIONARY_PAGE,
            plain.length,
            stored.length,
            null,
            null,
            null,
            new DictionaryPageHeader(entries.length, Encoding.PLAIN, null),
            null),
        stored);
    return this;
  }

  /** A v1 page of dictionary indices (bit width 8), all present. */
  TinyFile v1Indices(int[] indices) {
    GrowableBuffer body = new GrowableBuffer();
    int[] def = new int[indices.length];
    java.util.Arrays.fill(def, 1);
    GrowableBuffer levels = levels(def);
    body.writeIntLE(levels.size());
    body.write(levels);
    body.writeByte(8);
    for (int i : indices) {
      body.writeUnsignedVarInt(1 << 1);
      body.writeByte(i);
    }
    byte[] stored = compress(body.toByteArray());
    page(
        new PageHeader(
            PageType.DATA_PAGE,
            body.size(),
            stored.length,
            null,
            new DataPageHeader(
                indices.length, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.RLE, null),
            null,
            null,
            null),
        stored);
    values += indices.length;
    return this;
  }

  /** An index page (which readers skip) with an arbitrary body. */
  TinyFile index(byte[] body) {
    page(
        new PageHeader(
            PageType.INDEX_PAGE,
            body.length,
            body.length,
            null,
            null,
            IndexPageHeader.INSTANCE,
            null,
            null),
        body);
    return this;
  }

  /** Any header and body, written as given. */
  TinyFile raw(PageHeader header, byte[] body) {
    page(header, body);
    return this;
  }

  /** The file with one row group of {@code rows} rows and the values the pages announced. */
  byte[] build(long rows) {
    return build(rows, values);
  }

  byte[] build(long rows, long numValues) {
    long chunkLength = file.size() - 4;
    ColumnMetaData meta =
        new ColumnMetaData(
            PhysicalType.INT32,
            List.of(Encoding.PLAIN),
            List.of("x"),
            codec,
            numValues,
            chunkLength,
            chunkLength,
            null,
            4,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    RowGroup rowGroup =
        new RowGroup(
            List.of(new ColumnChunk(null, 4, meta, null, null, null, null, null, null)),
            chunkLength,
            rows,
            null,
            4L,
            chunkLength,
            (short) 0);
    FileMetaData footer =
        new FileMetaData(
            2,
            SchemaConverter.toSchemaElements(SCHEMA),
            rows,
            List.of(rowGroup),
            null,
            "tiny test writer",
            null,
            null,
            null);
    GrowableBuffer out = new GrowableBuffer();
    out.write(file);
    int start = out.size();
    MetadataCodec.write(footer, out);
    out.writeIntLE(out.size() - start);
    out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  private void page(PageHeader header, byte[] body) {
    MetadataCodec.write(header, file);
    file.write(body);
  }

  private byte[] compress(byte[] plain) {
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(plain, 0, plain.length, out);
      return out.toByteArray();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** RLE runs of bit width 1, one run per stretch of equal levels. */
  private static GrowableBuffer levels(int[] def) {
    GrowableBuffer out = new GrowableBuffer();
    int i = 0;
    while (i < def.length) {
      int j = i;
      while (j < def.length && def[j] == def[i]) {
        j++;
      }
      out.writeUnsignedVarInt((j - i) << 1);
      out.writeByte(def[i]);
      i = j;
    }
    return out;
  }

  private static GrowableBuffer plain(int[] values) {
    GrowableBuffer out = new GrowableBuffer();
    for (int v : values) {
      out.writeIntLE(v);
    }
    return out;
  }
}
