package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Truncated bounds stay bounds, stay valid text, and are left whole when they cannot be cut. */
class BoundTruncationTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void shortValuesAreKeptAsTheyAre() {
    byte[] v = utf8("abc");
    assertSame(v, BoundTruncation.truncateMin(v, 3, true));
    assertSame(v, BoundTruncation.truncateMax(v, 3, false));
  }

  @Test
  void minIsAPrefixAndMaxAnIncrementedPrefix() {
    byte[] v = utf8("abcdef");
    assertArrayEquals(utf8("abc"), BoundTruncation.truncateMin(v, 3, false));
    assertArrayEquals(utf8("abd"), BoundTruncation.truncateMax(v, 3, false));
  }

  @Test
  void maxCarriesPastFullBytesAndStaysWholeWhenItCannot() {
    byte[] carry = {1, 2, (byte) 0xFF, (byte) 0xFF, 9};
    assertArrayEquals(new byte[] {1, 3}, BoundTruncation.truncateMax(carry, 4, false));
    byte[] full = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0};
    assertSame(full, BoundTruncation.truncateMax(full, 3, false));
  }

  @Test
  void textIsCutAtCodePointsAndIncrementedAsCharacters() {
    byte[] v = utf8("aé€😀z"); // 1 + 2 + 3 + 4 + 1 bytes
    assertArrayEquals(utf8("aé"), BoundTruncation.truncateMin(v, 4, true));
    assertArrayEquals(utf8("aê"), BoundTruncation.truncateMax(v, 4, true));
    assertArrayEquals(utf8("aé€"), BoundTruncation.truncateMin(v, 9, true));
    assertArrayEquals(utf8("aé₭"), BoundTruncation.truncateMax(v, 9, true));
    // U+D7FF increments past the surrogates to U+E000.
    assertArrayEquals(utf8("\ue000"), BoundTruncation.truncateMax(utf8("\ud7ffx"), 3, true));
    // U+10FFFF cannot grow: the code point before it is incremented instead.
    byte[] top = utf8("b" + new String(Character.toChars(0x10FFFF)) + "c");
    assertArrayEquals(utf8("c"), BoundTruncation.truncateMax(top, 5, true));
  }

  @Test
  void invalidTextIsTreatedAsBytes() {
    byte[] v = {'a', (byte) 0xC3, 'b', 'c'}; // a lead byte without its continuation
    assertFalse(BoundTruncation.isValidUtf8(v));
    assertArrayEquals(new byte[] {'a', (byte) 0xC3}, BoundTruncation.truncateMin(v, 2, true));
    assertArrayEquals(new byte[] {'a', (byte) 0xC4}, BoundTruncation.truncateMax(v, 2, true));
  }

  @Test
  void validityCheckRejectsOverlongsAndSurrogates() {
    assertTrue(BoundTruncation.isValidUtf8(utf8("plain ascii, é, 😀")));
    assertFalse(BoundTruncation.isValidUtf8(new byte[] {(byte) 0xC0, (byte) 0x80}));
    assertFalse(BoundTruncation.isValidUtf8(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}));
    assertFalse(BoundTruncation.isValidUtf8(new byte[] {(byte) 0xE2, (byte) 0x82}));
  }

  @Test
  void randomValuesStayBoundedAndValid() {
    Random random = new Random(5);
    for (int i = 0; i < 20_000; i++) {
      boolean text = random.nextBoolean();
      byte[] value = text ? utf8(randomText(random)) : randomBytes(random);
      int limit = 1 + random.nextInt(12);
      byte[] min = BoundTruncation.truncateMin(value, limit, text);
      byte[] max = BoundTruncation.truncateMax(value, limit, text);
      assertTrue(Arrays.compareUnsigned(min, value) <= 0, "min above its value");
      assertTrue(Arrays.compareUnsigned(max, value) >= 0, "max below its value");
      assertTrue(min.length <= Math.max(limit, 0) || min == value);
      if (text) {
        assertTrue(BoundTruncation.isValidUtf8(min) && BoundTruncation.isValidUtf8(max));
      }
      if (max != value) {
        // Anything that starts like the value is still below the bound.
        byte[] extended = Arrays.copyOf(value, value.length + 3);
        Arrays.fill(extended, value.length, extended.length, (byte) 0xFF);
        assertTrue(Arrays.compareUnsigned(max, extended) > 0);
        assertTrue(max.length <= limit + 3, "bound grew: " + max.length);
      }
    }
  }

  private static String randomText(Random random) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(20);
    int[] pool = {'a', 'z', 0x7F, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xFFFF, 0x1F600, 0x10FFFF};
    for (int i = 0; i < n; i++) {
      s.appendCodePoint(pool[random.nextInt(pool.length)]);
    }
    return s.toString();
  }

  private static byte[] randomBytes(Random random) {
    byte[] b = new byte[random.nextInt(20)];
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextInt(3) == 0 ? (byte) 0xFF : (byte) random.nextInt(256);
    }
    return b;
  }
}
