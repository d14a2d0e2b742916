package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.IcebergSchemas;
import dev.parquetconnect.iceberg.SchemaUpdates;
import dev.parquetconnect.storage.DelegatedCredentials;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's tables: the catalog, the table of each topic (loaded once, refreshed by the commits),
 * creation of a missing table and the widening of a table's schema. Called from the task's thread.
 *
 * <p>Every table the sink writes gets a name mapping ({@code schema.name-mapping.default}) that
 * follows its schema: Iceberg's readers find a data file's columns by name through it whatever
 * field ids the file carries.
 */
public final class IcebergTables implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergTables.class);

  private final Catalog catalog;
  private final IcebergSettings settings;
  private final TableBindings bindings;
  private final Map<String, Table> tables = new HashMap<>();
  private DelegatedCredentials dataStoreCredentials;

  public IcebergTables(Catalog catalog, IcebergSettings settings, TableBindings bindings) {
    this.catalog = catalog;
    this.settings = settings;
    this.bindings = bindings;
  }

  /**
   * Hands the credentials a catalog vends with a table (its FileIO's properties, {@link
   * VendedCredentials}) to {@code holder}, the data files' store's, whenever a table is loaded.
   */
  public void shareVendedCredentials(DelegatedCredentials holder) {
    this.dataStoreCredentials = holder;
  }

  public IcebergSettings settings() {
    return settings;
  }

  /** The table of a topic's records. */
  public TableIdentifier identifier(String topic) {
    return TableIdentifier.parse(TableNames.resolve(settings.tableTemplate(), topic));
  }

  /**
   * The table of a topic, refreshed; null when it does not exist (yet).
   *
   * @throws IOException when the catalog fails
   */
  public Table load(String topic) throws IOException {
    Table table = tables.get(topic);
    try {
      if (table != null
          && VendedCredentials.expiring(table.io().properties(), System.currentTimeMillis())) {
        // A refresh keeps the FileIO and its credentials; a load gets new ones.
        LOG.info("the credentials vended with {} expire soon: loading it again", table.name());
        table = null;
      }
      if (table != null) {
        table.refresh();
        return table;
      }
      table = catalog.loadTable(identifier(topic));
      shareCredentialsOf(table);
    } catch (NoSuchTableException e) {
      tables.remove(topic);
      return null;
    } catch (RuntimeException e) {
      throw IcebergCatalogs.asIOException("loading table " + identifier(topic), e);
    }
    tables.put(topic, table);
    return table;
  }

  /**
   * The table of a topic, created for files of {@code written} when missing and {@code
   * iceberg.table.auto-create} allows it.
   */
  public Table loadOrCreate(String topic, MessageType written) throws IOException {
    Table table = load(topic);
    if (table != null) {
      return table;
    }
    TableIdentifier id = identifier(topic);
    if (!settings.autoCreate()) {
      throw new IOException(
          "table "
              + id
              + " does not exist and "
              + IcebergConfig.TABLE_AUTO_CREATE_CONFIG
              + "=false: create it, or allow the sink to");
    }
    try {
      createNamespace(id.namespace());
      Schema schema = bindings.newTableSchema(written);
      PartitionSpec spec = bindings.newTableSpec(settings.partitionSpec(), schema);
      Map<String, String> properties = new HashMap<>(settings.tableProperties());
      properties.putIfAbsent(TableProperties.FORMAT_VERSION, "2");
      table =
          catalog
              .buildTable(id, schema)
              .withPartitionSpec(spec)
              .withProperties(properties)
              .create();
      LOG.info("created table {} (spec {}, schema {})", id, spec, table.schema());
      shareCredentialsOf(table);
    } catch (AlreadyExistsException e) {
      LOG.info("table {} was created meanwhile by another task", id);
      table = load(topic);
      if (table == null) {
        throw new IOException("table " + id + " exists and cannot be loaded", e);
      }
      return table;
    } catch (RuntimeException e) {
      throw IcebergCatalogs.asIOException("creating table " + id, e);
    }
    tables.put(topic, table);
    updateNameMapping(table);
    return table;
  }

  /**
   * What a new data file of a topic's table is written with: its Parquet schema given the table's
   * field ids, the table created or widened first when it cannot hold the file (so every column of
   * every file has its id before a row is written).
   *
   * @return a hook that throws {@link UncheckedIOException} when the catalog fails (the writer then
   *     backs off and retries) and {@link DataException} when the table cannot hold the record's
   *     schema (a bad record: the dead letter queue or a failed task, as configured)
   */
  public UnaryOperator<MessageType> fileSchema(String topic) {
    return written -> {
      try {
        Table table = tables.get(topic);
        if (table == null) {
          table = loadOrCreate(topic, written);
        } else if (!SchemaUpdates.fits(table.schema(), written)) {
          table.refresh();
        }
        if (!SchemaUpdates.fits(table.schema(), written)) {
          evolve(table, written);
        }
        return IcebergSchemas.withFieldIds(written, table.schema());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (SchemaRefused e) {
        throw new DataException(e.getMessage(), e);
      } catch (RuntimeException e) {
        if (e instanceof DataException) {
          throw e;
        }
        throw new UncheckedIOException(
            IcebergCatalogs.asIOException("widening table " + identifier(topic), e));
      }
    };
  }

  private void shareCredentialsOf(Table table) {
    if (dataStoreCredentials == null) {
      return;
    }
    DelegatedCredentials.Current vended = VendedCredentials.of(table.io().properties());
    if (vended != null) {
      dataStoreCredentials.update(vended);
      LOG.info(
          "the data files of {} go to the store with the {} it was vended", table.name(), vended);
    }
  }

  private void createNamespace(Namespace namespace) {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespace.isEmpty()
        && !namespaces.namespaceExists(namespace)) {
      try {
        namespaces.createNamespace(namespace);
      } catch (AlreadyExistsException e) {
        // Another task made it: what was wanted.
      }
    }
  }

  /**
   * Widens the table's schema for files of {@code written} (new columns, wider types), with the
   * name mapping in the same transaction; nothing when it holds them already.
   *
   * @throws SchemaRefused when the change is incompatible or {@code iceberg.schema.evolve=false}
   */
  public void evolve(Table table, MessageType written) throws SchemaRefused {
    Transaction transaction = table.newTransaction();
    org.apache.iceberg.UpdateSchema update = transaction.updateSchema();
    var refused = bindings.evolve(update, table.schema(), written);
    if (refused.isPresent()) {
      throw new SchemaRefused(table.name() + ": " + refused.get());
    }
    Schema wider = update.apply();
    if (wider.sameSchema(table.schema())) {
      return;
    }
    if (!settings.evolveSchema()) {
      throw new SchemaRefused(
          table.name()
              + " cannot hold the record without a schema change ("
              + SchemaUpdates.describeChanges(table.schema(), wider)
              + ") and "
              + IcebergConfig.SCHEMA_EVOLVE_CONFIG
              + "=false");
    }
    update.commit();
    transaction
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(transaction.table().schema())))
        .commit();
    transaction.commitTransaction();
    LOG.info("widened the schema of {} to {}", table.name(), table.schema());
  }

  private static void updateNameMapping(Table table) {
    table
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(table.schema())))
        .commit();
  }

  /** The table's schema cannot take the files of a commit. */
  public static final class SchemaRefused extends Exception {
    SchemaRefused(String message) {
      super(message);
    }
  }

  @Override
  public void close() throws IOException {
    tables.clear();
    if (catalog instanceof Closeable closeable) {
      closeable.close();
    }
  }
}
