package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The 20-column file of the memory test: an id, a random long, a random double and 17 columns of
 * random (incompressible) strings of 100 to 120 bytes, each value a function of its row and column
 * so a reader in another JVM can check what it reads without holding the file.
 */
final class OneColumnData {
  static final int COLUMNS = 20;
  static final int FIRST_STRING_COLUMN = 3;

  private OneColumnData() {}

  static MessageType schema() {
    List<SchemaNode> fields = new ArrayList<>();
    fields.add(PrimitiveNode.of("c00", REQUIRED, PhysicalType.INT64));
    fields.add(PrimitiveNode.of("c01", REQUIRED, PhysicalType.INT64));
    fields.add(PrimitiveNode.of("c02", REQUIRED, PhysicalType.DOUBLE));
    for (int c = FIRST_STRING_COLUMN; c < COLUMNS; c++) {
      fields.add(PrimitiveNode.of(String.format("c%02d", c), REQUIRED, PhysicalType.BYTE_ARRAY));
    }
    return new MessageType("wide", fields);
  }

  static String name(int column) {
    return String.format("c%02d", column);
  }

  /** The string of {@code row} in string column {@code column}. */
  static byte[] string(long row, int column) {
    SplittableRandom random = new SplittableRandom(row * COLUMNS + column);
    byte[] value = new byte[100 + (int) (row % 21)];
    random.nextBytes(value);
    return value;
  }

  static long randomLong(long row) {
    return new SplittableRandom(row * COLUMNS + 1).nextLong();
  }

  static double randomDouble(long row) {
    return new SplittableRandom(row * COLUMNS + 2).nextDouble();
  }
}
