package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ports and log reading the integration-test servers rely on. */
final class ItPathsTest {

  @Test
  void freePortsAreDistinctBindableAndBelowTheEphemeralRange() throws IOException {
    List<Integer> ports = ItPaths.freePorts(40);
    Set<Integer> all = new HashSet<>(ports);
    all.addAll(ItPaths.freePorts(40));
    assertEquals(80, all.size(), "never the same port twice within a JVM");
    assertTrue(ItPaths.ephemeralRangeStart() > 21_000, "the ephemeral range read from /proc");
    for (int port : ports) {
      assertTrue(port >= 20_000 && port < ItPaths.ephemeralRangeStart(), "port " + port);
      try (ServerSocket server = new ServerSocket()) {
        server.bind(new InetSocketAddress(InetAddress.getByName(ItPaths.LOOPBACK), port));
      }
    }
  }

  @Test
  void aLaunchLogIsReadFromWhereItBegan(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("worker.log");
    assertEquals(0, ItPaths.size(log));
    assertEquals("", ItPaths.readFrom(log, 0));
    Files.writeString(log, "first run: java.net.BindException: Address already in use\n");
    long start = ItPaths.size(log);
    Files.writeString(log, "second run: started\n", StandardOpenOption.APPEND);
    assertTrue(ItPaths.saysPortInUse(ItPaths.readFrom(log, 0)));
    assertFalse(ItPaths.saysPortInUse(ItPaths.readFrom(log, start)));
    assertEquals("second run: started\n", ItPaths.readFrom(log, start));
  }
}
