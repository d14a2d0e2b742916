package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.ItPaths;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AccessController;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.util.Progressable;
import org.apache.kerby.kerberos.kerb.server.KdcConfigKey;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hadoop store's Kerberos login against a real KDC: Apache Kerby's SimpleKdcServer in-process
 * on 127.0.0.1 (TCP only) with a fresh realm and short tickets. The store runs over Hadoop's
 * LocalFileSystem ({@code file:} through {@link HadoopStore}, which needs no Kerberos itself),
 * observed by a subclass that records, at each file system call, the Hadoop user and its Kerberos
 * ticket-granting ticket: that is where HDFS's RPC client would pick up the credentials.
 *
 * <p>UGI is JVM-global: the KDC's krb5.conf is set before the first Kerberos use, and UGI is reset
 * to simple authentication afterwards so ITs later in the same fork are unaffected.
 */
class KerberosLoginIT {
  private static final Logger LOG = LoggerFactory.getLogger(KerberosLoginIT.class);

  private static final String REALM = "PQC.TEST";
  private static final String USER = "connect";
  private static final String PRINCIPAL = USER + "@" + REALM;
  private static final String OTHER_PRINCIPAL = "other@" + REALM;
  private static final String GONE_PRINCIPAL = "gone@" + REALM;

  /** Seconds: short, so that the first ticket expires within the test. */
  private static final long TICKET_LIFETIME_S = 20;

  private static SimpleKdcServer kdc;
  private static Path work;
  private static File keytab;
  private static File otherKeytab;
  private static File goneKeytab;
  private static String previousKrb5Conf;

