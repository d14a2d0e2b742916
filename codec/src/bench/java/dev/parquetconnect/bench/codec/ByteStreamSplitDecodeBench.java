package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.ByteStreamSplitDecoder;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesReaderForDouble;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesWriter.DoubleByteStreamSplitValuesWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * BYTE_STREAM_SPLIT decode of 64K DOUBLE measurements (the page written by parquet-java). Ours:
 * {@code ByteStreamSplitDecoder.readDoubles} into a {@code double[]}; parquet-java: {@code
 * ByteStreamSplitValuesReaderForDouble}, whose {@code initFromPage} un-splits the page, then {@code
 * readDouble()} per value into a {@code double[]}.
 */
@State(Scope.Thread)
public class ByteStreamSplitDecodeBench {
  private byte[] page;
  private final double[] dst = new double[N];
  private ByteStreamSplitDecoder decoder;

  @Setup
  public void setup() throws IOException, ParquetException {
    DoubleByteStreamSplitValuesWriter writer =
        new DoubleByteStreamSplitValuesWriter(BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    double[] values = BenchData.measurements(23);
    for (double v : values) {
      writer.writeDouble(v);
    }
    page = BenchData.bytes(writer.getBytes());
    decoder = ByteStreamSplitDecoder.forType(PhysicalType.DOUBLE, 0);
    decoder.init(page, 0, page.length, N);
    decoder.readDoubles(dst, 0, N);
    BenchData.check(java.util.Arrays.equals(dst, values), "ByteStreamSplitDecode ours");
    ByteStreamSplitValuesReaderForDouble reader = new ByteStreamSplitValuesReaderForDouble();
    reader.initFromPage(N, BenchData.stream(page));
    for (int i = 0; i < N; i++) {
      BenchData.check(reader.readDouble() == values[i], "ByteStreamSplitDecode parquet-java");
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    decoder.init(page, 0, page.length, N);
    decoder.readDoubles(dst, 0, N);
    bh.consume(dst);
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    ByteStreamSplitValuesReaderForDouble reader = new ByteStreamSplitValuesReaderForDouble();
    reader.initFromPage(N, BenchData.stream(page));
    double[] out = dst;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readDouble();
    }
    bh.consume(out);
  }
}
