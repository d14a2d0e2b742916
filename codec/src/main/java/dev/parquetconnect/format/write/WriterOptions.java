package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.SchemaElement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How {@link ParquetFileWriter} lays out a file: page and row group sizes, codec, encodings,
 * statistics, page checksums, bloom filters and footer metadata. Immutable; build with {@link
 * #builder()}. Per-column settings are keyed by the column's dotted path ({@code a.b.c}); paths a
 * file's schema lacks are ignored, so one set of options serves evolving schemas.
 */
public final class WriterOptions {
  public static final int DEFAULT_PAGE_BYTE_LIMIT = 1 << 20;

  /**
   * No row cap by default: pages are cut by {@link #DEFAULT_PAGE_BYTE_LIMIT} alone, as DuckDB cuts
   * them. A row cap (parquet-java and arrow-rs use 20,000) makes pages of narrow, well-compressed
   * columns small, and each page costs a header, page index entries, a fresh encoder block and a
   * fresh compression frame: 0.5-3% of the file on FileSizeTest's data.
   */
  public static final int DEFAULT_PAGE_ROW_LIMIT = Integer.MAX_VALUE;

  public static final int DEFAULT_DICTIONARY_BYTE_LIMIT = 1 << 20;
  public static final long DEFAULT_ROW_GROUP_BYTE_TARGET = 128L << 20;
  public static final long DEFAULT_ROW_GROUP_ROW_LIMIT = Integer.MAX_VALUE;
  public static final int DEFAULT_TRUNCATE_LENGTH = 64;

  private final int pageByteLimit;
  private final int pageRowLimit;
  private final int dictionaryByteLimit;
  private final long rowGroupByteTarget;
  private final long rowGroupRowLimit;
  private final CompressionCodec codec;
  private final int codecLevel;
  private final boolean dictionary;
  private final EncodingPolicy encodingPolicy;
  private final PageVersion pageVersion;
  private final boolean pageChecksums;
  private final boolean pageHeaderStatistics;
  private final boolean pageIndex;
  private final boolean alignedPages;
  private final int truncateLength;
  private final Map<String, ColumnOptions> columns;
  private final Map<String, BloomFilterOptions> bloomFilters;
  private final Map<String, String> keyValueMetadata;
  private final String createdBy;
  private final List<SchemaElement> footerSchema;

  private WriterOptions(Builder b) {
    this.pageByteLimit = b.pageByteLimit;
    this.pageRowLimit = b.pageRowLimit;
    this.dictionaryByteLimit = b.dictionaryByteLimit;
    this.rowGroupByteTarget = b.rowGroupByteTarget;
    this.rowGroupRowLimit = b.rowGroupRowLimit;
    this.codec = b.codec;
    this.codecLevel = b.codecLevel;
    this.dictionary = b.dictionary;
    this.encodingPolicy = b.encodingPolicy;
    this.pageVersion = b.pageVersion;
    this.pageChecksums = b.pageChecksums;
    this.pageHeaderStatistics = b.pageHeaderStatistics;
    this.pageIndex = b.pageIndex;
    this.alignedPages = b.alignedPages;
    this.truncateLength = b.truncateLength;
    this.columns = Collections.unmodifiableMap(new LinkedHashMap<>(b.columns));
    this.bloomFilters = Collections.unmodifiableMap(new LinkedHashMap<>(b.bloomFilters));
    this.keyValueMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(b.keyValueMetadata));
    this.createdBy = b.createdBy;
    this.footerSchema = b.footerSchema;
  }

  /**
   * The defaults: pages of about 1 MiB (no row cap), 128 MiB row groups, ZSTD, v1 pages, CRCs on,
   * page index on.
   */
  public static WriterOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options, to change a few. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The created_by every file written without an override carries. */
  public static String defaultCreatedBy() {
    return "kafka-connect-parquet version " + ProjectVersion.VERSION;
  }

  /** A data page is closed at the first record start after its values reach this many bytes. */
  public int pageByteLimit() {
    return pageByteLimit;
  }

  /**
   * A data page holds at most this many records (rows); {@link Integer#MAX_VALUE}, the default, for
   * no cap.
   *
   * <p>A cap trades size for page-index granularity. Without one, a column whose values encode to a
   * byte or two (sorted ids and timestamps under DELTA_BINARY_PACKED) gets pages of several hundred
   * thousand rows, so a reader pruning by that column's page index skips in steps that large; wide
   * columns reach the byte limit long before. Set 20,000 (parquet-java's and arrow-rs's default)
   * when engines prune row ranges by page index on such columns; files then grow by 0.5-3%
   * (FileSizeTest).
   */
  public int pageRowLimit() {
    return pageRowLimit;
  }

  /** A column's dictionary passing this many bytes makes the following pages fall back. */
  public int dictionaryByteLimit() {
    return dictionaryByteLimit;
  }

  /** A row group is closed once the bytes it buffers reach this target. */
  public long rowGroupByteTarget() {
    return rowGroupByteTarget;
  }

  /** A row group holds at most this many rows. */
  public long rowGroupRowLimit() {
    return rowGroupRowLimit;
  }

  public CompressionCodec codec() {
    return codec;
  }

  public int codecLevel() {
    return codecLevel;
  }

  /** Whether columns try dictionary encoding first (booleans never do). */
  public boolean dictionary() {
    return dictionary;
  }

  public EncodingPolicy encodingPolicy() {
    return encodingPolicy;
  }

  public PageVersion pageVersion() {
    return pageVersion;
  }

  /** Whether every page header carries the CRC32 of the page bytes. */
  public boolean pageChecksums() {
    return pageChecksums;
  }

  /**
   * Whether data page headers carry statistics too. Off by default: the column index holds the same
   * per-page bounds where readers look for them, and PageIndex.md advises against both.
   */
  public boolean pageHeaderStatistics() {
    return pageHeaderStatistics;
  }

  /** Whether column indexes and offset indexes are written (on by default). */
  public boolean pageIndex() {
    return pageIndex;
  }

  /**
   * Whether the data pages of a row group's columns end at the same rows (on by default): every
   * column closes its page at the end of the record after which any column's page is full, rather
   * than each column where its own page fills.
   *
   * <p>Readers that prune pages by the column index must skip, in each column, the rows of pages
   * they did not select, and where page boundaries differ between columns that means skipping part
   * of a page. parquet-java's record reader up to 1.16 (so Spark's with vectorization off, Hive and
   * others) gets that wrong when the last selected row of a row group lies in a later page than the
   * one it is skipping in: it returns a value of an earlier row (apache/parquet-java#3747). With
   * aligned pages a selected row range is always whole pages of every column, so nothing is ever
   * skipped inside a page. The cost: narrow columns get as many pages as the widest one (page
   * headers and index entries, a few bytes each; see docs/performance.md). Pages cut this way only
   * when records are written one at a time (the connectors, {@link ParquetFileWriter#write}); the
   * batch methods of {@link ColumnChunkWriter} cut each column where it fills.
   */
  public boolean alignedPages() {
    return alignedPages;
  }

  /** Binary min/max in statistics and column indexes are truncated to this many bytes. */
  public int truncateLength() {
    return truncateLength;
  }

  /** The overrides of one column, {@link ColumnOptions#NONE} when it has none. */
  public ColumnOptions column(String dottedPath) {
    return columns.getOrDefault(dottedPath, ColumnOptions.NONE);
  }

  public Map<String, ColumnOptions> columns() {
    return columns;
  }

  /** The bloom filter of one column, or null when it has none. */
  public BloomFilterOptions bloomFilter(String dottedPath) {
    return bloomFilters.get(dottedPath);
  }

  public Map<String, BloomFilterOptions> bloomFilters() {
    return bloomFilters;
  }

  public Map<String, String> keyValueMetadata() {
    return keyValueMetadata;
  }

  public String createdBy() {
    return createdBy;
  }

  /**
   * The footer's schema elements exactly as given to {@link Builder#footerSchema}, or null to
   * derive them from the writer's schema (every logical type with its converted type beside it).
   */
  public List<SchemaElement> footerSchema() {
    return footerSchema;
  }

  /** Collects settings; every setter checks its argument. */
  public static final class Builder {
    private int pageByteLimit = DEFAULT_PAGE_BYTE_LIMIT;
    private int pageRowLimit = DEFAULT_PAGE_ROW_LIMIT;
    private int dictionaryByteLimit = DEFAULT_DICTIONARY_BYTE_LIMIT;
    private long rowGroupByteTarget = DEFAULT_ROW_GROUP_BYTE_TARGET;
    private long rowGroupRowLimit = DEFAULT_ROW_GROUP_ROW_LIMIT;
    private CompressionCodec codec = CompressionCodec.ZSTD;
    private int codecLevel = Codecs.DEFAULT_LEVEL;
    private boolean dictionary = true;
    private EncodingPolicy encodingPolicy = EncodingPolicy.ADAPTIVE;
    private PageVersion pageVersion = PageVersion.V1;
    private boolean pageChecksums = true;
    private boolean pageHeaderStatistics;
    private boolean pageIndex = true;
    private boolean alignedPages = true;
    private int truncateLength = DEFAULT_TRUNCATE_LENGTH;
    private final Map<String, ColumnOptions> columns = new LinkedHashMap<>();
    private final Map<String, BloomFilterOptions> bloomFilters = new LinkedHashMap<>();
    private final Map<String, String> keyValueMetadata = new LinkedHashMap<>();
    private String createdBy = defaultCreatedBy();
    private List<SchemaElement> footerSchema;

    private Builder() {}

    private Builder(WriterOptions o) {
      pageByteLimit = o.pageByteLimit;
      pageRowLimit = o.pageRowLimit;
      dictionaryByteLimit = o.dictionaryByteLimit;
      rowGroupByteTarget = o.rowGroupByteTarget;
      rowGroupRowLimit = o.rowGroupRowLimit;
      codec = o.codec;
      codecLevel = o.codecLevel;
      dictionary = o.dictionary;
      encodingPolicy = o.encodingPolicy;
      pageVersion = o.pageVersion;
      pageChecksums = o.pageChecksums;
      pageHeaderStatistics = o.pageHeaderStatistics;
      pageIndex = o.pageIndex;
      alignedPages = o.alignedPages;
      truncateLength = o.truncateLength;
      columns.putAll(o.columns);
      bloomFilters.putAll(o.bloomFilters);
      keyValueMetadata.putAll(o.keyValueMetadata);
      createdBy = o.createdBy;
      footerSchema = o.footerSchema;
    }

    public Builder pageByteLimit(int bytes) {
      this.pageByteLimit = positive(bytes, "page byte limit");
      return this;
    }

    public Builder pageRowLimit(int rows) {
      this.pageRowLimit = positive(rows, "page row limit");
      return this;
    }

    public Builder dictionaryByteLimit(int bytes) {
      this.dictionaryByteLimit = positive(bytes, "dictionary byte limit");
      return this;
    }

    public Builder rowGroupByteTarget(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("row group byte target must be positive: " + bytes);
      }
      this.rowGroupByteTarget = bytes;
      return this;
    }

    public Builder rowGroupRowLimit(long rows) {
      if (rows <= 0) {
        throw new IllegalArgumentException("row group row limit must be positive: " + rows);
      }
      this.rowGroupRowLimit = rows;
      return this;
    }

    /** The codec of every column without an override, at its default level. */
    public Builder codec(CompressionCodec newCodec) {
      return codec(newCodec, Codecs.DEFAULT_LEVEL);
    }

    /** The codec and level ({@link Codecs#DEFAULT_LEVEL} for the codec's default). */
    public Builder codec(CompressionCodec newCodec, int level) {
      this.codec = Objects.requireNonNull(newCodec, "codec");
      this.codecLevel = level;
      return this;
    }

    public Builder dictionary(boolean enabled) {
      this.dictionary = enabled;
      return this;
    }

    public Builder encodingPolicy(EncodingPolicy policy) {
      this.encodingPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    public Builder pageVersion(PageVersion version) {
      this.pageVersion = Objects.requireNonNull(version, "version");
      return this;
    }

    public Builder pageChecksums(boolean enabled) {
      this.pageChecksums = enabled;
      return this;
    }

    public Builder pageHeaderStatistics(boolean enabled) {
      this.pageHeaderStatistics = enabled;
      return this;
    }

    public Builder alignedPages(boolean enabled) {
      this.alignedPages = enabled;
      return this;
    }

    public Builder pageIndex(boolean enabled) {
      this.pageIndex = enabled;
      return this;
    }

    public Builder truncateLength(int bytes) {
      this.truncateLength = positive(bytes, "truncate length");
      return this;
    }

    /** Replaces the overrides of the column at {@code dottedPath}. */
    public Builder column(String dottedPath, ColumnOptions options) {
      columns.put(Objects.requireNonNull(dottedPath, "path"), Objects.requireNonNull(options));
      return this;
    }

    /** Overrides one column's codec. */
    public Builder columnCodec(String dottedPath, CompressionCodec newCodec, int level) {
      return column(dottedPath, current(dottedPath).withCodec(newCodec, level));
    }

    /** Overrides one column's encoding of pages that are not dictionary-encoded. */
    public Builder columnEncoding(String dottedPath, Encoding encoding) {
      return column(dottedPath, current(dottedPath).withEncoding(encoding));
    }

    /** Turns one column's dictionary on or off. */
    public Builder columnDictionary(String dottedPath, boolean enabled) {
      return column(dottedPath, current(dottedPath).withDictionary(enabled));
    }

    /** Turns one column's statistics and column index on or off. */
    public Builder columnStatistics(String dottedPath, boolean enabled) {
      return column(dottedPath, current(dottedPath).withStatistics(enabled));
    }

    private ColumnOptions current(String dottedPath) {
      return columns.getOrDefault(dottedPath, ColumnOptions.NONE);
    }

    public Builder bloomFilter(String dottedPath, long expectedDistinctValues, double fpp) {
      bloomFilters.put(
          Objects.requireNonNull(dottedPath, "path"),
          new BloomFilterOptions(expectedDistinctValues, fpp));
      return this;
    }

    public Builder keyValue(String key, String value) {
      keyValueMetadata.put(Objects.requireNonNull(key, "key"), value);
      return this;
    }

    public Builder createdBy(String value) {
      this.createdBy = Objects.requireNonNull(value, "createdBy");
      return this;
    }

    /**
     * Writes these schema elements into the footer as they are, instead of the ones the writer's
     * schema gives. A rewrite keeps its input's annotations so: a column annotated only with a
     * legacy converted type reads as a logical type derived from it, and writing that logical type
     * back would change how engines type the column (DuckDB reads a TIMESTAMP_MILLIS column as
     * TIMESTAMP, but TIMESTAMP(isAdjustedToUTC=true) as TIMESTAMP WITH TIME ZONE). The writer
     * refuses elements that do not describe its schema. Null (the default) derives them.
     */
    public Builder footerSchema(List<SchemaElement> elements) {
      this.footerSchema = elements == null ? null : List.copyOf(elements);
      return this;
    }

    public WriterOptions build() {
      return new WriterOptions(this);
    }

    private static int positive(int value, String what) {
      if (value <= 0) {
        throw new IllegalArgumentException(what + " must be positive: " + value);
      }
      return value;
    }
  }
}
