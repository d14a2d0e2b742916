package dev.parquetconnect.config;

import dev.parquetconnect.storage.StoreSettings;
import dev.parquetconnect.storage.StoreUrls;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * The store settings of docs/storage.md (the {@code S3} and {@code HDFS} groups) as ConfigDef keys,
 * and the rules between them. Both connectors define them in their own ConfigDef, so that the REST
 * validate call checks them (and masks the secrets) for the source as for the sink: before, the
 * source passed them to the store unchecked, and a bad value failed only when a task opened the
 * store.
 */
public final class StoreConfigDef {
  private static final String GROUP_S3 = "S3";
  private static final String GROUP_HDFS = "HDFS";

  /** Any Hadoop property, passed to a Hadoop store with this prefix removed. */
  public static final String HADOOP_CONFIG_PREFIX = "hadoop.config.";

  /** Every key {@link #define} adds. */
  public static final Set<String> KEYS = Set.copyOf(defined(new ConfigDef()).names());

  private static final long MIB = 1024L * 1024;

  private StoreConfigDef() {}

  /** Adds the S3 and HDFS keys to {@code def}. */
  public static void define(ConfigDef def) {
    defined(def);
  }

  private static ConfigDef defined(ConfigDef def) {
    defineS3(def);
    defineHdfs(def);
    return def;
  }

  /**
   * The rules between store settings that fail, each reported on one key and moot when one of the
   * keys it involves has an error of its own. Blank counts as absent, as {@link StoreSettings}
   * reads it: an empty secret next to an access key is refused here, not when a task builds its S3
   * client.
   *
   * @param parsed the parsed value of a key, {@code null} when absent or invalid
   */
  public static List<ConfigProblem> problems(Function<String, Object> parsed) {
    List<ConfigProblem> problems = new ArrayList<>();
    Object sse = parsed.apply("s3.sse.type");
    if (sse != null
        && "sse-c".equalsIgnoreCase(sse.toString().trim())
        && !given(parsed, "s3.sse.c.key")) {
      problems.add(
          ConfigProblem.about(
              "s3.sse.c.key", "s3.sse.c.key: s3.sse.type=sse-c needs the key", "s3.sse.type"));
    }
    checkPair(parsed, problems, "aws.access.key.id", "aws.secret.access.key");
    // The HDFS store refuses one without the other when a task opens it.
    checkPair(parsed, problems, "hdfs.kerberos.principal", "hdfs.kerberos.keytab");
    return problems;
  }

  /** Both keys or neither; the error goes on the missing one. */
  private static void checkPair(
      Function<String, Object> parsed, List<ConfigProblem> problems, String first, String second) {
    boolean hasFirst = given(parsed, first);
    if (hasFirst != given(parsed, second)) {
      String missing = hasFirst ? second : first;
      problems.add(
          ConfigProblem.about(
              missing, first + " and " + second + " go together", hasFirst ? first : second));
    }
  }

  /** Whether a key has a non-blank value (a Kafka {@code Password}'s without revealing it). */
  private static boolean given(Function<String, Object> parsed, String key) {
    Object value = parsed.apply(key);
    String text = value instanceof Password p ? p.value() : value == null ? null : value.toString();
    return text != null && !text.isBlank();
  }

