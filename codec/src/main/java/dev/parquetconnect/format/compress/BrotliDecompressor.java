package dev.parquetconnect.format.compress;

import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * BROTLI: one Brotli stream, through brotli4j's streaming native decoder. Output is pulled in
 * pieces no larger than the stream's window (at most 16 MiB) and copied into {@code dst}, so a
 * stream that expands beyond the announced size (Brotli reaches ratios above 500,000:1) is stopped
 * as soon as it passes it, never buffered whole. A Brotli decoder cannot be reset, so each page
 * gets a fresh native decoder, freed before {@link #decompress} returns. Bytes after the end of the
 * stream are corrupt, as in brotli's own Java wrapper.
 */
final class BrotliDecompressor implements Decompressor {
  /** Input handed to the native decoder per push; bounds its input buffer for large pages. */
  private static final int MAX_CHUNK = 256 << 10;

  /** Steps in a row that move neither input nor output before the stream counts as stuck. */
  private static final int MAX_IDLE_STEPS = 64;

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.BROTLI;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len == 0 && uncompressedSize == 0) {
      return;
    }
    DecoderJNI.Wrapper decoder;
    try {
      decoder = new DecoderJNI.Wrapper(Math.max(1, Math.min(len, MAX_CHUNK)));
    } catch (IOException | RuntimeException e) {
      throw new CorruptDataException("BROTLI: cannot create a native decoder: " + e, e);
    }
    try {
      int produced = decode(decoder, src, off, len, dst, dstOff, uncompressedSize);
      if (produced != uncompressedSize) {
        throw SizeLimits.shorter(codec(), produced, uncompressedSize);
      }
    } catch (RuntimeException e) { // IllegalStateException from the wrapper's state checks
      throw new CorruptDataException("BROTLI: cannot decompress " + len + " bytes: " + e, e);
    } finally {
      decoder.destroy();
    }
  }

  /** Runs the decoder to the end of the stream and returns the bytes it produced. */
  private int decode(
      DecoderJNI.Wrapper decoder,
      byte[] src,
      int off,
      int len,
      byte[] dst,
      int dstOff,
      int expected)
      throws CorruptDataException {
    ByteBuffer input = decoder.getInputBuffer();
    int pushed = 0;
    int produced = 0;
    int idle = 0;
    // After a pull the wrapper reports NEEDS_MORE_INPUT whenever the pushed input is used up,
    // even if the decoder could go on from what it holds; only a push settles that.
    boolean statusFromPull = false;
    while (true) {
      DecoderJNI.Status status = decoder.getStatus();
      if (status == DecoderJNI.Status.NEEDS_MORE_OUTPUT || decoder.hasOutput()) {
        ByteBuffer chunk = decoder.pull();
        int n = chunk.remaining();
        if (n > expected - produced) {
          throw SizeLimits.longer(codec(), expected);
        }
        chunk.get(dst, dstOff + produced, n);
        produced += n;
        idle = n > 0 ? 0 : idle + 1;
        statusFromPull = true;
      } else if (status == DecoderJNI.Status.DONE) {
        if (pushed != len) {
          throw new CorruptDataException(
              "BROTLI: "
                  + (len - pushed)
                  + " bytes after the end of the stream, which ends"
                  + " within the first "
                  + pushed
                  + " of "
                  + len
                  + " bytes");
        }
        return produced;
      } else if (status == DecoderJNI.Status.OK
          || (status == DecoderJNI.Status.NEEDS_MORE_INPUT && statusFromPull)) {
        decoder.push(0);
        statusFromPull = false;
        idle++;
      } else if (status == DecoderJNI.Status.NEEDS_MORE_INPUT) {
        if (pushed == len) {
          throw new CorruptDataException(
              "BROTLI: the stream is truncated: it needs more than the " + len + " bytes given");
        }
        int n = Math.min(input.capacity(), len - pushed);
        input.clear();
        input.put(src, off + pushed, n);
        decoder.push(n);
        pushed += n;
        statusFromPull = false;
        idle = 0;
      } else {
        throw new CorruptDataException(
            "BROTLI: malformed stream, or bytes after its end (the decoder failed within the"
                + " first "
                + pushed
                + " of "
                + len
                + " bytes)");
      }
      if (idle > MAX_IDLE_STEPS) {
        throw new CorruptDataException("BROTLI: the decoder makes no progress");
      }
    }
  }
}
