package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.encoding.DictionaryBinaryBatch;
import dev.parquetconnect.format.encoding.DictionaryDecoder;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.dictionary.DictionaryValuesReader;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainLongDictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.PlainValuesDictionary.PlainBinaryDictionary;
import org.apache.parquet.column.values.dictionary.PlainValuesDictionary.PlainLongDictionary;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Dictionary decoding of one column chunk of one 64K-value page (1,000 distinct values, skewed; the
 * pages written by parquet-java): decode the PLAIN dictionary page, then map every index of the
 * RLE_DICTIONARY data page to its value.
 *
 * <p>Ours: {@code Dictionary.decode}, then for INT64 {@code DictionaryDecoder.readLongs} into a
 * {@code long[]}; for STRING {@code DictionaryDecoder.readIndices} in batches of 4,096 values into
 * one reused {@code DictionaryBinaryBatch} (checked indices, no bytes copied), after which every
 * value is touched through the batch's per-value accessors, {@code offset(i)} and {@code length(i)}
 * (two loads from the dictionary's offsets), summed into one {@code long} per batch for the {@code
 * Blackhole}. parquet-java: {@code PlainLongDictionary} / {@code PlainBinaryDictionary} over the
 * dictionary page, then {@code DictionaryValuesReader.readLong()} / {@code readBytes()} per value,
 * stored into a {@code long[]} / {@code Binary[]} (its {@code Binary} values are the dictionary's
 * own entries: references, no copy; it does not look into them). Both sides thus hand out each
 * string by reference; {@link DictionaryDecodeCopyBench} measures ours copying them instead.
 */
@State(Scope.Thread)
public class DictionaryDecodeBench {
  @Param({"INT64", "STRING"})
  public String type;

  private boolean strings;
  private byte[] dictBytes;
  private int dictSize;
  private byte[] dataBytes;
  private final long[] longs = new long[N];
  private final Binary[] binaries = new Binary[N];
  private final DictionaryBinaryBatch batch = new DictionaryBinaryBatch(BenchData.BINARY_BATCH);

  @Setup
  public void setup() throws IOException {
    strings = type.equals("STRING");
    DictionaryValuesWriter writer;
    if (!strings) {
      PlainLongDictionaryValuesWriter w =
          new PlainLongDictionaryValuesWriter(
              Integer.MAX_VALUE, Encoding.RLE_DICTIONARY, Encoding.PLAIN, BenchData.HEAP);
      for (long v : BenchData.dictionaryLongs(11)) {
        w.writeLong(v);
      }
      writer = w;
    } else {
      PlainBinaryDictionaryValuesWriter w =
          new PlainBinaryDictionaryValuesWriter(
              Integer.MAX_VALUE, Encoding.RLE_DICTIONARY, Encoding.PLAIN, BenchData.HEAP);
      for (Binary v : BenchData.binaries(BenchData.dictionaryStrings(11))) {
        w.writeBytes(v);
      }
      writer = w;
    }
    dataBytes = BenchData.bytes(writer.getBytes());
    DictionaryPage page = writer.toDictPageAndClose();
    dictBytes = BenchData.bytes(page.getBytes());
    dictSize = page.getDictionarySize();
    check();
  }

  /** Both sides decode the values that were encoded. */
  private void check() throws IOException {
    try {
      Dictionary dictionary =
          Dictionary.decode(
              strings ? PhysicalType.BYTE_ARRAY : PhysicalType.INT64,
              0,
              dictBytes,
              0,
              dictBytes.length,
              dictSize);
      DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
      decoder.init(dataBytes, 0, dataBytes.length, N);
      DictionaryPage page =
          new DictionaryPage(BytesInput.from(dictBytes), dictSize, Encoding.PLAIN_DICTIONARY);
      if (strings) {
        byte[][] values = BenchData.dictionaryStrings(11);
        DictionaryBinaryBatch all = new DictionaryBinaryBatch(N);
        decoder.readIndices(all, N);
        boolean same = all.count() == N;
        for (int i = 0; same && i < N; i++) {
          same =
              java.util.Arrays.equals(
                  values[i],
                  0,
                  values[i].length,
                  all.data(),
                  all.offset(i),
                  all.offset(i) + all.length(i));
        }
        BenchData.check(same, "DictionaryDecode ours");
        DictionaryValuesReader reader = new DictionaryValuesReader(new PlainBinaryDictionary(page));
        reader.initFromPage(N, BenchData.stream(dataBytes));
        for (int i = 0; i < N; i++) {
          binaries[i] = reader.readBytes();
        }
        BenchData.check(
            java.util.Arrays.deepEquals(BenchData.bytesOf(binaries), values),
            "DictionaryDecode parquet-java");
      } else {
        long[] values = BenchData.dictionaryLongs(11);
        decoder.readLongs(longs, 0, N);
        BenchData.check(java.util.Arrays.equals(longs, values), "DictionaryDecode ours");
        DictionaryValuesReader reader = new DictionaryValuesReader(new PlainLongDictionary(page));
        reader.initFromPage(N, BenchData.stream(dataBytes));
        for (int i = 0; i < N; i++) {
          BenchData.check(reader.readLong() == values[i], "DictionaryDecode parquet-java");
        }
      }
    } catch (ParquetException e) {
      throw new IOException(e);
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    Dictionary dictionary =
        Dictionary.decode(
            strings ? PhysicalType.BYTE_ARRAY : PhysicalType.INT64,
            0,
            dictBytes,
            0,
            dictBytes.length,
            dictSize);
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    decoder.init(dataBytes, 0, dataBytes.length, N);
    if (strings) {
      DictionaryBinaryBatch values = batch;
      for (int done = 0; done < N; done += BenchData.BINARY_BATCH) {
        values.clear();
        decoder.readIndices(values, BenchData.BINARY_BATCH);
        long touched = 0;
        for (int i = 0, n = values.count(); i < n; i++) {
          touched += values.offset(i) + values.length(i);
        }
        bh.consume(touched);
      }
    } else {
      decoder.readLongs(longs, 0, N);
      bh.consume(longs);
    }
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    DictionaryPage page =
        new DictionaryPage(BytesInput.from(dictBytes), dictSize, Encoding.PLAIN_DICTIONARY);
    if (strings) {
      DictionaryValuesReader reader = new DictionaryValuesReader(new PlainBinaryDictionary(page));
      reader.initFromPage(N, BenchData.stream(dataBytes));
      Binary[] out = binaries;
      for (int i = 0; i < N; i++) {
        out[i] = reader.readBytes();
      }
      bh.consume(out);
    } else {
      DictionaryValuesReader reader = new DictionaryValuesReader(new PlainLongDictionary(page));
      reader.initFromPage(N, BenchData.stream(dataBytes));
      long[] out = longs;
      for (int i = 0; i < N; i++) {
        out[i] = reader.readLong();
      }
      bh.consume(out);
    }
  }
}
