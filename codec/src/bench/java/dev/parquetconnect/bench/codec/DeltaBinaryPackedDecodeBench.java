package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.DeltaBinaryPackedDecoder;
import java.io.IOException;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesReader;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * DELTA_BINARY_PACKED decode of 64K INT64 event timestamps (the page written by parquet-java, block
 * 128, 4 miniblocks). Ours: {@code DeltaBinaryPackedDecoder.readLongs} into a {@code long[]};
 * parquet-java: {@code DeltaBinaryPackingValuesReader.readLong()} per value into a {@code long[]}.
 */
@State(Scope.Thread)
public class DeltaBinaryPackedDecodeBench {
  private byte[] page;
  private final long[] dst = new long[N];
  private final DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();

  @Setup
  public void setup() throws IOException {
    DeltaBinaryPackingValuesWriterForLong writer =
        new DeltaBinaryPackingValuesWriterForLong(
            128, 4, BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    long[] values = BenchData.timestamps(5);
    for (long v : values) {
      writer.writeLong(v);
    }
    page = BenchData.bytes(writer.getBytes());
    try {
      decoder.init(page, 0, page.length, N);
      decoder.readLongs(dst, 0, N);
    } catch (ParquetException e) {
      throw new IOException(e);
    }
    BenchData.check(java.util.Arrays.equals(dst, values), "DeltaBinaryPackedDecode ours");
    DeltaBinaryPackingValuesReader reader = new DeltaBinaryPackingValuesReader();
    reader.initFromPage(N, BenchData.stream(page));
    for (int i = 0; i < N; i++) {
      BenchData.check(reader.readLong() == values[i], "DeltaBinaryPackedDecode parquet-java");
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    decoder.init(page, 0, page.length, N);
    decoder.readLongs(dst, 0, N);
    bh.consume(dst);
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    DeltaBinaryPackingValuesReader reader = new DeltaBinaryPackingValuesReader();
    reader.initFromPage(N, BenchData.stream(page));
    long[] out = dst;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readLong();
    }
    bh.consume(out);
  }
}
