package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.PlainDecoder;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import org.apache.parquet.column.values.plain.BinaryPlainValuesReader;
import org.apache.parquet.column.values.plain.PlainValuesReader.DoublePlainValuesReader;
import org.apache.parquet.column.values.plain.PlainValuesReader.LongPlainValuesReader;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * PLAIN decode of 64K values (random INT64 ids, DOUBLE measurements, BYTE_ARRAY strings of 4..60
 * bytes; the page written by parquet-java). Ours: {@code PlainDecoder.readLongs / readDoubles} into
 * an array, {@code readBinaries} in batches of 4,096 values into one reused {@code BinaryBatch}
 * (copying the bytes); parquet-java: {@code LongPlainValuesReader.readLong()}, {@code
 * DoublePlainValuesReader.readDouble()}, {@code BinaryPlainValuesReader.readBytes()} (a {@code
 * Binary} over a slice of the page) per value into an array.
 */
@State(Scope.Thread)
public class PlainDecodeBench {
  @Param({"INT64", "DOUBLE", "BYTE_ARRAY"})
  public String type;

  private byte[] page;
  private PlainDecoder decoder;
  private final long[] longs = new long[N];
  private final double[] doubles = new double[N];
  private final Binary[] binaries = new Binary[N];
  private final BinaryBatch batch = new BinaryBatch(BenchData.BINARY_BATCH, 1 << 20);

  @Setup
  public void setup() throws IOException, ParquetException {
    PlainValuesWriter writer =
        new PlainValuesWriter(BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    switch (type) {
      case "INT64" -> {
        for (long v : BenchData.randomLongs(19)) {
          writer.writeLong(v);
        }
      }
      case "DOUBLE" -> {
        for (double v : BenchData.measurements(19)) {
          writer.writeDouble(v);
        }
      }
      default -> {
        for (Binary v : BenchData.binaries(BenchData.randomStrings(19))) {
          writer.writeBytes(v);
        }
      }
    }
    page = BenchData.bytes(writer.getBytes());
    decoder = new PlainDecoder(PhysicalType.valueOf(type));
    check();
  }

  /** Both sides decode the values that were encoded. */
  private void check() throws IOException, ParquetException {
    decoder.init(page, 0, page.length, N);
    switch (type) {
      case "INT64" -> {
        long[] values = BenchData.randomLongs(19);
        decoder.readLongs(longs, 0, N);
        BenchData.check(java.util.Arrays.equals(longs, values), "PlainDecode ours");
        LongPlainValuesReader reader = new LongPlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        for (int i = 0; i < N; i++) {
          BenchData.check(reader.readLong() == values[i], "PlainDecode parquet-java");
        }
      }
      case "DOUBLE" -> {
        double[] values = BenchData.measurements(19);
        decoder.readDoubles(doubles, 0, N);
        BenchData.check(java.util.Arrays.equals(doubles, values), "PlainDecode ours");
        DoublePlainValuesReader reader = new DoublePlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        for (int i = 0; i < N; i++) {
          BenchData.check(reader.readDouble() == values[i], "PlainDecode parquet-java");
        }
      }
      default -> {
        byte[][] values = BenchData.randomStrings(19);
        batch.clear();
        decoder.readBinaries(batch, N);
        BenchData.check(BenchData.sameBinaries(batch, values, 0), "PlainDecode ours");
        BinaryPlainValuesReader reader = new BinaryPlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        for (int i = 0; i < N; i++) {
          binaries[i] = reader.readBytes();
        }
        BenchData.check(
            java.util.Arrays.deepEquals(BenchData.bytesOf(binaries), values),
            "PlainDecode parquet-java");
      }
    }
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    decoder.init(page, 0, page.length, N);
    switch (type) {
      case "INT64" -> {
        decoder.readLongs(longs, 0, N);
        bh.consume(longs);
      }
      case "DOUBLE" -> {
        decoder.readDoubles(doubles, 0, N);
        bh.consume(doubles);
      }
      default -> {
        for (int done = 0; done < N; done += BenchData.BINARY_BATCH) {
          batch.clear();
          decoder.readBinaries(batch, BenchData.BINARY_BATCH);
          bh.consume(batch);
        }
      }
    }
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    switch (type) {
      case "INT64" -> {
        LongPlainValuesReader reader = new LongPlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        long[] out = longs;
        for (int i = 0; i < N; i++) {
          out[i] = reader.readLong();
        }
        bh.consume(out);
      }
      case "DOUBLE" -> {
        DoublePlainValuesReader reader = new DoublePlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        double[] out = doubles;
        for (int i = 0; i < N; i++) {
          out[i] = reader.readDouble();
        }
        bh.consume(out);
      }
      default -> {
        BinaryPlainValuesReader reader = new BinaryPlainValuesReader();
        reader.initFromPage(N, BenchData.stream(page));
        Binary[] out = binaries;
        for (int i = 0; i < N; i++) {
          out[i] = reader.readBytes();
        }
        bh.consume(out);
      }
    }
  }
}
