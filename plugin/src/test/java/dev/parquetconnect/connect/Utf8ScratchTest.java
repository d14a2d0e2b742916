package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8ScratchTest {
  @Test
  void encodesLikeStringGetBytes() {
    Utf8Scratch scratch = new Utf8Scratch();
    Random random = new Random(7);
    char[] alphabet = {
      'a', 'Z', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff', '\ud800', '\udbff',
      '\udc00', '\udfff', '\u00e9', '\u4e16'
    };
    for (int round = 0; round < 20_000; round++) {
      char[] chars = new char[random.nextInt(round < 100 ? 3 : 400)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] =
            random.nextBoolean()
                ? alphabet[random.nextInt(alphabet.length)]
                : (char) random.nextInt(0x10000);
      }
      String s = new String(chars);
      int n = scratch.encode(s);
      assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(scratch.buffer(), n), s);
    }
  }
}
