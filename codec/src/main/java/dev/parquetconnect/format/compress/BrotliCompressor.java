package dev.parquetconnect.format.compress;

import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * BROTLI: one Brotli stream per page, through brotli4j's streaming native encoder so the output
 * goes straight into the page buffer. A Brotli encoder cannot be reset once finished, so each page
 * gets a fresh native encoder, freed before {@link #compress} returns.
 */
final class BrotliCompressor implements Compressor {
  /** The sliding window, log2: brotli's default (4 MiB), which every decoder accepts. */
  private static final int WINDOW_BITS = 22;

  /** Input handed to the native encoder per push; bounds its input buffer for large pages. */
  private static final int MAX_CHUNK = 1 << 20;

  private final int quality;

  BrotliCompressor(int quality) {
    if (quality < 0 || quality > 11) {
      throw new IllegalArgumentException("BROTLI level " + quality + " outside 0..11");
    }
    this.quality = quality;
  }

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.BROTLI;
  }

  /** Brotli's BrotliEncoderMaxCompressedSize: 4 bytes per 16 KiB block plus 6. */
  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    return len == 0 ? 2 : (long) len + 4L * (len >> 14) + 6;
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    EncoderJNI.Wrapper encoder;
    try {
      encoder =
          new EncoderJNI.Wrapper(
              Math.max(1, Math.min(len, MAX_CHUNK)), quality, WINDOW_BITS, Encoder.Mode.GENERIC);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a native Brotli encoder", e);
    }
    try {
      ByteBuffer input = encoder.getInputBuffer();
      for (int done = 0; done < len; ) {
        int n = Math.min(input.capacity(), len - done);
        input.clear();
        input.put(src, off + done, n);
        encoder.push(EncoderJNI.Operation.PROCESS, n);
        drain(encoder, out, EncoderJNI.Operation.PROCESS);
        done += n;
      }
      encoder.push(EncoderJNI.Operation.FINISH, 0);
      drain(encoder, out, EncoderJNI.Operation.FINISH);
      if (!encoder.isFinished()) {
        throw new IllegalStateException("Brotli encoder did not finish the stream");
      }
    } finally {
      encoder.destroy();
    }
  }

  /** Moves the encoder's output to {@code out} until it has consumed all pushed input. */
  private static void drain(
      EncoderJNI.Wrapper encoder, GrowableBuffer out, EncoderJNI.Operation op) {
    while (true) {
      if (!encoder.isSuccess()) {
        throw new IllegalStateException("Brotli encoder failed");
      }
      if (encoder.hasMoreOutput()) {
        ByteBuffer chunk = encoder.pull();
        int n = chunk.remaining();
        out.ensureCapacity(n);
        chunk.get(out.array(), out.size(), n);
        out.advance(n);
      } else if (encoder.hasRemainingInput()) {
        encoder.push(op, 0);
      } else if (op == EncoderJNI.Operation.FINISH && !encoder.isFinished()) {
        encoder.push(op, 0);
      } else {
        return;
      }
    }
  }
}
