package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.storage.DelegatedCredentials;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.StoreSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A table's FileIO properties, as a REST catalog vends them, mapped to our store's settings. */
final class VendedCredentialsTest {
  private static final Map<String, String> VENDED =
      Map.of(
          "s3.access-key-id", "vended-id",
          "s3.secret-access-key", "vended-secret",
          "s3.session-token", "vended-token",
          "s3.session-token-expires-at-ms", "1800000000000",
          "s3.endpoint", "http://127.0.0.1:9000",
          "client.region", "eu-west-1",
          "s3.path-style-access", "true",
          "uri", "http://127.0.0.1:8181/");

  @Test
  void vendedCredentialsReplaceTheConnectorsOwnAndItsAssumedRole() {
    Map<String, Object> own = new HashMap<>();
    own.put("aws.access.key.id", Secret.of("own-id"));
    own.put("aws.secret.access.key", Secret.of("own-secret"));
    own.put("aws.sts.role.arn", "arn:aws:iam::1:role/own");
    own.put("s3.endpoint", "http://own:9000");
    own.put("s3.part.size", "5242880");
    StoreSettings settings = new StoreSettings(VendedCredentials.overStoreSettings(own, VENDED));
    assertEquals("vended-id", settings.secret("aws.access.key.id").value());
    assertEquals("vended-secret", settings.secret("aws.secret.access.key").value());
    assertEquals("vended-token", settings.secret("aws.session.token").value());
    assertFalse(settings.has("aws.sts.role.arn"), "the vended credentials are the final ones");
    assertEquals("http://127.0.0.1:9000", settings.string("s3.endpoint", null));
    assertEquals("eu-west-1", settings.string("s3.region", null));
    assertTrue(settings.bool("s3.path.style.access", false));
    assertEquals(5_242_880, settings.intValue("s3.part.size", 0), "other settings stay");
    assertFalse(settings.toString().contains("vended-"), settings.toString());
  }

  @Test
  void withoutVendedCredentialsTheConnectorsOwnSettingsStay() {
    Map<String, Object> own = Map.of("aws.access.key.id", Secret.of("own-id"));
    Map<String, String> io = Map.of("s3.endpoint", "http://elsewhere", "s3.access-key-id", "");
    assertSame(own, VendedCredentials.overStoreSettings(own, io));
    assertNull(VendedCredentials.of(io));
    assertFalse(VendedCredentials.expiring(io, Long.MAX_VALUE - 1));
  }

  @Test
  void theExpiryDecidesWhenTheTableIsLoadedAgain() {
    DelegatedCredentials.Current c = VendedCredentials.of(VENDED);
    assertEquals(1_800_000_000_000L, c.expiresAtMillis());
    assertFalse(c.toString().contains("vended-"), c.toString());
    long renewAt = 1_800_000_000_000L - VendedCredentials.RENEW_BEFORE_MS;
    assertFalse(VendedCredentials.expiring(VENDED, renewAt - 1));
    assertTrue(VendedCredentials.expiring(VENDED, renewAt));
    Map<String, String> noExpiry = new HashMap<>(VENDED);
    noExpiry.remove("s3.session-token-expires-at-ms");
    noExpiry.remove("s3.session-token");
    DelegatedCredentials.Current lasting = VendedCredentials.of(noExpiry);
    assertEquals(Long.MAX_VALUE, lasting.expiresAtMillis());
    assertNull(lasting.sessionToken());
    assertFalse(VendedCredentials.expiring(noExpiry, Long.MAX_VALUE - 1));
    Map<String, String> bad = new HashMap<>(VENDED);
    bad.put("s3.session-token-expires-at-ms", "tomorrow");
    String message =
        assertThrows(IllegalArgumentException.class, () -> VendedCredentials.of(bad)).getMessage();
    assertTrue(message.contains("s3.session-token-expires-at-ms") && !message.contains("vended-"));
  }

  @Test
  void aStoreFileIoOfATableSignsWithWhatWasVendedWithIt() {
    Map<String, String> props = new HashMap<>(VENDED);
    props.put("parquet-connect.store.aws.access.key.id", "own-id");
    props.put("parquet-connect.store.aws.secret.access.key", "own-secret");
    try (StoreFileIO io = new StoreFileIO()) {
      io.initialize(props);
      assertEquals("vended-id", io.settings().secret("aws.access.key.id").value());
      assertEquals("vended-token", io.settings().secret("aws.session.token").value());
    }
    try (StoreFileIO io = new StoreFileIO()) {
      io.initialize(
          Map.of(
              "parquet-connect.store.aws.access.key.id", "own-id",
              "parquet-connect.store.aws.secret.access.key", "own-secret"));
      assertEquals("own-id", io.settings().secret("aws.access.key.id").value());
    }
  }
}
