package dev.parquetconnect.format.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian loads and stores on {@code byte[]} through VarHandles, which the JIT turns into
 * single unaligned machine loads. Callers check bounds once per batch; these methods still throw
 * {@link IndexOutOfBoundsException} if a caller got that wrong.
 */
public final class LittleEndian {
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE =
      MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  public static short getShort(byte[] b, int off) {
    return (short) SHORT.get(b, off);
  }

  public static int getInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  public static long getLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  public static float getFloat(byte[] b, int off) {
    return (float) FLOAT.get(b, off);
  }

  public static double getDouble(byte[] b, int off) {
    return (double) DOUBLE.get(b, off);
  }

  public static void putShort(byte[] b, int off, short v) {
    SHORT.set(b, off, v);
  }

  public static void putInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
  }

  public static void putLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }

  /** Stores the float's raw bits, so NaN payloads and -0.0 survive unchanged. */
  public static void putFloat(byte[] b, int off, float v) {
    INT.set(b, off, Float.floatToRawIntBits(v));
  }

  /** Stores the double's raw bits, so NaN payloads and -0.0 survive unchanged. */
  public static void putDouble(byte[] b, int off, double v) {
    LONG.set(b, off, Double.doubleToRawLongBits(v));
  }
}
