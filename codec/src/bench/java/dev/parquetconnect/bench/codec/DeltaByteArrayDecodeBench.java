package dev.parquetconnect.bench.codec;

import static dev.parquetconnect.bench.codec.BenchData.N;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DeltaByteArrayDecoder;
import java.io.IOException;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayReader;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.io.api.Binary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * DELTA_BYTE_ARRAY decode of 64K sorted URLs (long shared prefixes; the page written by
 * parquet-java). Ours: {@code DeltaByteArrayDecoder.readBinaries} in batches of 4,096 values into
 * one reused {@code BinaryBatch}; parquet-java: {@code DeltaByteArrayReader.readBytes()} per value
 * into a {@code Binary[]}.
 */
@State(Scope.Thread)
public class DeltaByteArrayDecodeBench {
  private byte[] page;
  private final Binary[] binaries = new Binary[N];
  private final BinaryBatch batch = new BinaryBatch(BenchData.BINARY_BATCH, 1 << 20);
  private final DeltaByteArrayDecoder decoder = DeltaByteArrayDecoder.forByteArray();

  @Setup
  public void setup() throws IOException {
    DeltaByteArrayWriter writer =
        new DeltaByteArrayWriter(BenchData.SLAB, BenchData.PAGE, BenchData.HEAP);
    byte[][] values = BenchData.sortedUrls(17);
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
    BenchData.check(BenchData.sameBinaries(batch, values, 0), "DeltaByteArrayDecode ours");
    DeltaByteArrayReader reader = new DeltaByteArrayReader();
    reader.initFromPage(N, BenchData.stream(page));
    for (int i = 0; i < N; i++) {
      binaries[i] = reader.readBytes();
    }
    BenchData.check(
        java.util.Arrays.deepEquals(BenchData.bytesOf(binaries), values),
        "DeltaByteArrayDecode parquet-java");
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
    DeltaByteArrayReader reader = new DeltaByteArrayReader();
    reader.initFromPage(N, BenchData.stream(page));
    Binary[] out = binaries;
    for (int i = 0; i < N; i++) {
      out[i] = reader.readBytes();
    }
    bh.consume(out);
  }
}
