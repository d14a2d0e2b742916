package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Iceberg asks of a FileIO, checked on {@link StoreFileIO} over one store: a file appears
 * whole when its stream closes and reads back equal (sequentially, after seeks, by range and tail);
 * create refuses an existing file and createOrOverwrite replaces it; missing files are Iceberg's
 * {@link NotFoundException}; listing and deleting by prefix; deletes are idempotent.
 */
final class FileIOContract {
  private static final Logger LOG = LoggerFactory.getLogger(FileIOContract.class);

  private FileIOContract() {}

  /** Runs the contract under {@code base} (a location with no files yet, without trailing /). */
  static void check(StoreFileIO io, String base) throws IOException {
    long seed = new Random().nextLong();
    LOG.info("FileIO contract under {}, seed {}", base, seed);
    Random random = new Random(seed);
    byte[] data = new byte[150_000 + random.nextInt(50_000)];
    random.nextBytes(data);
    String location = base + "/metadata/snap-1.avro";

    try (PositionOutputStream out = io.newOutputFile(location).create()) {
      out.write(data, 0, 1000);
      assertFalse(io.newInputFile(location).exists(), "invisible until the stream is closed");
      out.write(data, 1000, data.length - 1000);
      assertEquals(data.length, out.getPos());
    }
    InputFile in = io.newInputFile(location);
    assertTrue(in.exists());
    assertEquals(data.length, in.getLength());
    assertArrayEquals(data, readAll(in), "seed " + seed);
    try (SeekableInputStream stream = in.newStream()) {
      for (int i = 0; i < 12; i++) {
        int pos = random.nextInt(data.length);
        stream.seek(pos);
        assertEquals(pos, stream.getPos());
        assertEquals(data[pos] & 0xff, stream.read(), "byte at " + pos + ", seed " + seed);
        int len = Math.min(random.nextInt(70_000), data.length - pos);
        byte[] range = new byte[len];
        ((RangeReadable) stream).readFully(pos, range, 0, len);
        assertArrayEquals(slice(data, pos, len), range, "range at " + pos + ", seed " + seed);
      }
      byte[] tail = new byte[8];
      assertEquals(8, ((RangeReadable) stream).readTail(tail, 0, 8));
      assertArrayEquals(slice(data, data.length - 8, 8), tail);
      stream.seek(data.length);
      assertEquals(-1, stream.read(), "end of file");
    }

    assertThrows(AlreadyExistsException.class, () -> io.newOutputFile(location).create());
    try (PositionOutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(data, 0, 10);
    }
    assertArrayEquals(slice(data, 0, 10), readAll(io.newInputFile(location)), "overwritten");

    String missing = base + "/metadata/missing.avro";
    assertFalse(io.newInputFile(missing).exists());
    assertThrows(NotFoundException.class, () -> io.newInputFile(missing).newStream());
    assertThrows(NotFoundException.class, () -> io.newInputFile(missing).getLength());

    try (PositionOutputStream out = io.newOutputFile(base + "/data/a=1/f.parquet").create()) {
      out.write(data, 0, 5);
    }
    List<String> listed = new ArrayList<>();
    for (FileInfo f : ((SupportsPrefixOperations) io).listPrefix(base + "/")) {
      listed.add(f.location() + ":" + f.size());
      assertTrue(f.createdAtMillis() > 0, f.location());
    }
    assertEquals(
        List.of(base + "/data/a=1/f.parquet:5", base + "/metadata/snap-1.avro:10"), listed);

    io.deleteFile(location);
    io.deleteFile(location);
    assertFalse(io.newInputFile(location).exists(), "deleted");
    io.deletePrefix(base + "/data");
    assertFalse(io.listPrefix(base).iterator().hasNext(), "everything deleted");
  }

  private static byte[] readAll(InputFile in) throws IOException {
    try (SeekableInputStream stream = in.newStream()) {
      return stream.readAllBytes();
    }
  }

  private static byte[] slice(byte[] data, int from, int len) {
    byte[] out = new byte[len];
    System.arraycopy(data, from, out, 0, len);
    return out;
  }
}
