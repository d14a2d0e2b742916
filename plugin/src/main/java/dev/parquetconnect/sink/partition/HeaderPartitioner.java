package dev.parquetconnect.sink.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One directory level per configured header ({@code partition.header.name}), named after the
 * header: {@code tenant=acme/}. When a header repeats, its last value counts; a missing header goes
 * to {@link HivePaths#DEFAULT_PARTITION}.
 */
final class HeaderPartitioner implements Partitioner {
  private final List<String> headers;

  HeaderPartitioner(List<String> headerNames) {
    if (headerNames.isEmpty()) {
      throw new IllegalArgumentException("the header partitioner needs at least one header");
    }
    this.headers = List.copyOf(headerNames);
  }

  @Override
  public void configure(Map<String, String> config) {}

  @Override
  public boolean readsValue() {
    return false;
  }

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    List<PartitionColumn> columns = new ArrayList<>(headers.size());
    for (String name : headers) {
      Header header = record.headers().lastWithName(name);
      String value =
          header == null
              ? null
              : RecordFields.text(
                  new RecordFields.Found(header.value(), header.schema()), "header '" + name + "'");
      columns.add(new PartitionColumn(name, value));
    }
    return columns;
  }
}
