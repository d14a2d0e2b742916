package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guarantees every {@link Store} gives, run against each implementation on a real server: local
 * disk, HDFS on MiniDFSCluster, S3 on S3Proxy. Each test gets a fresh, empty root.
 */
abstract class StoreContract {
  private static final AtomicInteger ROOTS = new AtomicInteger();

  protected Store store;

  /** A store on a fresh, empty root named {@code rootName}. */
  protected abstract Store openStore(String rootName) throws Exception;

  /** The most heap one open output may hold. */
  protected abstract long maxHeapPerOutput();

  /** Bytes a writer must write before its orphan is visible to cleanupOrphans. */
  protected long orphanBytes() {
    return 1024;
  }

  @BeforeEach
  void openFreshStore() throws Exception {
    store = openStore("root" + ROOTS.incrementAndGet() + "-" + System.nanoTime());
  }

  @AfterEach
  void closeStore() throws Exception {
    if (store != null) {
      store.close();
    }
  }

  static byte[] bytes(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  protected void put(String key, byte[] data) throws IOException {
    try (StoreOutput out = store.create(key)) {
      out.write(data);
      out.commit();
    }
  }

  protected byte[] readAll(String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      byte[] b = new byte[Math.toIntExact(in.length())];
      in.readFully(0, b, 0, b.length);
      return b;
    }
  }

  @Test
  void createThenCommitMakesTheFileVisibleWhole() throws IOException {
    byte[] data = bytes(1, 300_000);
    StoreOutput out = store.create("topics/t/part=0/f1.parquet");
    out.write(data, 0, 1000);
    out.write(data, 1000, data.length - 1000);
    assertEquals(data.length, out.bytesWritten());
    assertFalse(store.exists("topics/t/part=0/f1.parquet"), "visible before commit");
    assertTrue(store.list("", true).isEmpty(), "listed before commit: " + store.list("", true));
    assertThrows(NoSuchFileException.class, () -> store.open("topics/t/part=0/f1.parquet"));
    out.commit();
    assertTrue(out.committed());
    assertTrue(store.exists("topics/t/part=0/f1.parquet"));
    assertArrayEquals(data, readAll("topics/t/part=0/f1.parquet"));
    StoreFile st = store.stat("topics/t/part=0/f1.parquet");
    assertEquals(data.length, st.size());
    assertFalse(st.directory());
    assertTrue(st.modified().isAfter(Instant.now().minusSeconds(600)));
    List<StoreFile> all = store.list("", true);
    assertEquals(List.of("topics/t/part=0/f1.parquet"), keys(all));
    assertEquals(data.length, all.get(0).size());
    assertThrows(IOException.class, () -> out.write(1), "write after commit");
    assertThrows(IOException.class, out::commit, "second commit");
    out.close(); // a no-op after commit
    assertTrue(store.exists("topics/t/part=0/f1.parquet"));
  }

  @Test
  void emptyFileCommits() throws IOException {
    put("empty", new byte[0]);
    assertEquals(0, store.stat("empty").size());
    assertEquals(0, readAll("empty").length);
  }

