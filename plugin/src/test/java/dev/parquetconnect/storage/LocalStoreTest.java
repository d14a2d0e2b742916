package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStoreTest extends StoreContract {
  @TempDir Path base;

  /**
   * An open file keeps no array written through it: a sink holds a thousand open, and the JDK's
   * channel stream kept the last column chunk of each, which the memory budget does not count.
   */
  @Test
  void theChannelStreamKeepsNoArrayWrittenThroughIt() throws IOException {
    Path file = base.resolve("chunk.bin");
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      LocalStore.ChannelStream stream = new LocalStore.ChannelStream(channel);
      byte[] chunk = new byte[1 << 16];
      chunk[1] = 7;
      stream.write(chunk, 1, chunk.length - 1);
      WeakReference<byte[]> written = new WeakReference<>(chunk);
      chunk = null;
      for (int i = 0; i < 10 && written.get() != null; i++) {
        System.gc();
      }
      assertNull(written.get(), "the stream still holds the array written through it");
      stream.write(3);
      assertEquals(1 << 16, channel.size());
    }
    byte[] content = Files.readAllBytes(file);
    assertEquals(7, content[0]);
    assertEquals(3, content[content.length - 1]);
  }

  private Path root;

  @Override
  protected Store openStore(String rootName) throws IOException {
    root = base.resolve("stores").resolve(rootName);
    return Stores.open(root.toUri().toString(), Map.of());
  }

  @Override
  protected long maxHeapPerOutput() {
    return 64 * 1024;
  }

  @Override
  protected void assertOutsideUntouched() throws IOException {
    try (Stream<Path> s = Files.list(root.getParent())) {
      assertEquals(List.of(root), s.toList(), "something appeared beside the root");
    }
    try (Stream<Path> s = Files.list(base)) {
      assertEquals(List.of(base.resolve("stores")), s.toList());
    }
  }

  @Test
  void symbolicLinksOutOfTheRootAreNotFollowed() throws IOException {
    Path outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "no");
    Files.createSymbolicLink(root.resolve("link"), outside);
    assertThrows(IllegalArgumentException.class, () -> store.open("link/secret"));
    assertThrows(IllegalArgumentException.class, () -> store.create("link/new"));
    assertTrue(store.list("", true).isEmpty(), "a listing followed the link");
    assertEquals(1, Files.list(outside).count());
  }

  @Test
  void temporaryFilesSitBesideTheirTargetAndAreCleanedUp() throws IOException {
    StoreOutput out = store.create("a/b/c.parquet");
    out.write(new byte[10]);
    try (Stream<Path> s = Files.list(root.resolve("a/b"))) {
      List<Path> files = s.toList();
      assertEquals(1, files.size());
      String name = files.get(0).getFileName().toString();
      assertTrue(name.startsWith(StoreKeys.TEMP_PREFIX) && name.endsWith("-c.parquet"), name);
    }
    assertEquals(1, store.cleanupOrphans("a", Instant.MAX));
    assertThrows(IOException.class, out::commit);
  }

  @Test
  void urlsWithoutAnAbsolutePathOrWithCredentialsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Stores.open("file://host/x", Map.of()));
    assertThrows(IllegalArgumentException.class, () -> Stores.open("relative/x", Map.of()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Stores.open("s3://AKIDX:supersecret@bucket/p", Map.of()));
    assertTrue(!e.getMessage().contains("supersecret"), e.getMessage());
  }
}
