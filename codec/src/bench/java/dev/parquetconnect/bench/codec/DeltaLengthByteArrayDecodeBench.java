package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DeltaLengthByteArrayDecoder;
import java.io.IOException;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesReader;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * DELTA_LENGTH_BYTE_ARRAY decode of 64K strings of 4..60 bytes (the page written by parquet-java).
 * Ours: {@code DeltaLengthByteArrayDecoder.readBinaries} in batches of 4,096 values into one reused
 * {@code BinaryBatch} (copying the bytes); parquet-java: {@code DeltaLengthByteArrayValuesReader
 * .readBytes()} per value (a {@code Binary} over a slice of the page) into a {@code Binary[]}.
 */
@State(Scope.Thread)
public class DeltaLengthByteArrayDecodeBench {
  private byte[] page;
  private final Binary[] binaries = new Binary[N];
  private final BinaryBatch batch = new BinaryBatch(BenchData.BINARY_BATCH, 1 << 20);
  private final DeltaLengthByteArrayDecoder decoder = new DeltaLengthByteArrayDecoder();

  @Setup
  public void setup() throws IOException {
    DeltaLengthByteArrayValuesWriter writer =
        new DeltaLengthByteArrayValuesWriter(BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    byte[][] values = BenchData.randomStrings(13);
    for (Binary v : BenchData.binaries(values)) {
      writer.writeBytes(v);
    }
    page = BenchData.bytes(writer.getBytes());
    try {
      decoder.init(page, 0, page.length, N);
      batch.clear();
      decoder.readBinaries(batch, N);
    } catch (ParquetException e) {
      throw new IOException(e);
    }
    BenchData.check(BenchData.sameBinaries(batch, values, 0), "DeltaLengthByteArrayDecode ours");
    DeltaLengthByteArrayValuesReader reader = new DeltaLengthByteArrayValuesReader();
    reader.initFromPage(N, BenchData.stream(page));
    for (int i = 0; i < N; i++) {
      binaries[i] = reader.readBytes();
    }
    BenchData.check(
        java.util.Arrays.deepEquals(BenchData.bytesOf(binaries), values),
        "DeltaLengthByteArrayDecode parquet-java");
  }

  @Benchmark
  public void ours(Blackhole bh) throws ParquetException {
    decoder.init(page, 0, page.length, N);
    for (int done = 0; done < N; done += BenchData.BINARY_BATCH) {
      batch.clear();
      decoder.readBinaries(batch, BenchData.BINARY_BATCH);
      bh.consume(batch);
    }
  }

  @Benchmark
  public void parquetJava(Blackhole bh) throws IOException {
    DeltaLengthByteArrayValuesReader reader = new DeltaLengthByteArrayValuesReader();
    reader.initFromPage(N, BenchData.stream(page));
    Binary[] out = binaries;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readBytes();
    }
    bh.consume(out);
  }
}
