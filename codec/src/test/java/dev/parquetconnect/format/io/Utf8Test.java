package dev.parquetconnect.format.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Encoding at an offset into a shared array, as the page buffer does, against getBytes. */
class Utf8Test {
  @Test
  void encodesLikeStringGetBytesAtAnyOffset() {
    Random random = new Random(8);
    char[] alphabet = {
      'a', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff', '\ud800', '\udbff', '\udc00',
      '\udfff', '\u00e9'
    };
    byte[] shared = new byte[4096];
    for (int round = 0; round < 5_000; round++) {
      char[] chars = new char[random.nextInt(60)];
      for (int i = 0; i < chars.length; i++) {
        // A third of the strings ASCII with at most one other char, at any position: the
        // encoder switches from its ASCII loop to the general one there.
        chars[i] =
            round % 3 == 0
                ? (char) random.nextInt(0x80)
                : random.nextBoolean()
                    ? alphabet[random.nextInt(alphabet.length)]
                    : (char) random.nextInt(0x10000);
      }
      if (round % 3 == 0 && chars.length > 0 && random.nextBoolean()) {
        chars[random.nextInt(chars.length)] = alphabet[random.nextInt(alphabet.length)];
      }
      String s = new String(chars);
      int off = random.nextInt(100);
      Arrays.fill(shared, (byte) 0x5A);
      int n = Utf8.encode(s, shared, off);
      byte[] expected = s.getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(expected, Arrays.copyOfRange(shared, off, off + n), s);
      assertEquals((byte) 0x5A, shared[off + n], "nothing written past the value");
      assertEquals((byte) 0x5A, off == 0 ? (byte) 0x5A : shared[off - 1], "nor before it");
    }
  }
}
