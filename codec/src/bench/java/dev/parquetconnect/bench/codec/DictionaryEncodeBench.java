package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DictionaryBuilder;
import dev.parquetconnect.format.encoding.DictionaryIndicesEncoder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter.PlainLongDictionaryValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Dictionary encoding of one column chunk of one 64K-value page (1,000 distinct values, skewed):
 * look every value up in (or add it to) the dictionary, write the RLE_DICTIONARY data page body and
 * the PLAIN dictionary page body, each into one contiguous reused buffer.
 *
 * <p>Ours: {@code DictionaryBuilder.addLongs/addBinaries} then {@code
 * DictionaryIndicesEncoder.writeInts}, {@code flushTo} and {@code writeDictionaryPage}.
 * parquet-java: a fresh {@code PlainLongDictionaryValuesWriter} / {@code
 * PlainBinaryDictionaryValuesWriter} per chunk (as its column writer makes one per chunk), {@code
 * writeLong/writeBytes} per value, {@code getBytes()} and {@code toDictPageAndClose()}, both pages
 * copied out with {@code writeAllTo} into a reused stream.
 */
@State(Scope.Thread)
public class DictionaryEncodeBench {
  @Param({"INT64", "STRING"})
  public String type;

  private long[] longs;
  private BinaryBatch ourStrings;
  private Binary[] theirStrings;

  private DictionaryBuilder builder;
  private final DictionaryIndicesEncoder indicesEncoder =
      new DictionaryIndicesEncoder(dev.parquetconnect.format.meta.Encoding.RLE_DICTIONARY);
  private final int[] indices = new int[N];
  private final GrowableBuffer dataPage = new GrowableBuffer(BenchData.PAGE);
  private final GrowableBuffer dictPage = new GrowableBuffer(BenchData.PAGE);
  private final BenchData.Sink sink = new BenchData.Sink();

  @Setup
  public void setup() {
    if (type.equals("INT64")) {
      longs = BenchData.dictionaryLongs(7);
      builder = DictionaryBuilder.forType(PhysicalType.INT64, 0);
    } else {
      byte[][] strings = BenchData.dictionaryStrings(7);
      ourStrings = BenchData.batch(strings);
      theirStrings = BenchData.binaries(strings);
      builder = DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0);
    }
  }

  @Benchmark
  public void ours(Blackhole bh) {
    builder.clear();
    indicesEncoder.reset();
    if (longs != null) {
      builder.addLongs(longs, 0, N, indices, 0);
    } else {
      builder.addBinaries(ourStrings, 0, N, indices, 0);
    }
    indicesEncoder.writeInts(indices, 0, N);
    dataPage.reset();
    indicesEncoder.flushTo(dataPage);
    dictPage.reset();
    builder.writeDictionaryPage(dictPage);
    bh.consume(dataPage.size() + dictPage.size());
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    DictionaryValuesWriter writer;
    if (longs != null) {
      PlainLongDictionaryValuesWriter w =
          new PlainLongDictionaryValuesWriter(
              Integer.MAX_VALUE, Encoding.RLE_DICTIONARY, Encoding.PLAIN, BenchData.HEAP);
      for (int i = 0; i < N; i++) {
        w.writeLong(longs[i]);
      }
      writer = w;
    } else {
      PlainBinaryDictionaryValuesWriter w =
          new PlainBinaryDictionaryValuesWriter(
              Integer.MAX_VALUE, Encoding.RLE_DICTIONARY, Encoding.PLAIN, BenchData.HEAP);
      for (int i = 0; i < N; i++) {
        w.writeBytes(theirStrings[i]);
      }
      writer = w;
    }
    sink.reset();
    writer.getBytes().writeAllTo(sink);
    DictionaryPage page = writer.toDictPageAndClose();
    page.getBytes().writeAllTo(sink);
    writer.close();
    bh.consume(sink.size());
  }
}
