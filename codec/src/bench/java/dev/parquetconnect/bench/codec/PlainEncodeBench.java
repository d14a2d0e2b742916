package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.PlainEncoder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * PLAIN encode of the same 64K values as {@link PlainDecodeBench} into one contiguous reused
 * buffer. Ours: {@code PlainEncoder.writeLongs / writeDoubles / writeBinaries} and {@code flushTo};
 * parquet-java: {@code PlainValuesWriter.writeLong / writeDouble / writeBytes} per value, {@code
 * getBytes().writeAllTo} and {@code reset()}.
 */
@State(Scope.Thread)
public class PlainEncodeBench {
  @Param({"INT64", "DOUBLE", "BYTE_ARRAY"})
  public String type;

  private long[] longs;
  private double[] doubles;
  private BinaryBatch ourStrings;
  private Binary[] theirStrings;
  private PlainEncoder encoder;
  private final GrowableBuffer out = new GrowableBuffer(BenchData.PAGE);
  private PlainValuesWriter writer;
  private final BenchData.Sink sink = new BenchData.Sink();

  @Setup
  public void setup() {
    switch (type) {
      case "INT64" -> longs = BenchData.randomLongs(19);
      case "DOUBLE" -> doubles = BenchData.measurements(19);
      default -> {
        byte[][] strings = BenchData.randomStrings(19);
        ourStrings = BenchData.batch(strings);
        theirStrings = BenchData.binaries(strings);
      }
    }
    encoder = new PlainEncoder(PhysicalType.valueOf(type));
    writer = new PlainValuesWriter(BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
  }

  @Benchmark
  public void ours(Blackhole bh) {
    if (longs != null) {
      encoder.writeLongs(longs, 0, N);
    } else if (doubles != null) {
      encoder.writeDoubles(doubles, 0, N);
    } else {
      encoder.writeBinaries(ourStrings, 0, N);
    }
    out.reset();
    encoder.flushTo(out);
    bh.consume(out.size());
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    if (longs != null) {
      for (int i = 0; i < N; i++) {
        writer.writeLong(longs[i]);
      }
    } else if (doubles != null) {
      for (int i = 0; i < N; i++) {
        writer.writeDouble(doubles[i]);
      }
    } else {
      for (int i = 0; i < N; i++) {
        writer.writeBytes(theirStrings[i]);
      }
    }
    sink.reset();
    writer.getBytes().writeAllTo(sink);
    writer.reset();
    bh.consume(sink.size());
  }
}
