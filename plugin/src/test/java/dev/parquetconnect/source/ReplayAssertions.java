package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.source.SinkArchive.Original;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/** Checks a replayed record against the original the sink archived, part by part. */
final class ReplayAssertions {
  private ReplayAssertions() {}

  static void assertReplayed(Original o, SourceRecord r) {
    String what = "record " + o.topic() + "-" + o.partition() + "@" + o.offset();
    assertEquals(o.topic(), r.topic(), what);
    assertEquals(o.partition(), r.kafkaPartition(), what);
    assertEquals(o.timestamp(), r.timestamp(), what);
    // A null key goes out without schema (docs/source.md, Records): every converter writes it
    // as a null key, whatever schema it had.
    assertEquals(o.key() == null ? null : SinkArchive.KEY, r.keySchema(), what);
    assertEquals(o.key(), r.key(), what);
    assertEquals(SinkArchive.VALUE, r.valueSchema(), what + ": the schema the sink saw");
    assertEquals(o.value(), r.value(), what);
    assertEquals(headers(o.connectHeaders()), headers(r.headers()), what);
  }

  /** Key, schema and value of each header, in order. */
  private static List<String> headers(Iterable<Header> headers) {
    List<String> out = new ArrayList<>();
    for (Header h : headers) {
      out.add(h.key() + ":" + h.schema() + "=" + h.value());
    }
    return out;
  }
}
