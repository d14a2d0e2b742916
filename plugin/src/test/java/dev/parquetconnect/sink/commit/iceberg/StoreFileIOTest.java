package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.sink.ParquetSinkConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StoreFileIO} over the local store, under every spelling of a local location Iceberg's
 * catalogs produce ({@code file:///}, {@code file:/}, a bare path); its S3 side is checked by
 * {@code IcebergS3WarehouseIT} against S3Proxy.
 */
final class StoreFileIOTest {
  @TempDir Path dir;

  @Test
  void fileUrls() throws Exception {
    try (StoreFileIO io = new StoreFileIO()) {
      io.initialize(Map.of());
      FileIOContract.check(io, dir.resolve("a").toUri().toString().replaceAll("/$", ""));
    }
  }

  @Test
  void hadoopStyleFileUrlsAndBarePaths() throws Exception {
    try (StoreFileIO io = new StoreFileIO()) {
      io.initialize(Map.of());
      FileIOContract.check(io, "file:" + dir.resolve("b"));
      FileIOContract.check(io, dir.resolve("c").toString());
    }
  }

  /** The table mode's catalogs use it unless io-impl is set; the store keys travel with it. */
  @Test
  void isTheDefaultIoImplAndCarriesTheStoreSettings() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "io");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
    props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, dir.toString());
    props.put("s3.region", "eu-west-3");
    props.put("aws.access.key.id", "AKIAIOSFODNN7EXAMPLE");
    props.put("aws.secret.access.key", "s3cr3t");
    Map<String, String> catalog = new ParquetSinkConfig(props).iceberg().catalogProperties();
    assertEquals(StoreFileIO.class.getName(), catalog.get("io-impl"));
    assertEquals("eu-west-3", catalog.get("parquet-connect.store.s3.region"));
    assertEquals("s3cr3t", catalog.get("parquet-connect.store.aws.secret.access.key"));
    props.put("iceberg.catalog.io-impl", "org.apache.iceberg.hadoop.HadoopFileIO");
    assertEquals(
        "org.apache.iceberg.hadoop.HadoopFileIO",
        new ParquetSinkConfig(props).iceberg().catalogProperties().get("io-impl"));
  }
}
