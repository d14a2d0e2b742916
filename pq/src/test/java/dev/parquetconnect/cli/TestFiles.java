package dev.parquetconnect.cli;

import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Files written by other implementations for the pq tests, made once per test JVM under
 * target/pq-test-files: one by parquet-java with every logical type, field ids and the nesting
 * layouts (three-level and two-level lists, maps of lists, three levels deep, an unannotated
 * repeated field), whose rows {@link #PARQUET_JAVA_EXPECTED_JSON} spells out; one by DuckDB with
 * its own types, compared against DuckDB's JSON.
 */
final class TestFiles {
  static final String PARQUET_JAVA_SCHEMA =
      """
      message pj {
        required int32 id = 1;
        optional int32 i8 (INTEGER(8,true)) = 2;
        optional int32 u8 (INTEGER(8,false));
        optional int32 u16 (INTEGER(16,false));
        optional int32 u32 (INTEGER(32,false));
        optional int64 u64 (INTEGER(64,false));
        optional binary s (STRING);
        optional binary e (ENUM);
        optional binary j (JSON);
        optional binary b (BSON);
        optional binary raw;
        optional fixed_len_byte_array(16) u (UUID);
        optional fixed_len_byte_array(2) h (FLOAT16);
        optional fixed_len_byte_array(12) iv (INTERVAL);
        optional int32 d (DATE);
        optional int32 tm (TIME(MILLIS,true));
        optional int64 tu (TIME(MICROS,false));
        optional int64 tn (TIME(NANOS,true));
        optional int64 tsm (TIMESTAMP(MILLIS,true));
        optional int64 tsu (TIMESTAMP(MICROS,false));
        optional int64 tsn (TIMESTAMP(NANOS,true));
        optional int96 i96;
        optional int32 dec9 (DECIMAL(9,2));
        optional int64 dec18 (DECIMAL(18,4));
        optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10));
        optional binary decb (DECIMAL(40,5));
        optional float f;
        optional double g;
        optional boolean bo;
        optional int32 n (UNKNOWN);
        optional group l (LIST) = 30 {
          repeated group list {
            optional group element {
              optional int32 x;
              optional binary y (STRING);
            }
          }
        }
        optional group m (MAP) {
          repeated group key_value {
            required binary key (STRING);
            optional group value (LIST) {
              repeated group list {
                optional int64 element;
              }
            }
          }
        }
        optional group deep {
          optional group mid (LIST) {
            repeated group list {
              required group element {
                optional group inner (MAP) {
                  repeated group key_value {
                    required int32 key;
                    optional double value;
                  }
                }
              }
            }
          }
        }
        repeated int32 legacy_repeated;
        optional group two_level (LIST) {
          repeated int32 element;
        }
      }
      """;

  /** What {@code pq cat} must print for the parquet-java file, line by line. */
  static final List<String> PARQUET_JAVA_EXPECTED_JSON =
      List.of(
          "{\"id\":0,\"i8\":null,\"u8\":null,\"u16\":null,\"u32\":null,\"u64\":null,\"s\":null,"
              + "\"e\":null,\"j\":null,\"b\":null,\"raw\":null,\"u\":null,\"h\":null,\"iv\":null,"
              + "\"d\":null,\"tm\":null,\"tu\":null,\"tn\":null,\"tsm\":null,\"tsu\":null,"
              + "\"tsn\":null,\"i96\":null,\"dec9\":null,\"dec18\":null,\"dec38\":null,"
              + "\"decb\":null,\"f\":null,\"g\":null,\"bo\":null,\"n\":null,\"l\":null,\"m\":null,"
              + "\"deep\":null,\"legacy_repeated\":[],\"two_level\":null}",
          "{\"id\":1,\"i8\":-8,\"u8\":200,\"u16\":65535,\"u32\":4294967295,"
              + "\"u64\":18446744073709551615,\"s\":\"h\u00e9llo \\\"q\\\"\\n\",\"e\":\"RED\","
              + "\"j\":{\"a\": [1, 2],  \"b\": null},\"b\":\"AQID\",\"raw\":\"AP8=\","
              + "\"u\":\"12345678-9abc-def0-1234-56789abcdef0\",\"h\":1.5,"
              + "\"iv\":{\"months\":1,\"days\":2,\"milliseconds\":3},\"d\":\"2024-02-29\","
              + "\"tm\":\"12:34:56.789Z\",\"tu\":\"12:34:56.789012\",\"tn\":\"12:34:56.789012345Z\","
              + "\"tsm\":\"2024-01-02T03:04:05.123Z\",\"tsu\":\"2024-01-02T03:04:05.123456\","
              + "\"tsn\":\"2024-01-02T03:04:05.123456789Z\",\"i96\":\"2024-01-02T03:04:05.123456789\","
              + "\"dec9\":-123.45,\"dec18\":12345678901234.5678,"
              + "\"dec38\":1234567890123.4567890123,\"decb\":-987654321098765432109876.54321,"
              + "\"f\":1.1,\"g\":-2.5E-300,\"bo\":true,\"n\":null,"
              + "\"l\":[{\"x\":1,\"y\":\"a\"},null,{\"x\":null,\"y\":null}],"
              + "\"m\":{\"k1\":[1,null,3],\"k2\":null,\"k3\":[]},"
              + "\"deep\":{\"mid\":[{\"inner\":{\"1\":0.5,\"2\":null}},{\"inner\":null}]},"
              + "\"legacy_repeated\":[7,8],\"two_level\":[4,5]}",
          "{\"id\":2,\"i8\":null,\"u8\":0,\"u16\":null,\"u32\":null,\"u64\":null,\"s\":null,"
              + "\"e\":null,\"j\":\"not json\",\"b\":null,\"raw\":null,\"u\":null,"
              + "\"h\":\"-Infinity\",\"iv\":null,\"d\":\"1969-12-31\",\"tm\":86400000,\"tu\":null,"
              + "\"tn\":null,\"tsm\":\"1969-12-31T23:59:59.999Z\","
              + "\"tsu\":\"1969-12-31T23:59:59.999999\",\"tsn\":null,\"i96\":null,\"dec9\":null,"
              + "\"dec18\":null,\"dec38\":null,\"decb\":null,\"f\":\"NaN\",\"g\":\"-Infinity\","
              + "\"bo\":false,\"n\":null,\"l\":[],\"m\":{},\"deep\":{\"mid\":null},"
              + "\"legacy_repeated\":[],\"two_level\":[]}");

  /** DuckDB's types, nested to three levels, with nulls, NaN and the extremes. */
  static final String DUCKDB_SELECT =
      """
      SELECT * FROM (VALUES
        (1, (-128)::TINYINT, 255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER,
         18446744073709551615::UBIGINT, (-9223372036854775808)::BIGINT, 12.34::DECIMAL(4,2),
         -123456789012.345678::DECIMAL(18,6), 1234567890123456789012.3456789::DECIMAL(38,10),
         DATE '2024-02-29', TIME '12:34:56.789', TIMESTAMP '2024-01-02 03:04:05.123456',
         TIMESTAMP_MS '1960-01-02 03:04:05.123', TIMESTAMP_NS '2024-01-02 03:04:05.123456789',
         TIMESTAMPTZ '2024-01-02 03:04:05.123456+00', uuid '12345678-1234-5678-1234-567812345678',
         'h\u00e9llo "q" \\ /', '\\x00\\xFFab'::BLOB, '{"x": [1, 2.5, "s"]}'::JSON, 1.1::FLOAT,
         -0.0::DOUBLE, true, [1, NULL, 3], {'s': 1, 't': 'u'}, MAP {1: 'a', 2: NULL},
         [{'a': [1, 2], 'b': MAP {'k': [1.5]}}], 'b'::ENUM('a', 'b')),
        (2, NULL, 0::UTINYINT, NULL, NULL, 0::UBIGINT, 9223372036854775807, -0.01::DECIMAL(4,2),
         NULL, -1::DECIMAL(38,10), DATE '1969-12-31', TIME '00:00:00', TIMESTAMP '1900-01-01',
         NULL, NULL, NULL, NULL, '', ''::BLOB, 'null'::JSON, 'nan'::FLOAT, 'inf'::DOUBLE, false,
         [], {'s': NULL, 't': NULL}, MAP {}, [], NULL),
        (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL, NULL, NULL, '-inf'::FLOAT, 'nan'::DOUBLE, NULL, NULL, NULL, NULL,
         [NULL, {'a': NULL, 'b': NULL}], NULL)
      ) t(id, i8, u8, u16, u32, u64, i64, dec4, dec18, dec38, d, tm, ts, ts_ms, ts_ns, tstz, uu,
          s, bl, js, f, g, bo, li, st, ma, deep, en)
      """;

  private static Path dir;

  private TestFiles() {}

  static synchronized Path directory() {
    if (dir == null) {
      try {
        Path made = Files.createDirectories(Path.of("target", "pq-test-files")).toAbsolutePath();
        writeParquetJavaFile(made.resolve("parquet-java-logical.parquet"));
        DuckDbRowOracle.copy(DUCKDB_SELECT, made.resolve("duckdb-types.parquet"), "FORMAT parquet");
        dir = made;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    return dir;
  }

  static Path parquetJavaFile() {
    return directory().resolve("parquet-java-logical.parquet");
  }

  static Path duckDbFile() {
    return directory().resolve("duckdb-types.parquet");
  }

  static List<Path> generated() {
    return List.of(parquetJavaFile(), duckDbFile());
  }

  private static void writeParquetJavaFile(Path file) throws IOException {
    Files.deleteIfExists(file);
    MessageType schema = MessageTypeParser.parseMessageType(PARQUET_JAVA_SCHEMA);
    SimpleGroupFactory factory = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(schema)
            .build()) {
      writer.write(factory.newGroup().append("id", 0));
      writer.write(typicalRow(factory.newGroup()));
      writer.write(edgeRow(factory.newGroup()));
    }
  }

  private static Group typicalRow(Group g) {
    g.append("id", 1)
        .append("i8", -8)
        .append("u8", 200)
        .append("u16", 65535)
        .append("u32", -1)
        .append("u64", -1L)
        .append("s", "h\u00e9llo \"q\"\n")
        .append("e", "RED")
        .append("j", "{\"a\": [1, 2],\n \"b\": null}")
        .append("b", Binary.fromConstantByteArray(new byte[] {1, 2, 3}))
        .append("raw", Binary.fromConstantByteArray(new byte[] {0, (byte) 0xFF}))
        .append("u", Binary.fromConstantByteArray(hex("123456789abcdef0123456789abcdef0")))
        .append("h", Binary.fromConstantByteArray(new byte[] {0x00, 0x3E}))
        .append("iv", Binary.fromConstantByteArray(littleEndianInts(1, 2, 3)))
        .append("d", 19782)
        .append("tm", 45_296_789)
        .append("tu", 45_296_789_012L)
        .append("tn", 45_296_789_012_345L)
        .append("tsm", 1_704_164_645_123L)
        .append("tsu", 1_704_164_645_123_456L)
        .append("tsn", 1_704_164_645_123_456_789L)
        .append("i96", Binary.fromConstantByteArray(int96(2_460_312, 11_045_123_456_789L)))
        .append("dec9", -12345)
        .append("dec18", 123_456_789_012_345_678L)
        .append(
            "dec38",
            Binary.fromConstantByteArray(
                fixedBigEndian(new BigInteger("12345678901234567890123"), 16)))
        .append(
            "decb",
            Binary.fromConstantByteArray(
                new BigInteger("-98765432109876543210987654321").toByteArray()))
        .append("f", 1.1f)
        .append("g", -2.5e-300)
        .append("bo", true);
    Group list = g.addGroup("l");
    Group first = list.addGroup("list").addGroup("element");
    first.append("x", 1).append("y", "a");
    list.addGroup("list"); // a null element
    list.addGroup("list").addGroup("element"); // an element with null fields
    Group map = g.addGroup("m");
    Group k1 = map.addGroup("key_value").append("key", "k1");
    Group k1List = k1.addGroup("value");
    k1List.addGroup("list").append("element", 1L);
    k1List.addGroup("list");
    k1List.addGroup("list").append("element", 3L);
    map.addGroup("key_value").append("key", "k2");
    map.addGroup("key_value").append("key", "k3").addGroup("value");
    Group mid = g.addGroup("deep").addGroup("mid");
    Group inner = mid.addGroup("list").addGroup("element").addGroup("inner");
    inner.addGroup("key_value").append("key", 1).append("value", 0.5);
    inner.addGroup("key_value").append("key", 2);
    mid.addGroup("list").addGroup("element");
    g.append("legacy_repeated", 7).append("legacy_repeated", 8);
    g.addGroup("two_level").append("element", 4).append("element", 5);
    return g;
  }

  private static Group edgeRow(Group g) {
    g.append("id", 2)
        .append("u8", 0)
        .append("j", "not json")
        .append("h", Binary.fromConstantByteArray(new byte[] {0x00, (byte) 0xFC}))
        .append("d", -1)
        .append("tm", 86_400_000) // not a time of day: shown as the number it is
        .append("tsm", -1L)
        .append("tsu", -1L)
        .append("f", Float.NaN)
        .append("g", Double.NEGATIVE_INFINITY)
        .append("bo", false);
    g.addGroup("l");
    g.addGroup("m");
    g.addGroup("deep");
    g.addGroup("two_level");
    return g;
  }

  static byte[] hex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }

  private static byte[] littleEndianInts(int... values) {
    ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      buffer.putInt(v);
    }
    return buffer.array();
  }

  private static byte[] int96(int julianDay, long nanosOfDay) {
    return ByteBuffer.allocate(12)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(nanosOfDay)
        .putInt(julianDay)
        .array();
  }

  private static byte[] fixedBigEndian(BigInteger value, int length) {
    byte[] bytes = value.toByteArray();
    byte[] out = new byte[length];
    Arrays.fill(out, value.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(bytes, 0, out, length - bytes.length, bytes.length);
    return out;
  }

  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
