package dev.parquetconnect.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code pq} must make of the corpus files that are not sound Parquet files our reader reads
 * (docs/compatibility.md has the reasons): the exit code and a piece of the one error line. Every
 * other corpus file must read.
 */
final class CorpusOutcomes {
  /** The exit code and the pieces the one error line must hold. */
  record Failure(int exit, List<String> messageParts) {}

  private static final Map<String, Failure> FAILURES = new LinkedHashMap<>();

  static {
    fail("data/datapage_v1-corrupt-checksum.parquet", Pq.FAILED, "page CRC mismatch", "column a");
    fail(
        "data/rle-dict-uncompressed-corrupt-checksum.parquet",
        Pq.FAILED,
        "page CRC mismatch",
        "column long_field");
    fail("data/large_string_map.brotli.parquet", Pq.UNSUPPORTED, "ReadOptions.maxPageSize");
    for (String name :
        List.of(
            "delta_binary_packed_expect.csv",
            "delta_byte_array_expect.csv",
            "delta_encoding_required_column_expect.csv",
            "bloom_filter.bin",
            "bloom_filter.xxhash.bin",
            "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json")) {
      fail("data/" + name, Pq.FAILED, "magic PAR1");
    }
    for (String name :
        List.of(
            "encrypt_columns_and_footer",
            "encrypt_columns_and_footer_aad",
            "encrypt_columns_and_footer_bloom_filter",
            "encrypt_columns_and_footer_ctr",
            "encrypt_columns_and_footer_disable_aad_storage",
            "encrypt_columns_plaintext_footer",
            "external_key_material_java",
            "uniform_encryption")) {
      fail("data/" + name + ".parquet.encrypted", Pq.UNSUPPORTED, "encrypted");
    }
    for (String name :
        List.of(
            "encrypt_columns_and_footer",
            "encrypt_columns_and_footer_ctr",
            "encrypt_columns_and_footer_disable_aad_storage",
            "encrypt_columns_plaintext_footer",
            "uniform_encryption")) {
      fail("data/aes256/" + name + ".parquet.encrypted", Pq.UNSUPPORTED, "encrypted");
    }
    fail("bad_data/ARROW-GH-41317.parquet", Pq.FAILED, "is not the schema's");
    fail("bad_data/ARROW-GH-41321.parquet", Pq.FAILED, "bit width", "column int64");
    fail("bad_data/ARROW-GH-47662.parquet", Pq.FAILED, "remain", "column flba_field");
    fail("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", Pq.FAILED, "not inside the data region");
    fail("bad_data/PARQUET-1481.parquet", Pq.FAILED, "unknown physical type");
  }

  private CorpusOutcomes() {}

  private static void fail(String name, int exit, String... messageParts) {
    FAILURES.put(name, new Failure(exit, List.of(messageParts)));
  }

  /** The failure expected of a corpus file, or null when it must read. */
  static Failure failure(String corpusName) {
    return FAILURES.get(corpusName);
  }

  /** Whether the file is one our reader reads in full (verify passes). */
  static boolean readable(String corpusName) {
    return !FAILURES.containsKey(corpusName);
  }

  /** Whether the file fails only by its page CRCs (its bytes decode with checks off). */
  static boolean onlyChecksumsFail(String corpusName) {
    Failure failure = FAILURES.get(corpusName);
    return failure != null && failure.messageParts().get(0).equals("page CRC mismatch");
  }
}