  private static void defineS3(ConfigDef def) {
    int order = 0;
    ConfigDef.Recommender s3 = VisibleWhen.matching(StoreUrls.KEY, StoreConfigDef::isS3Url);
    defineStore(
        def,
        "s3.region",
        Type.STRING,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "The bucket's region; default the SDK's region chain, us-east-1 when s3.endpoint is set.");
    defineStore(
        def,
        "s3.endpoint",
        Type.STRING,
        null,
        new EndpointValidator(),
        GROUP_S3,
        ++order,
        s3,
        "http(s)://host:port of an S3-compatible store (MinIO, Ceph RGW, R2, ...); default AWS.");
    defineStore(
        def,
        "s3.path.style.access",
        Type.BOOLEAN,
        false,
        null,
        GROUP_S3,
        ++order,
        s3,
        "Address buckets as http://host/bucket/key (most S3-compatible stores need it).");
    defineStore(
        def,
        "aws.access.key.id",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "Static credentials; default the SDK's chain (environment, profile, web identity, "
            + "container and instance roles).");
    defineStore(
        def,
        "aws.secret.access.key",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "The secret of aws.access.key.id.");
    defineStore(
        def,
        "aws.session.token",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "A session token for temporary static credentials.");
    defineStore(
        def,
        "aws.sts.role.arn",
        Type.STRING,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "Assume this role (STS AssumeRole) with the credentials above; refreshed before expiry.");
    defineStore(
        def,
        "aws.sts.role.session.name",
        Type.STRING,
        "kafka-connect-parquet",
        null,
        GROUP_S3,
        ++order,
        s3,
        "The session name of the assumed role.");
    defineStore(
        def,
        "aws.sts.external.id",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "The external id the role's trust policy asks for.");
    defineStore(
        def,
        "aws.sts.duration.seconds",
        Type.INT,
        3600,
        Range.between(900, 43_200),
        GROUP_S3,
        ++order,
        s3,
        "The lifetime of assumed-role sessions.");
    defineStore(
        def,
        "aws.sts.region",
        Type.STRING,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "STS region; default s3.region (else us-east-1).");
    defineStore(
        def,
        "aws.sts.endpoint",
        Type.STRING,
        null,
        new EndpointValidator(),
        GROUP_S3,
        ++order,
        s3,
        "STS endpoint; default AWS.");
    defineStore(
        def,
        "s3.sse.type",
        Type.STRING,
        "none",
        ConfigDef.CaseInsensitiveValidString.in("none", "sse-s3", "sse-kms", "sse-c"),
        GROUP_S3,
        ++order,
        s3,
        "Server-side encryption: none, sse-s3, sse-kms or sse-c.");
    defineStore(
        def,
        "s3.sse.kms.key.id",
        Type.STRING,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "For sse-kms: the KMS key; default the account's S3 key.");
    defineStore(
        def,
        "s3.sse.c.key",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "For sse-c: base64 of a 256-bit key, sent with every object request.");
    defineStore(
        def,
        "s3.tls.truststore.path",
        Type.STRING,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "A trust store with the private CA of an https:// endpoint; default the JVM's.");
    defineStore(
        def,
        "s3.tls.truststore.password",
        Type.PASSWORD,
        null,
        null,
        GROUP_S3,
        ++order,
        s3,
        "The trust store's password.");
    defineStore(
        def,
        "s3.tls.truststore.type",
        Type.STRING,
        "PKCS12",
        null,
        GROUP_S3,
        ++order,
        s3,
        "The trust store's type.");
    defineStore(
        def,
        "s3.part.size",
        Type.LONG,
        8 * MIB,
        Range.between(5 * MIB, 512 * MIB),
        GROUP_S3,
        ++order,
        s3,
        "Multipart part size: the heap each open file holds for its upload (counted in "
            + "buffer.max.bytes).");
    defineStore(
        def,
        "s3.copy.part.size",
        Type.LONG,
        512 * MIB,
        Range.between(5 * MIB, 5120 * MIB),
        GROUP_S3,
        ++order,
        s3,
        "Part size of server-side copies.");
    defineStore(
        def,
        "s3.conditional.writes",
        Type.BOOLEAN,
        true,
        null,
        GROUP_S3,
        ++order,
        s3,
        "Send If-None-Match: * so that no commit replaces an object (the fencing of zombie "
            + "writers); false only for stores that reject the header.");
    defineStore(
        def,
        "s3.checksum.calculation",
        Type.STRING,
        "when_supported",
        ConfigDef.CaseInsensitiveValidString.in("when_supported", "when_required"),
        GROUP_S3,
        ++order,
        s3,
        "The SDK's upload checksums; when_required for stores that do not understand its "
            + "checksum trailers.");
    defineStore(
        def,
        "s3.retry.max.attempts",
        Type.INT,
        10,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "Attempts per request (5xx, throttling and connection errors are retried).");
    defineStore(
        def,
        "s3.retry.base.delay.ms",
        Type.LONG,
        100L,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "Base of the exponential backoff with full jitter.");
    defineStore(
        def,
        "s3.retry.max.delay.ms",
        Type.LONG,
        10_000L,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "Cap of the backoff.");
    defineStore(
        def,
        "s3.max.connections",
        Type.INT,
        50,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "HTTP connection pool size.");
    defineStore(
        def,
        "s3.connect.timeout.ms",
        Type.LONG,
        10_000L,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "TCP connect timeout.");
    defineStore(
        def,
        "s3.socket.timeout.ms",
        Type.LONG,
        50_000L,
        Range.atLeast(1),
        GROUP_S3,
        ++order,
        s3,
        "Socket read timeout.");
  }

  private static void defineHdfs(ConfigDef def) {
    int order = 0;
    ConfigDef.Recommender hdfs = VisibleWhen.matching(StoreUrls.KEY, StoreConfigDef::isHadoopUrl);
    defineStore(
        def,
        "hadoop.conf.dir",
        Type.STRING,
        null,
        null,
        GROUP_HDFS,
        ++order,
        hdfs,
        "A directory whose core-site.xml and hdfs-site.xml are loaded (HA nameservices, RPC "
            + "protection, ...). Any Hadoop property can also be set as hadoop.config.<name>.");
    defineStore(
        def,
        "hdfs.user",
        Type.STRING,
        null,
        null,
        GROUP_HDFS,
        ++order,
        hdfs,
        "The user for simple (non-Kerberos) authentication; default the worker's OS user.");
    defineStore(
        def,
        "hdfs.kerberos.principal",
        Type.STRING,
        null,
        null,
        GROUP_HDFS,
        ++order,
        hdfs,
        "Kerberos principal (full, no _HOST); with the keytab, turns Kerberos on.");
    defineStore(
        def,
        "hdfs.kerberos.keytab",
        Type.STRING,
        null,
        null,
        GROUP_HDFS,
        ++order,
        hdfs,
        "Path of the keytab on every worker.");
    defineStore(
        def,
        "hdfs.kerberos.relogin.check.ms",
        Type.LONG,
        60_000L,
        Range.atLeast(1000),
        GROUP_HDFS,
        ++order,
        hdfs,
        "How often the ticket is checked and renewed from the keytab.");
  }

  private static void defineStore(
      ConfigDef def,
      String name,
      Type type,
      Object defaultValue,
      ConfigDef.Validator validator,
      String group,
      int order,
      ConfigDef.Recommender recommender,
      String doc) {
    def.define(
        name,
        type,
        defaultValue,
        validator,
        Importance.LOW,
        doc + " See docs/storage.md.",
        group,
        order,
        Width.MEDIUM,
        name,
        List.of(StoreUrls.KEY),
        recommender);
  }

  /** Whether the S3 keys apply: an s3 URL, or none given yet. */
  private static boolean isS3Url(Object url) {
    return url == null || url.toString().trim().toLowerCase(Locale.ROOT).startsWith("s3:");
  }

  /** Whether the Hadoop keys apply: any scheme but s3 and file, or none given yet. */
  private static boolean isHadoopUrl(Object url) {
    if (url == null) {
      return true;
    }
    String text = url.toString().trim().toLowerCase(Locale.ROOT);
    return !text.startsWith("s3:") && !text.startsWith("file:");
  }
}
