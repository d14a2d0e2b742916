package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.encoding.DeltaBinaryPackedEncoder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * DELTA_BINARY_PACKED encode of 64K INT64 event timestamps (block 128, 4 miniblocks on both sides)
 * into one contiguous reused buffer. Ours: {@code DeltaBinaryPackedEncoder.writeLongs} and {@code
 * flushTo}; parquet-java: {@code DeltaBinaryPackingValuesWriterForLong.writeLong} per value, {@code
 * getBytes().writeAllTo} and {@code reset()}.
 */
@State(Scope.Thread)
public class DeltaBinaryPackedEncodeBench {
  private long[] values;
  private final DeltaBinaryPackedEncoder encoder = new DeltaBinaryPackedEncoder(PhysicalType.INT64);
  private final GrowableBuffer out = new GrowableBuffer(BenchData.PAGE);
  private DeltaBinaryPackingValuesWriterForLong writer;
  private final BenchData.Sink sink = new BenchData.Sink();

  @Setup
  public void setup() {
    values = BenchData.timestamps(3);
    writer =
        new DeltaBinaryPackingValuesWriterForLong(
            128, 4, BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
  }

  @Benchmark
  public void ours(Blackhole bh) {
    encoder.writeLongs(values, 0, N);
    out.reset();
    encoder.flushTo(out);
    bh.consume(out.size());
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    for (int i = 0; i < N; i++) {
      writer.writeLong(values[i]);
    }
    sink.reset();
    writer.getBytes().writeAllTo(sink);
    writer.reset();
    bh.consume(sink.size());
  }
}
