package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/** Reads and writes {@code Statistics}, {@code SizeStatistics} and the geospatial statistics. */
final class StatisticsCodec {
  private static final String[] BBOX_FIELDS = {
    null, "xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax"
  };
  private static final int BBOX_REQUIRED = 0b11110;

  private StatisticsCodec() {}

  static Statistics readStatistics(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    ByteString max = null;
    ByteString min = null;
    Long nullCount = null;
    Long distinctCount = null;
    ByteString maxValue = null;
    ByteString minValue = null;
    Boolean maxExact = null;
    Boolean minExact = null;
    Long nanCount = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            max = in.binary();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            min = in.binary();
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I64)) {
            nullCount = in.i64();
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I64)) {
            distinctCount = in.i64();
          }
        }
        case 5 -> {
          if (in.accept(f, TType.STRING)) {
            maxValue = in.binary();
          }
        }
        case 6 -> {
          if (in.accept(f, TType.STRING)) {
            minValue = in.binary();
          }
        }
        case 7 -> {
          if (in.accept(f, TType.BOOL)) {
            maxExact = in.bool();
          }
        }
        case 8 -> {
          if (in.accept(f, TType.BOOL)) {
            minExact = in.bool();
          }
        }
        case 9 -> {
          if (in.accept(f, TType.I64)) {
            nanCount = in.i64();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new Statistics(
        max, min, nullCount, distinctCount, maxValue, minValue, maxExact, minExact, nanCount);
  }

  static void writeStatistics(ThriftOutput out, Statistics s) throws TException {
    out.structBegin();
    out.optBinary(1, s.max());
    out.optBinary(2, s.min());
    out.optI64(3, s.nullCount());
    out.optI64(4, s.distinctCount());
    out.optBinary(5, s.maxValue());
    out.optBinary(6, s.minValue());
    out.optBool(7, s.isMaxValueExact());
    out.optBool(8, s.isMinValueExact());
    out.optI64(9, s.nanCount());
    out.structEnd();
  }

  static SizeStatistics readSizeStatistics(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    Long unencoded = null;
    List<Long> repetition = null;
    List<Long> definition = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I64)) {
            unencoded = in.i64();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            repetition = in.i64List();
          }
        }
        case 3 -> {
          if (in.accept(f, TType.LIST)) {
            definition = in.i64List();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new SizeStatistics(unencoded, repetition, definition);
  }

  static void writeSizeStatistics(ThriftOutput out, SizeStatistics s) throws TException {
    out.structBegin();
    out.optI64(1, s.unencodedByteArrayDataBytes());
    out.optI64List(2, s.repetitionLevelHistogram());
    out.optI64List(3, s.definitionLevelHistogram());
    out.structEnd();
  }

  static GeospatialStatistics readGeospatialStatistics(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    BoundingBox bbox = null;
    List<Integer> types = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRUCT)) {
            bbox = readBoundingBox(in);
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            types = in.i32List();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new GeospatialStatistics(bbox, types);
  }

  static void writeGeospatialStatistics(ThriftOutput out, GeospatialStatistics g)
      throws TException {
    out.structBegin();
    if (g.bbox() != null) {
      out.fieldBegin(TType.STRUCT, 1);
      writeBoundingBox(out, g.bbox());
    }
    out.optI32List(2, g.geospatialTypes());
    out.structEnd();
  }

  private static BoundingBox readBoundingBox(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    double[] required = new double[5];
    Double[] optional = new Double[9];
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      int id = ThriftInput.id(f);
      if (id >= 1 && id <= 8) {
        if (in.accept(f, TType.DOUBLE)) {
          double v = in.dbl();
          if (id <= 4) {
            required[id] = v;
          } else {
            optional[id] = v;
          }
          seen |= 1 << id;
        }
      } else {
        in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, BBOX_REQUIRED, "BoundingBox", BBOX_FIELDS);
    in.structEnd();
    return new BoundingBox(
        required[1],
        required[2],
        required[3],
        required[4],
        optional[5],
        optional[6],
        optional[7],
        optional[8]);
  }

  private static void writeBoundingBox(ThriftOutput out, BoundingBox b) throws TException {
    out.structBegin();
    out.dbl(1, b.xmin());
    out.dbl(2, b.xmax());
    out.dbl(3, b.ymin());
    out.dbl(4, b.ymax());
    out.optDbl(5, b.zmin());
    out.optDbl(6, b.zmax());
    out.optDbl(7, b.mmin());
    out.optDbl(8, b.mmax());
    out.structEnd();
  }
}
