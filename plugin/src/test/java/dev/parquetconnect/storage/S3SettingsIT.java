package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The S3 settings S3Proxy cannot check by itself. S3Proxy does not implement server-side encryption
 * or session tokens, so it runs here with {@code ignoreUnknownHeaders} and our counting proxy
 * checks that the right headers go out on the right requests. Assume-role goes to a small fake STS
 * endpoint of ours. TLS runs against S3Proxy's HTTPS endpoint with a certificate made by keytool
 * for 127.0.0.1.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class S3SettingsIT {
  private static S3ProxyServer server;
  private static FaultProxy proxy;

  @BeforeAll
  static void start() throws Exception {
    server = new S3ProxyServer(null, null, true);
    proxy = new FaultProxy(server.port(), 0, 1);
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String root(String name) {
    return "s3://" + S3ProxyServer.BUCKET + "/settings/" + name + "-" + System.nanoTime();
  }

  private static byte[] data(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Writes a small and a multipart file, reads, stats and moves one. */
  private static void exercise(Store store) throws IOException {
    byte[] small = data(1, 1000);
    byte[] big = data(2, S3Store.MIN_PART_SIZE + 10);
    try (StoreOutput o = store.create("a/small")) {
      o.write(small);
      o.commit();
    }
    try (StoreOutput o = store.create("a/big")) {
      o.write(big);
      o.commit();
    }
    assertArrayEquals(small, S3FaultIT.readAll(store, "a/small"));
    assertArrayEquals(big, S3FaultIT.readAll(store, "a/big"));
    store.move("a/small", "done/small");
    assertTrue(store.exists("done/small"));
  }

  private static List<String> heads(String methodPrefix) {
    List<String> out = new ArrayList<>();
    for (String h : proxy.requestHeads()) {
      if (h.startsWith(methodPrefix)) {
        out.add(h);
      }
    }
    return out;
  }

  @Test
  void sseCustomerKeyTravelsOnEveryObjectRequest() throws Exception {
    byte[] key = data(3, 32);
    String keyB64 = Base64.getEncoder().encodeToString(key);
    String md5 = Base64.getEncoder().encodeToString(S3Sse.md5(key)).toLowerCase();
    Map<String, Object> s = S3ProxyServer.settings(proxy.endpoint());
    s.put("s3.sse.type", "sse-c");
    s.put("s3.sse.c.key", Secret.of(keyB64));
    proxy.resetCounters();
    try (Store store = Stores.open(root("ssec"), s)) {
      assertFalse(store.toString().contains(keyB64));
      exercise(store);
    }
    int checked = 0;
    for (String h : proxy.requestHeads()) {
      boolean objectRequest =
          h.startsWith("get ")
              || h.startsWith("head ")
              || (h.startsWith("put ") && !h.contains("x-amz-copy-source:"))
              || (h.startsWith("post ") && h.contains("?uploads"));
      boolean copy = h.startsWith("put ") && h.contains("x-amz-copy-source:");
      if (objectRequest || copy) {
        assertTrue(h.contains("\r\nx-amz-server-side-encryption-customer-algorithm: aes256"), h);
        assertTrue(h.contains("\r\nx-amz-server-side-encryption-customer-key-md5: " + md5), h);
        assertTrue(h.contains("\r\nx-amz-server-side-encryption-customer-key: "), h);
        checked++;
      }
      if (copy) {
        assertTrue(
            h.contains("\r\nx-amz-copy-source-server-side-encryption-customer-key-md5: " + md5), h);
      }
    }
    assertTrue(checked >= 8, "only " + checked + " requests checked");
  }

  @Test
  void sseKmsIsRequestedWhenObjectsAreCreated() throws Exception {
    Map<String, Object> s = S3ProxyServer.settings(proxy.endpoint());
    s.put("s3.sse.type", "sse-kms");
    s.put("s3.sse.kms.key.id", "arn:aws:kms:us-east-1:123456789012:key/pqc-test");
    proxy.resetCounters();
    try (Store store = Stores.open(root("kms"), s)) {
      exercise(store);
    }
    List<String> creating = new ArrayList<>();
    for (String h : proxy.requestHeads()) {
      boolean isPart = h.startsWith("put ") && h.contains("partnumber=");
      if ((h.startsWith("put ") && !isPart) || (h.startsWith("post ") && h.contains("?uploads"))) {
        creating.add(h);
      }
    }
    assertEquals(3, creating.size(), "put, create upload, copy: " + creating);
    for (String h : creating) {
      assertTrue(h.contains("\r\nx-amz-server-side-encryption: aws:kms"), h);
      assertTrue(
          h.contains(
              "\r\nx-amz-server-side-encryption-aws-kms-key-id: "
                  + "arn:aws:kms:us-east-1:123456789012:key/pqc-test"),
          h);
    }
  }

  @Test
  void assumeRoleFetchesSessionCredentialsFromSts() throws Exception {
    List<String> stsBodies = new ArrayList<>();
    HttpServer sts =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sts.createContext(
        "/",
        ex -> {
          stsBodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] body =
              ("<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                      + "<AssumeRoleResult><Credentials>"
                      + "<AccessKeyId>"
                      + S3ProxyServer.ACCESS_KEY
                      + "</AccessKeyId>"
                      + "<SecretAccessKey>"
                      + S3ProxyServer.SECRET_KEY
                      + "</SecretAccessKey>"
                      + "<SessionToken>pqc-session-token</SessionToken>"
                      + "<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>"
                      + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/pqc/s</Arn>"
                      + "<AssumedRoleId>AROAPQC:s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult>"
                      + "<ResponseMetadata><RequestId>1</RequestId></ResponseMetadata>"
                      + "</AssumeRoleResponse>")
                  .getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "text/xml");
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    sts.start();
    try {
      Map<String, Object> s = S3ProxyServer.settings(proxy.endpoint());
      s.put("aws.access.key.id", "AKIABASEIDENTITY0001");
      s.put("aws.secret.access.key", Secret.of("base-secret-not-s3proxys"));
      s.put("aws.sts.role.arn", "arn:aws:iam::123456789012:role/pqc-writer");
      s.put("aws.sts.role.session.name", "pqc-test");
      s.put("aws.sts.external.id", Secret.of("ext-123"));
      s.put("aws.sts.endpoint", "http://127.0.0.1:" + sts.getAddress().getPort());
      proxy.resetCounters();
      try (Store store = Stores.open(root("sts"), s)) {
        exercise(store);
      }
      assertEquals(1, stsBodies.size(), stsBodies.toString());
      String req = java.net.URLDecoder.decode(stsBodies.get(0), StandardCharsets.UTF_8);
      assertTrue(req.contains("Action=AssumeRole"), req);
      assertTrue(req.contains("RoleArn=arn:aws:iam::123456789012:role/pqc-writer"), req);
      assertTrue(req.contains("RoleSessionName=pqc-test"), req);
      assertTrue(req.contains("ExternalId=ext-123"), req);
      for (String h : proxy.requestHeads()) {
        assertTrue(h.contains("\r\nx-amz-security-token: pqc-session-token"), h);
        assertTrue(h.contains("credential=" + S3ProxyServer.ACCESS_KEY.toLowerCase() + "/"), h);
      }
    } finally {
      sts.stop(0);
    }
  }

  @Test
  void tlsWithATruststoreAndRefusalWithout() throws Exception {
    Path dir = Files.createTempDirectory(Path.of("target"), "tls");
    Path keystore = dir.resolve("server.p12");
    Path cert = dir.resolve("server.crt");
    Path truststore = dir.resolve("trust.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    run(
        keytool,
        "-genkeypair",
        "-alias",
        "s3proxy",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass",
        "changeit",
        "-keypass",
        "changeit");
    run(
        keytool,
        "-exportcert",
        "-alias",
        "s3proxy",
        "-keystore",
        keystore.toString(),
        "-storepass",
        "changeit",
        "-rfc",
        "-file",
        cert.toString());
    run(
        keytool,
        "-importcert",
        "-noprompt",
        "-alias",
        "s3proxy",
        "-file",
        cert.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        truststore.toString(),
        "-storepass",
        "trustpass");
    try (S3ProxyServer tls = new S3ProxyServer(keystore.toString(), "changeit", false)) {
      String endpoint = "https://127.0.0.1:" + tls.securePort();
      Map<String, Object> s = S3ProxyServer.settings(endpoint);
      s.put("s3.tls.truststore.path", truststore.toString());
      s.put("s3.tls.truststore.password", Secret.of("trustpass"));
      try (Store store = Stores.open(root("tls"), s)) {
        exercise(store);
      }
      Map<String, Object> untrusted = S3ProxyServer.settings(endpoint);
      try (Store store = Stores.open(root("tls-untrusted"), untrusted)) {
        IOException e = assertThrows(IOException.class, () -> store.exists("x"));
        assertTrue(
            String.valueOf(e.getMessage()).toLowerCase().contains("certif")
                || String.valueOf(e.getMessage()).contains("PKIX"),
            e.getMessage());
      }
    }
  }

  private static void run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool hung");
    assertEquals(0, p.exitValue(), out);
  }
}
