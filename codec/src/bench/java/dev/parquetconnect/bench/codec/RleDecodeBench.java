package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.encoding.RleBitPackedHybridDecoder;
import java.io.IOException;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * RLE / bit-packing hybrid decode of 64K values (runs of 8..300 equal values alternating with
 * random stretches) at one bit width, the bytes written by parquet-java's encoder without a length
 * prefix (as dictionary indices and v2 levels are stored).
 *
 * <p>parquet-java: {@code RunLengthBitPackingHybridDecoder.readInt()} per value over the page's
 * {@code ByteBufferInputStream}, which is what its readers run when reading pages: {@code
 * DictionaryValuesReader} reads every dictionary index through it, v2 levels are read through it
 * directly, and v1 levels through {@code RunLengthBitPackingHybridValuesReader}, a thin wrapper
 * over the same decoder. Ours: {@code RleBitPackedHybridDecoder.readInts} into an {@code int[]};
 * theirs stores each value into an {@code int[]} too.
 */
@State(Scope.Thread)
public class RleDecodeBench {
  @Param({"1", "3", "8", "17", "32"})
  public int bitWidth;

  private byte[] page;
  private int[] dst;
  private RleBitPackedHybridDecoder decoder;

  @Setup
  public void setup() throws IOException {
    int[] values = BenchData.runsAndNoise(bitWidth, 42 + bitWidth);
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    for (int v : values) {
      encoder.writeInt(v);
    }
    page = BenchData.bytes(encoder.toBytes());
    dst = new int[N];
    decoder = new RleBitPackedHybridDecoder(bitWidth, false);
    check(values);
  }

  /** Both sides decode the values that were encoded. */
  private void check(int[] values) throws IOException {
    try {
      decoder.init(page, 0, page.length, N);
      decoder.readInts(dst, 0, N);
    } catch (CorruptDataException e) {
      throw new IOException(e);
    }
    BenchData.check(java.util.Arrays.equals(dst, values), "RleDecode ours");
    RunLengthBitPackingHybridDecoder reader =
        new RunLengthBitPackingHybridDecoder(bitWidth, BenchData.stream(page));
    for (int i = 0; i < N; i++) {
      BenchData.check(reader.readInt() == values[i], "RleDecode parquet-java");
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws CorruptDataException {
    decoder.init(page, 0, page.length, N);
    decoder.readInts(dst, 0, N);
    bh.consume(dst);
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    RunLengthBitPackingHybridDecoder reader =
        new RunLengthBitPackingHybridDecoder(bitWidth, BenchData.stream(page));
    int[] out = dst;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readInt();
    }
    bh.consume(out);
  }
}