  @BeforeAll
  static void startKdc() throws Exception {
    TestLogging.quietServers();
    // the KDC logs every AS request (and each pre-authentication round trip) at INFO
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.kerby", "warn");
    work = Path.of("target", "kdc-" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(work);
    kdc = new SimpleKdcServer();
    kdc.setWorkDir(work.toFile());
    kdc.setKdcHost("127.0.0.1");
    kdc.setKdcRealm(REALM);
    kdc.setAllowUdp(false);
    // below the ephemeral range, where no client connection can take it before the KDC binds it
    kdc.setKdcTcpPort(ItPaths.freePorts(1).get(0));
    kdc.getKdcConfig().setLong(KdcConfigKey.MAXIMUM_TICKET_LIFETIME, TICKET_LIFETIME_S);
    kdc.getKdcConfig().setLong(KdcConfigKey.MINIMUM_TICKET_LIFETIME, 1L);
    kdc.init();
    kdc.start();
    keytab = work.resolve("connect.keytab").toFile();
    otherKeytab = work.resolve("other.keytab").toFile();
    // one principal per keytab (createAndExportPrincipals would export every principal)
    kdc.createPrincipals(PRINCIPAL, OTHER_PRINCIPAL);
    kdc.exportPrincipal(PRINCIPAL, keytab);
    kdc.exportPrincipal(OTHER_PRINCIPAL, otherKeytab);
    // a keytab whose principal the KDC no longer knows (a deleted service account)
    goneKeytab = work.resolve("gone.keytab").toFile();
    kdc.createPrincipal(GONE_PRINCIPAL);
    kdc.exportPrincipal(GONE_PRINCIPAL, goneKeytab);
    kdc.deletePrincipal(GONE_PRINCIPAL);

    File krb5Conf = work.resolve("krb5.conf").toFile();
    assertTrue(krb5Conf.isFile(), "Kerby writes krb5.conf into its work directory");
    previousKrb5Conf = System.getProperty("java.security.krb5.conf");
    System.setProperty("java.security.krb5.conf", krb5Conf.getPath());
    UserGroupInformation.reset();
  }

  @AfterAll
  static void stopKdc() throws Exception {
    UserGroupInformation.reset();
    if (previousKrb5Conf == null) {
      System.clearProperty("java.security.krb5.conf");
    } else {
      System.setProperty("java.security.krb5.conf", previousKrb5Conf);
    }
    if (kdc != null) {
      kdc.stop();
    }
  }

  @Test
  void theKdcListensOnLoopbackOnly() throws IOException {
    assertEquals(List.of(), ListeningSockets.nonLoopback(), "sockets on other interfaces");
  }

  @BeforeEach
  void clearRecords() {
    RecordingLocalFileSystem.CALLS.clear();
  }

  private static Map<String, Object> settings(String principal, File keytabFile, long checkMs) {
    Map<String, Object> s = new HashMap<>();
    s.put("hdfs.kerberos.principal", principal);
    s.put("hdfs.kerberos.keytab", keytabFile.getPath());
    s.put("hdfs.kerberos.relogin.check.ms", String.valueOf(checkMs));
    // the real LocalFileSystem, observed (see RecordingLocalFileSystem)
    s.put("hadoop.config.fs.file.impl", RecordingLocalFileSystem.class.getName());
    // UGI refuses a re-login within 60 s of the last one by default; our tickets live 20 s
    s.put("hadoop.config.hadoop.kerberos.min.seconds.before.relogin", "1");
    return s;
  }

  private HadoopStore open(String name, String principal, File keytabFile, long checkMs)
      throws IOException {
    URI uri = work.resolve(name).toUri();
    return new HadoopStore(uri, new StoreSettings(settings(principal, keytabFile, checkMs)));
  }

  private static byte[] roundTrip(Store store, String key, String text) throws IOException {
    byte[] data = text.getBytes(StandardCharsets.UTF_8);
    try (StoreOutput out = store.create(key)) {
      out.write(data);
      out.commit();
    }
    assertTrue(store.exists(key));
    byte[] back;
    try (StoreInput in = store.open(key)) {
      back = new byte[(int) in.length()];
      in.readFully(0, back, 0, back.length);
    }
    assertArrayEquals(data, back);
    return back;
  }

  /** Every file system call ran as the Kerberos user, with a ticket-granting ticket. */
  private static List<Call> assertAllCallsKerberos() {
    List<Call> calls = new ArrayList<>(RecordingLocalFileSystem.CALLS);
    assertFalse(calls.isEmpty(), "the store called the file system");
    for (Call c : calls) {
      assertEquals(PRINCIPAL, c.userName, c.op);
      assertEquals(USER, c.shortName, c.op);
      assertEquals(AuthenticationMethod.KERBEROS, c.method, c.op);
      assertTrue(c.hasKerberosCredentials, c.op);
      assertTrue(c.tgt != null, c.op + ": a TGT in the caller's Subject");
      assertEquals("krbtgt/" + REALM + "@" + REALM, c.tgt.server());
      assertEquals(PRINCIPAL, c.tgt.client());
    }
    return calls;
  }

  @Test
  void storeOperationsRunAsTheKerberosUser() throws Exception {
    try (HadoopStore store = open("login", PRINCIPAL, keytab, 60_000)) {
      roundTrip(store, "a/b/one.parquet", "hello kerberos");
      store.move("a/b/one.parquet", "done/one.parquet");
      assertEquals(
          List.of("done/one.parquet"),
          store.list("done", true).stream().map(StoreFile::key).toList());
      store.delete("done/one.parquet");
      assertFalse(store.exists("done/one.parquet"));
      List<Call> calls = assertAllCallsKerberos();
      assertTrue(calls.stream().anyMatch(c -> c.op.equals("create")));
      assertTrue(calls.stream().anyMatch(c -> c.op.equals("open")));
    }
    // the store's login is its own: the JVM's login user is untouched (simple, the OS user)
    assertFalse(UserGroupInformation.getCurrentUser().hasKerberosCredentials());
  }

  @Test
  void theStoreKeepsWorkingAfterTheFirstTicketExpired() throws Exception {
    try (HadoopStore store = open("renewal", PRINCIPAL, keytab, 1_000)) {
      roundTrip(store, "first.parquet", "before expiry");
      Tgt first = assertAllCallsKerberos().get(0).tgt;
      long lifetimeMs = first.end().getTime() - first.start().getTime();
      assertTrue(
          lifetimeMs <= TICKET_LIFETIME_S * 1000,
          "the KDC capped the ticket at " + TICKET_LIFETIME_S + " s: " + lifetimeMs + " ms");

      // wait past the first ticket's end (plus the KDC's one-second granularity)
      long waitMs = first.end().getTime() - System.currentTimeMillis() + 2_000;
      if (waitMs > 0) {
        Thread.sleep(waitMs);
      }
      assertTrue(first.end().before(new Date()), "the first ticket has expired");

      RecordingLocalFileSystem.CALLS.clear();
      roundTrip(store, "second.parquet", "after expiry");
      for (Call c : assertAllCallsKerberos()) {
        assertTrue(c.tgt.end().after(first.end()), c.op + ": a new ticket, not the expired one");
        assertTrue(c.tgt.start().after(first.start()), c.op);
        assertTrue(c.tgt.current(), c.op + ": the ticket in use is valid");
      }
      assertTrue(store.exists("first.parquet"));
    }
  }

  @Test
  void aWrongPrincipalOrKeytabIsAClearError() throws Exception {
    // a principal the keytab has no key for
    IOException unknown =
        assertThrows(
            IOException.class, () -> open("wrong1", "nobody@" + REALM, keytab, 60_000).close());
    assertMentions(unknown, "nobody@" + REALM, keytab);

    // a known principal with another principal's keytab
    IOException mismatched =
        assertThrows(
            IOException.class, () -> open("wrong2", PRINCIPAL, otherKeytab, 60_000).close());
    assertMentions(mismatched, PRINCIPAL, otherKeytab);

    // a keytab for a principal the KDC does not know (any more): refused by the KDC
    IOException gone =
        assertThrows(
            IOException.class, () -> open("wrong4", GONE_PRINCIPAL, goneKeytab, 60_000).close());
    assertMentions(gone, GONE_PRINCIPAL, goneKeytab);

    // a keytab path that does not exist: refused before any Kerberos call
    File missing = work.resolve("missing.keytab").toFile();
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class,
            () -> open("wrong3", PRINCIPAL, missing, 60_000).close());
    assertTrue(none.getMessage().contains(missing.getPath()), none.getMessage());
  }