  @Test
  void abortAndCloseWithoutCommitLeaveNothing() throws IOException {
    StoreOutput a = store.create("d/a");
    a.write(bytes(2, 10_000));
    a.abort();
    a.abort(); // idempotent
    assertThrows(IOException.class, () -> a.write(1));
    try (StoreOutput b = store.create("d/b")) {
      b.write(bytes(3, 10_000));
      // no commit: close aborts
    }
    assertFalse(store.exists("d/a"));
    assertFalse(store.exists("d/b"));
    assertTrue(store.list("", true).isEmpty());
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "nothing left to clean");
  }

  @Test
  void commitNeverReplacesAnExistingFile() throws IOException {
    byte[] first = bytes(4, 5000);
    put("x/f", first);
    StoreOutput second = store.create("x/f");
    second.write(bytes(5, 7000));
    assertThrows(FileAlreadyExistsException.class, second::commit);
    assertFalse(second.committed());
    assertArrayEquals(first, readAll("x/f"));
    assertEquals(List.of("x/f"), keys(store.list("", true)));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "the refused output left something");
  }

  @Test
  void ofTwoWritersOfOneKeyOnlyTheFirstCommitWins() throws IOException {
    StoreOutput a = store.create("k");
    StoreOutput b = store.create("k");
    a.write(bytes(6, 1000));
    b.write(bytes(7, 2000));
    b.commit();
    assertThrows(FileAlreadyExistsException.class, a::commit);
    assertArrayEquals(bytes(7, 2000), readAll("k"));
  }

  /** Bytes that make an S3 output start its multipart upload (and so its staging object). */
  private long multipartBytes() {
    return 2 * orphanBytes() + 4321;
  }

  @Test
  void aFileNamedAtCommitAppearsOnlyUnderTheNameGiven() throws IOException {
    for (long size : new long[] {1000, multipartBytes()}) {
      byte[] data = bytes(40 + size, (int) size);
      String dir = "named/" + size;
      StoreOutput out = store.createNamedAtCommit(dir + "/t+0+00000000000000000005.parquet");
      out.write(data, 0, 10);
      out.write(data, 10, data.length - 10);
      assertTrue(store.list(dir, true).isEmpty(), "listed before commit: " + store.list(dir, true));
      String finalKey = dir + "/t+0+00000000000000000005+00000000000000000099.parquet";
      out.commitAs(finalKey);
      assertTrue(out.committed());
      assertEquals(List.of(finalKey), keys(store.list(dir, true)), "size " + size);
      assertArrayEquals(data, readAll(finalKey));
      assertFalse(store.exists(dir + "/t+0+00000000000000000005.parquet"));
      assertThrows(IOException.class, () -> out.commitAs(finalKey + "2"), "second commit");
    }
    assertEquals(List.of("named"), keys(store.list("", false)), "nothing else at the root");
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "a temporary or staging object left");
  }

  @Test
  void aNameGivenAtCommitMustBeAValidKeyInTheSameDirectory() throws IOException {
    for (long size : new long[] {1000, multipartBytes()}) {
      StoreOutput out = store.createNamedAtCommit("d/" + size + "/open");
      byte[] data = bytes(41, (int) size);
      out.write(data);
      for (String bad :
          new String[] {
            "d/other/x",
            "x",
            "d/" + size + "/sub/x",
            "d/" + size + "/" + StoreKeys.TEMP_PREFIX + "x",
            "d/" + size + "/..",
            "../x"
          }) {
        assertThrows(IllegalArgumentException.class, () -> out.commitAs(bad), bad);
      }
      assertFalse(out.committed());
      out.commitAs("d/" + size + "/final");
      assertArrayEquals(data, readAll("d/" + size + "/final"));
    }
    assertEquals(
        List.of("d/1000/final", "d/" + multipartBytes() + "/final"), keys(store.list("d", true)));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }

  @Test
  void aNameGivenAtCommitNeverReplacesAnExistingFile() throws IOException {
    for (long size : new long[] {1000, multipartBytes()}) {
      byte[] first = bytes(42, 500);
      put("r/" + size + "/final", first);
      StoreOutput out = store.createNamedAtCommit("r/" + size + "/open");
      out.write(bytes(43, (int) size));
      assertThrows(FileAlreadyExistsException.class, () -> out.commitAs("r/" + size + "/final"));
      assertFalse(out.committed());
      assertArrayEquals(first, readAll("r/" + size + "/final"));
    }
    assertEquals(2, store.list("r", true).size());
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "the refused output left something");
  }

  @Test
  void cleanupFencesAWriterWhoseFileIsNamedAtCommit() throws IOException {
    StoreOutput crashed = store.createNamedAtCommit("p/0/open");
    crashed.write(bytes(44, (int) orphanBytes()));
    assertEquals(1, store.cleanupOrphans("p", Instant.MAX));
    assertThrows(
        IOException.class, () -> crashed.commitAs("p/0/final"), "a fenced writer committed");
    assertTrue(store.list("p", true).isEmpty());
  }

  @Test
  void listingIsSortedByUtf8BytesAndSeparatesDirectories() throws IOException {
    String[] keys = {
      "b",
      "a/x",
      "a/y/z",
      "a-b",
      "A",
      "\u00e9t\u00e9",
      "\uffee",
      "\ud834\udd1e",
      "a/\u00e9",
      "c d+e=f%g",
      "a/x2",
      "k=\u0080\u0085\u009f"
    };
    for (String k : keys) {
      put(k, k.getBytes(StandardCharsets.UTF_8));
    }
    List<String> expected = new ArrayList<>(List.of(keys));
    expected.sort(
        (p, q) ->
            compareBytes(p.getBytes(StandardCharsets.UTF_8), q.getBytes(StandardCharsets.UTF_8)));
    assertEquals(expected, keys(store.list("", true)));
    // non-recursive: files directly under the prefix and its subdirectories
    List<StoreFile> top = store.list("", false);
    List<String> topKeys = keys(top);
    List<String> expectedTop =
        new ArrayList<>(
            List.of(
                "b",
                "a",
                "a-b",
                "A",
                "\u00e9t\u00e9",
                "\uffee",
                "\ud834\udd1e",
                "c d+e=f%g",
                "k=\u0080\u0085\u009f"));
    expectedTop.sort(
        (p, q) ->
            compareBytes(p.getBytes(StandardCharsets.UTF_8), q.getBytes(StandardCharsets.UTF_8)));
    assertEquals(expectedTop, topKeys);
    assertTrue(top.get(topKeys.indexOf("a")).directory());
    assertFalse(top.get(topKeys.indexOf("a-b")).directory());
    assertEquals(List.of("a/x", "a/x2", "a/y", "a/\u00e9"), keys(store.list("a", false)));
    assertTrue(store.list("a", false).get(2).directory());
    assertEquals(List.of("a/y/z"), keys(store.list("a/y", true)));
    assertTrue(store.list("nothing/here", true).isEmpty());
    assertTrue(store.list("nothing", false).isEmpty());
    assertEquals(
        List.of("c d+e=f%g"),
        keys(
            store
                .list("", true)
                .subList(expected.indexOf("c d+e=f%g"), expected.indexOf("c d+e=f%g") + 1)));
    assertArrayEquals("c d+e=f%g".getBytes(StandardCharsets.UTF_8), readAll("c d+e=f%g"));
  }

  static int compareBytes(byte[] a, byte[] b) {
    return java.util.Arrays.compareUnsigned(a, b);
  }

  @Test
  void rangedReadsReturnExactlyTheRequestedBytes() throws IOException {
    byte[] data = bytes(8, 1_000_003);
    put("r", data);
    try (StoreInput in = store.open("r")) {
      assertEquals(data.length, in.length());
      assertNotNull(in.name());
      Random rnd = new Random(9);
      long requested = 0;
      for (int i = 0; i < 40; i++) {
        int len = rnd.nextInt(70_000);
        int pos = rnd.nextInt(data.length - len + 1);
        byte[] dst = new byte[len + 10];
        in.readFully(pos, dst, 5, len);
        assertArrayEquals(
            java.util.Arrays.copyOfRange(data, pos, pos + len),
            java.util.Arrays.copyOfRange(dst, 5, 5 + len));
        requested += len;
      }
      byte[] tail = new byte[3];
      in.readFully(data.length - 3, tail, 0, 3);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, data.length - 3, data.length), tail);
      requested += 3;
      assertEquals(requested, in.bytesRead());
      assertThrows(EOFException.class, () -> in.readFully(data.length - 2, new byte[3], 0, 3));
    }
  }

  @Test
  void moveRelocatesWithoutReplacing() throws IOException {
    put("in/a", bytes(10, 100));
    put("in/b", bytes(11, 200));
    put("done/b", bytes(12, 300));
    store.move("in/a", "done/sub/a");
    assertFalse(store.exists("in/a"));
    assertArrayEquals(bytes(10, 100), readAll("done/sub/a"));
    assertThrows(FileAlreadyExistsException.class, () -> store.move("in/b", "done/b"));
    assertArrayEquals(bytes(11, 200), readAll("in/b"));
    assertArrayEquals(bytes(12, 300), readAll("done/b"));
    assertThrows(NoSuchFileException.class, () -> store.move("in/missing", "done/c"));
  }

  @Test
  void deleteIsIdempotent() throws IOException {
    put("del/a", bytes(13, 10));
    store.delete("del/a");
    assertFalse(store.exists("del/a"));
    store.delete("del/a");
    store.delete("never/was");
    assertThrows(NoSuchFileException.class, () -> store.stat("del/a"));
  }

  /**
   * A clean-up by final name (the table maintenance's, of its compacted files) removes the orphans
   * of the files it names, and leaves another writer's in the same directory, one named at its
   * commit included (on S3 a staging upload, whose final name is not known).
   */
  @Test
  void cleanupByFinalNameSparesOtherWriters() throws IOException {
    StoreOutput compaction = store.create("t/p/compacted-1-a-00000.parquet");
    compaction.write(bytes(17, (int) multipartBytes()));
    StoreOutput sink = store.createNamedAtCommit("t/p/t+0+00000000000000000005.parquet");
    byte[] data = bytes(18, (int) multipartBytes());
    sink.write(data);
    StoreOutput plain = store.create("t/p/other");
    plain.write(bytes(19, (int) multipartBytes()));
    assertEquals(1, store.cleanupOrphans("t", Instant.MAX, name -> name.startsWith("compacted-")));
    assertThrows(IOException.class, compaction::commit, "a fenced compaction committed");
    String finalKey = "t/p/t+0+00000000000000000005+00000000000000000009.parquet";
    sink.commitAs(finalKey);
    plain.commit();
    assertArrayEquals(data, readAll(finalKey));
    assertEquals(List.of("t/p/other", finalKey), keys(store.list("t", true)));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }

  @Test
  void cleanupRemovesOrphansAndFencesTheirWriters() throws IOException {
    put("p/0/committed", bytes(14, 100));
    StoreOutput crashed = store.create("p/0/crashed");
    crashed.write(bytes(15, (int) orphanBytes()));
    StoreOutput other = store.create("q/other");
    other.write(bytes(16, (int) orphanBytes()));
    // the writer "crashed": nobody calls commit or abort; a new owner of p/ cleans up
    assertEquals(
        0,
        store.cleanupOrphans("p", Instant.now().minusSeconds(3600)),
        "olderThan must spare recent temporary files");
    assertEquals(1, store.cleanupOrphans("p", Instant.MAX));
    assertThrows(IOException.class, crashed::commit, "a fenced writer committed");
    assertFalse(store.exists("p/0/crashed"));
    assertEquals(List.of("p/0/committed"), keys(store.list("p", true)));
    // the writer outside the prefix is untouched
    other.commit();
    assertTrue(store.exists("q/other"));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }

  @Test
  void keysThatEscapeTheRootAreRefused() throws IOException {
    put("inside", bytes(17, 10));
    String[] bad = {
      "../x",
      "/abs",
      "a/../../b",
      "a/..",
      "..",
      ".",
      "a/./b",
      "a//b",
      "a/",
      "",
      "a\u0000b",
      "a\nb",
      "a\rb",
      "\u007f",
      "a\\b",
      "..\\x",
      "a/\u001f",
      StoreKeys.TEMP_PREFIX + "x",
      "a/" + StoreKeys.TEMP_PREFIX + "y",
      "x".repeat(256),
      ("y/").repeat(600) + "z",
      "a/\ud800"
    };
    for (String k : bad) {
      String label = StoreKeys.printable(k);
      assertThrows(IllegalArgumentException.class, () -> store.create(k), label);
      assertThrows(IllegalArgumentException.class, () -> store.open(k), label);
      assertThrows(IllegalArgumentException.class, () -> store.exists(k), label);
      assertThrows(IllegalArgumentException.class, () -> store.delete(k), label);
      assertThrows(IllegalArgumentException.class, () -> store.move("inside", k), label);
      assertThrows(IllegalArgumentException.class, () -> store.move(k, "elsewhere"), label);
      if (!k.isEmpty()) {
        assertThrows(IllegalArgumentException.class, () -> store.list(k, true), label);
        assertThrows(
            IllegalArgumentException.class, () -> store.cleanupOrphans(k, Instant.MAX), label);
      }
    }
    assertEquals(List.of("inside"), keys(store.list("", true)));
    assertOutsideUntouched();
  }

  /** Subclasses check that nothing appeared beside the root. */
  protected void assertOutsideUntouched() throws IOException {}

  @Test
  void largeStreamingWriteStaysWithinBoundedMemory() throws IOException {
    int total = 64 * 1024 * 1024;
    int chunk = 1024 * 1024;
    CRC32 written = new CRC32();
    Random rnd = new Random(18);
    byte[] buf = new byte[chunk];
    long maxHeap = 0;
    try (StoreOutput out = store.create("big/f")) {
      for (int done = 0; done < total; done += chunk) {
        rnd.nextBytes(buf);
        written.update(buf);
        out.write(buf);
        maxHeap = Math.max(maxHeap, out.heapBytes());
      }
      out.commit();
    }
    assertTrue(maxHeap <= maxHeapPerOutput(), "an output held " + maxHeap + " bytes");
    assertEquals(total, store.stat("big/f").size());
    CRC32 read = new CRC32();
    try (StoreInput in = store.open("big/f")) {
      byte[] r = new byte[4 * chunk];
      for (long pos = 0; pos < total; pos += r.length) {
        in.readFully(pos, r, 0, r.length);
        read.update(r);
      }
      assertEquals(total, in.bytesRead());
    }
    assertEquals(written.getValue(), read.getValue());
  }

  static List<String> keys(List<StoreFile> files) {
    List<String> k = new ArrayList<>();
    for (StoreFile f : files) {
      k.add(f.key());
    }
    return k;
  }
}
