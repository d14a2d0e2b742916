package dev.parquetconnect.format.compress;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.github.luben.zstd.Zstd;
import dev.parquetconnect.format.meta.CompressionCodec;
import net.jpountz.lz4.LZ4Factory;
import org.xerial.snappy.Snappy;

/**
 * Whether each codec library loads on this platform, probed once and lazily: a holder class per
 * library, so asking about Snappy never loads Brotli's native code. A probe records why it failed,
 * so the error a user sees names the real cause (missing native library, unsupported CPU, missing
 * jar).
 */
final class NativeLibraries {
  private NativeLibraries() {}

  /** Why the library behind {@code codec} cannot be used here, or null when it can. */
  static Throwable unavailabilityCause(CompressionCodec codec) {
    return switch (codec) {
      case UNCOMPRESSED, GZIP -> null;
      case SNAPPY -> SnappyProbe.CAUSE;
      case ZSTD -> ZstdProbe.CAUSE;
      case LZ4, LZ4_RAW -> Lz4Probe.CAUSE;
      case BROTLI -> BrotliProbe.CAUSE;
      case LZO -> LzoProbe.CAUSE;
    };
  }

  private static final class SnappyProbe {
    static final Throwable CAUSE = probe(() -> Snappy.maxCompressedLength(1));
  }

  private static final class ZstdProbe {
    static final Throwable CAUSE = probe(() -> Zstd.compressBound(1));
  }

  /** lz4-java falls back to pure Java without its native library: only a missing jar fails. */
  private static final class Lz4Probe {
    static final Throwable CAUSE = probe(LZ4Factory::fastestInstance);
  }

  private static final class BrotliProbe {
    static final Throwable CAUSE = probe(Brotli4jLoader::ensureAvailability);
  }

  /** LZO's libraries are GPL-licensed and not bundled. */
  private static final class LzoProbe {
    static final Throwable CAUSE =
        new UnsupportedOperationException("no LZO library is bundled (they are GPL-licensed)");
  }

  private static Throwable probe(Runnable load) {
    try {
      load.run();
      return null;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) { // UnsatisfiedLinkError, NoClassDefFoundError, a failed initializer
      return t;
    }
  }
}