  private static void assertMentions(IOException e, String principal, File keytabFile) {
    String message = e.getMessage();
    LOG.info("Kerberos login error as reported: {}", message);
    assertTrue(message.contains(principal), "names the principal: " + message);
    assertTrue(message.contains(keytabFile.getPath()), "names the keytab: " + message);
  }

  /** What a file system call saw of its caller. */
  record Call(
      String op,
      String userName,
      String shortName,
      AuthenticationMethod method,
      boolean hasKerberosCredentials,
      Tgt tgt) {}

  /**
   * The TGT's facts, copied at the call: a re-login destroys the old ticket object (its times
   * become null).
   */
  record Tgt(String server, String client, Date start, Date end, boolean current) {}

  /**
   * Hadoop's LocalFileSystem, recording the calling Hadoop user and Kerberos TGT at the file
   * system's entry points the store calls (the checksummed local file system does the actual work).
   * Not {@code getFileStatus}: the checksummed input stream calls it from inside reads, and reads
   * on an open stream run outside the store's {@code doAs}, as on HDFS, where the client keeps the
   * user it was created with.
   */
  public static final class RecordingLocalFileSystem extends LocalFileSystem {
    static final List<Call> CALLS = java.util.Collections.synchronizedList(new ArrayList<>());

    @SuppressWarnings("removal")
    private static void record(String op) throws IOException {
      UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
      Subject subject = Subject.getSubject(AccessController.getContext());
      Tgt tgt = null;
      if (subject != null) {
        for (KerberosTicket t : subject.getPrivateCredentials(KerberosTicket.class)) {
          if (t.getServer().getName().startsWith("krbtgt/")) {
            tgt =
                new Tgt(
                    t.getServer().getName(),
                    t.getClient().getName(),
                    t.getStartTime(),
                    t.getEndTime(),
                    t.isCurrent());
          }
        }
      }
      CALLS.add(
          new Call(
              op,
              ugi.getUserName(),
              ugi.getShortUserName(),
              ugi.getAuthenticationMethod(),
              ugi.hasKerberosCredentials(),
              tgt));
    }

    @Override
    public FSDataOutputStream create(
        org.apache.hadoop.fs.Path f,
        FsPermission permission,
        boolean overwrite,
        int bufferSize,
        short replication,
        long blockSize,
        Progressable progress)
        throws IOException {
      record("create");
      return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      record("open");
      return super.open(f, bufferSize);
    }

    @Override
    public boolean mkdirs(org.apache.hadoop.fs.Path f, FsPermission permission) throws IOException {
      record("mkdirs");
      return super.mkdirs(f, permission);
    }

    @Override
    public FileStatus[] listStatus(org.apache.hadoop.fs.Path f) throws IOException {
      record("listStatus");
      return super.listStatus(f);
    }

    @Override
    public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst)
        throws IOException {
      record("rename");
      return super.rename(src, dst);
    }

    @Override
    public boolean delete(org.apache.hadoop.fs.Path f, boolean recursive) throws IOException {
      record("delete");
      return super.delete(f, recursive);
    }
  }
}
