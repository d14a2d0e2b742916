package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StoreKeysTest {
  @Test
  void validKeysPass() {
    for (String k :
        new String[] {
          "a",
          "a/b/c.parquet",
          "topic=x/part=0/00001-00200.parquet",
          "\u00e9/\ud834\udd1e",
          "a..b",
          "...",
          ".hidden",
          "x y+z%20"
        }) {
      assertEquals(k, StoreKeys.checkKey(k));
    }
    assertEquals("", StoreKeys.checkPrefix(""));
  }

  @Test
  void c0ControlsAndDeleteAreRefusedC1ControlsAreNot() {
    for (String bad : List.of("a\u0000", "a\u001fb", "\u007f", "a/\tb")) {
      assertThrows(IllegalArgumentException.class, () -> StoreKeys.checkKey(bad), bad);
    }
    for (String good : List.of("\u0080", "a/\u0085b", "k=\u009f")) {
      assertEquals(good, StoreKeys.checkKey(good));
    }
  }

  @Test
  void messagesEscapeControlCharacters() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StoreKeys.checkKey("a\nb\u0000"));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().contains("\\u000a"), e.getMessage());
  }

  @Test
  void utf8OrderMatchesTheBytes() {
    Random rnd = new Random(1);
    int[] pool = {
      'a', 'B', '/', '-', 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffee, 0x1d11e, 0x10ffff
    };
    for (int i = 0; i < 20_000; i++) {
      String a = random(rnd, pool);
      String b = random(rnd, pool);
      int expected =
          Integer.signum(
              Arrays.compareUnsigned(
                  a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
      assertEquals(expected, Integer.signum(StoreKeys.compareUtf8(a, b)), a + " vs " + b);
    }
  }

  private static String random(Random rnd, int[] pool) {
    StringBuilder sb = new StringBuilder();
    int n = rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(pool[rnd.nextInt(pool.length)]);
    }
    return sb.toString();
  }

  @Test
  void temporaryNamesAreRecognisableAndBounded() {
    String t = StoreKeys.temporaryName("f.parquet");
    assertTrue(StoreKeys.isTemporaryName(t));
    assertTrue(t.endsWith("-f.parquet"));
    String longName = "n".repeat(250);
    String t2 = StoreKeys.temporaryName(longName);
    assertTrue(t2.getBytes(StandardCharsets.UTF_8).length <= StoreKeys.MAX_SEGMENT_BYTES);
    assertTrue(StoreKeys.isTemporaryName(t2));
  }

  @Test
  void settingsNeverShowValues() {
    StoreSettings s =
        new StoreSettings(
            Map.of("aws.secret.access.key", Secret.of("hunter2"), "s3.region", "eu-west-1"));
    assertFalse(s.toString().contains("hunter2"));
    assertFalse(s.toString().contains("eu-west-1"));
    assertEquals("hunter2", s.secret("aws.secret.access.key").value());
    assertEquals("[hidden]", s.secret("aws.secret.access.key").toString());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new StoreSettings(Map.of("s3.part.size", "lots")).longValue("s3.part.size", 1));
    assertTrue(e.getMessage().contains("s3.part.size"));
  }
}
