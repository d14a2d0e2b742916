package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.encoding.DictionaryDecoder;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.dictionary.DictionaryValuesReader;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.PlainValuesDictionary.PlainBinaryDictionary;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * String dictionary decoding into the contiguous form: the same chunk as {@link
 * DictionaryDecodeBench}'s STRING kernel (one 64K-value page of 20-30-byte strings, 1,000 distinct,
 * skewed, written by parquet-java), but ours materialises every value.
 *
 * <p>Ours: {@code Dictionary.decode}, then {@code DictionaryDecoder.readBinaries} in batches of
 * 4,096 values into one reused {@code BinaryBatch}, copying each string's bytes. parquet-java:
 * {@code PlainBinaryDictionary}, then {@code DictionaryValuesReader.readBytes()} per value stored
 * into a {@code Binary[]}: references to the dictionary's entries, no copy. So this kernel compares
 * a copy against a reference; {@link DictionaryDecodeBench} compares references with references.
 */
@State(Scope.Thread)
public class DictionaryDecodeCopyBench {
  @Param({"STRING"})
  public String type;

  private byte[] dictBytes;
  private int dictSize;
  private byte[] dataBytes;
  private final Binary[] binaries = new Binary[N];
  private final BinaryBatch batch = new BinaryBatch(BenchData.BINARY_BATCH, 1 << 20);

  @Setup
  public void setup() throws IOException {
    PlainBinaryDictionaryValuesWriter writer =
        new PlainBinaryDictionaryValuesWriter(
            Integer.MAX_VALUE, Encoding.RLE_DICTIONARY, Encoding.PLAIN, BenchData.HEAP);
    for (Binary v : BenchData.binaries(BenchData.dictionaryStrings(11))) {
      writer.writeBytes(v);
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
      byte[][] values = BenchData.dictionaryStrings(11);
      Dictionary dictionary =
          Dictionary.decode(PhysicalType.BYTE_ARRAY, 0, dictBytes, 0, dictBytes.length, dictSize);
      DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
      decoder.init(dataBytes, 0, dataBytes.length, N);
      BinaryBatch all = new BinaryBatch(N, 4 << 20);
      decoder.readBinaries(all, N);
      BenchData.check(BenchData.sameBinaries(all, values, 0), "DictionaryDecodeCopy ours");
      DictionaryPage page =
          new DictionaryPage(BytesInput.from(dictBytes), dictSize, Encoding.PLAIN_DICTIONARY);
      DictionaryValuesReader reader = new DictionaryValuesReader(new PlainBinaryDictionary(page));
      reader.initFromPage(N, BenchData.stream(dataBytes));
      for (int i = 0; i < N; i++) {
        binaries[i] = reader.readBytes();
      }
      BenchData.check(
          java.util.Arrays.deepEquals(BenchData.bytesOf(binaries), values),
          "DictionaryDecodeCopy parquet-java");
    } catch (ParquetException e) {
      throw new IOException(e);
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    Dictionary dictionary =
        Dictionary.decode(PhysicalType.BYTE_ARRAY, 0, dictBytes, 0, dictBytes.length, dictSize);
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    decoder.init(dataBytes, 0, dataBytes.length, N);
    for (int done = 0; done < N; done += BenchData.BINARY_BATCH) {
      batch.clear();
      decoder.readBinaries(batch, BenchData.BINARY_BATCH);
      bh.consume(batch);
    }
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    DictionaryPage page =
        new DictionaryPage(BytesInput.from(dictBytes), dictSize, Encoding.PLAIN_DICTIONARY);
    DictionaryValuesReader reader = new DictionaryValuesReader(new PlainBinaryDictionary(page));
    reader.initFromPage(N, BenchData.stream(dataBytes));
    Binary[] out = binaries;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readBytes();
    }
    bh.consume(out);
  }
}
