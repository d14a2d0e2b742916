package dev.parquetconnect.engines;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.JniLoader;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.dataset.source.DatasetFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Arrow C++'s Parquet reader (through Arrow Java's dataset module and its bundled JNI library) as a
 * test oracle, in its own JVM (the tests' ArrowOracle starts it). One request per line on stdin:
 *
 * <pre>  OUT_FILE  PATH</pre>
 *
 * (tab-separated). The Parquet file PATH is opened as a file-system dataset of one file and scanned
 * with the dataset's default Parquet options (the schema Arrow C++ infers from the footer, every
 * column), as pyarrow.dataset or Acero would. The answer goes to OUT_FILE: the Arrow schema on the
 * first line, then one canonical line per row (the form the tests' EngineCanonical writes). Then
 * one line on stdout: {@code ok} or {@code error <message>} (the stack trace goes to stderr).
 */
public final class ArrowOracleMain {
  private static final long BATCH_ROWS = 4096;

  private ArrowOracleMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream answers = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    // Loads the native library now, so that a platform it cannot load on fails the start.
    JniLoader.get().ensureLoaded();
    try (BufferAllocator allocator = new RootAllocator()) {
      answers.println(
          "ready arrow-dataset "
              + FileSystemDatasetFactory.class.getPackage().getImplementationVersion());
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] parts = line.split("\t", -1);
        try {
          if (parts.length != 2) {
            throw new IllegalArgumentException(
                "expected 2 tab-separated fields, got " + parts.length);
          }
          answer(allocator, Path.of(parts[0]), Path.of(parts[1]));
          answers.println("ok");
        } catch (Throwable e) {
          StringWriter trace = new StringWriter();
          e.printStackTrace(new PrintWriter(trace));
          System.err.println("request failed: " + line + "\n" + trace);
          answers.println("error " + describe(e));
        }
      }
    }
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getClass().getName() + ": " + e.getMessage();
    if (message.length() > 600) {
      message = message.substring(0, 600) + "...";
    }
    if (root != e) {
      message = root.getClass().getName() + ": " + root.getMessage() + " (in " + message + ")";
    }
    return message.replace('\n', ' ').replace('\r', ' ');
  }

  private static void answer(BufferAllocator allocator, Path out, Path file) throws Exception {
    String uri = file.toAbsolutePath().toUri().toString();
    try (DatasetFactory factory =
            new FileSystemDatasetFactory(
                allocator, NativeMemoryPool.getDefault(), FileFormat.PARQUET, uri);
        Dataset dataset = factory.finish();
        Scanner scanner = dataset.newScan(new ScanOptions(BATCH_ROWS));
        ArrowReader reader = scanner.scanBatches();
        BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      w.write(reader.getVectorSchemaRoot().getSchema().toString().replace('\n', ' '));
      w.write('\n');
      StringBuilder line = new StringBuilder();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        List<FieldVector> columns = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
          line.setLength(0);
          line.append('{');
          for (int c = 0; c < columns.size(); c++) {
            if (c > 0) {
              line.append(',');
            }
            line.append(columns.get(c).getName()).append(':');
            value(line, columns.get(c), row);
          }
          line.append('}');
          w.write(line.toString());
          w.write('\n');
        }
      }
    }
  }

  private static void value(StringBuilder out, ValueVector v, int i) {
    if (v.isNull(i)) {
      out.append("null");
    } else if (v instanceof MapVector map) {
      // Entries sorted by their text, as the other oracles print maps.
      StructVector entries = (StructVector) map.getDataVector();
      List<FieldVector> kv = entries.getChildrenFromFields();
      List<String> texts = new ArrayList<>();
      for (int k = map.getElementStartIndex(i); k < map.getElementEndIndex(i); k++) {
        StringBuilder entry = new StringBuilder();
        value(entry, kv.get(0), k);
        entry.append("=>");
        value(entry, kv.get(1), k);
        texts.add(entry.toString());
      }
      texts.sort(null);
      out.append("map{").append(String.join(",", texts)).append('}');
    } else if (v instanceof BaseListVector list) {
      ValueVector elements = list.getChildrenFromFields().get(0);
      out.append('[');
      for (int k = list.getElementStartIndex(i); k < list.getElementEndIndex(i); k++) {
        if (k > list.getElementStartIndex(i)) {
          out.append(',');
        }
        value(out, elements, k);
      }
      out.append(']');
    } else if (v instanceof StructVector struct) {
      out.append('{');
      List<FieldVector> fields = struct.getChildrenFromFields();
      for (int f = 0; f < fields.size(); f++) {
        if (f > 0) {
          out.append(',');
        }
        out.append(fields.get(f).getName()).append(':');
        value(out, fields.get(f), i);
      }
      out.append('}');
    } else {
      scalar(out, v, i);
    }
  }

  /** The canonical text of one scalar: the tests' EngineCanonical.leaf is its twin. */
  private static void scalar(StringBuilder out, ValueVector v, int i) {
    if (v instanceof VarCharVector || v instanceof LargeVarCharVector) {
      string(out, v.getObject(i).toString());
    } else if (v instanceof VarBinaryVector
        || v instanceof LargeVarBinaryVector
        || v instanceof FixedSizeBinaryVector) {
      out.append("0x");
      for (byte b : (byte[]) v.getObject(i)) {
        out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
    } else if (v instanceof DecimalVector d) {
      out.append(d.getObject(i).toPlainString());
    } else if (v instanceof Decimal256Vector d) {
      out.append(d.getObject(i).toPlainString());
    } else if (v instanceof Float4Vector f) {
      out.append(f.get(i));
    } else if (v instanceof Float8Vector f) {
      out.append(f.get(i));
    } else if (v instanceof Float2Vector f) {
      out.append(f.getValueAsFloat(i));
    } else if (v instanceof BitVector b) {
      out.append(b.get(i) != 0);
    } else if (v instanceof DateDayVector d) {
      out.append(LocalDate.ofEpochDay(d.get(i)));
    } else if (v instanceof DateMilliVector d) {
      out.append(LocalDate.ofEpochDay(Math.floorDiv(d.get(i), 86_400_000L)));
    } else if (v instanceof TimeStampVector t) {
      ArrowType.Timestamp type = (ArrowType.Timestamp) t.getField().getType();
      Instant instant = instant(t.get(i), type.getUnit());
      out.append(
          type.getTimezone() != null ? instant : LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    } else if (v instanceof TimeSecVector t) {
      out.append(t.get(i));
    } else if (v instanceof TimeMilliVector t) {
      // parquet-java hands a TIME over as its raw count of the file's unit.
      out.append(t.get(i));
    } else if (v instanceof TimeMicroVector t) {
      out.append(t.get(i));
    } else if (v instanceof TimeNanoVector t) {
      out.append(t.get(i));
    } else if (v instanceof UInt1Vector u) {
      out.append(UInt1Vector.getNoOverflow(u.getDataBuffer(), i));
    } else if (v instanceof UInt2Vector u) {
      out.append((int) u.get(i));
    } else if (v instanceof UInt4Vector u) {
      out.append(UInt4Vector.getNoOverflow(u.getDataBuffer(), i));
    } else if (v instanceof UInt8Vector u) {
      out.append(UInt8Vector.getNoOverflow(u.getDataBuffer(), i));
    } else if (v instanceof BaseIntVector n) {
      out.append(n.getValueAsLong(i));
    } else {
      Object o = v.getObject(i);
      out.append(v.getClass().getSimpleName())
          .append(':')
          .append(o instanceof BigDecimal b ? b.toPlainString() : String.valueOf(o));
    }
  }

  private static Instant instant(long raw, TimeUnit unit) {
    long perSecond =
        switch (unit) {
          case SECOND -> 1L;
          case MILLISECOND -> 1_000L;
          case MICROSECOND -> 1_000_000L;
          case NANOSECOND -> 1_000_000_000L;
        };
    return Instant.ofEpochSecond(
        Math.floorDiv(raw, perSecond),
        Math.floorMod(raw, perSecond) * (1_000_000_000L / perSecond));
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
