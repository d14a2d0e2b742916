package dev.parquetconnect.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the integration tests work and listen. The directories come from system properties
 * that failsafe sets from the pom (so an IDE run falls back to the same places under target/).
 */
public final class ItPaths {

    /** Every server of the tests binds here, never to all interfaces. */
    public static final String LOOPBACK = "127.0.0.1";

    private static final int TAIL_BYTES = 64 * 1024;

    private ItPaths() {
    }

    /** The unpacked plugin archive, {@code target/plugin}: a worker's {@code plugin.path}. */
    public static Path pluginDir() {
        return directoryProperty("plugin.dir", "target/plugin");
    }

    /** The parent of the per-version Kafka jar directories, {@code target/kafka-runtime}. */
    public static Path kafkaRuntimeDir() {
        return directoryProperty("kafka.runtime.dir", "target/kafka-runtime");
    }

    /**
     * An empty directory for one test under {@code target/it/}, deleted first if an earlier
     * run left it, so that logs and data of a run stay together and never mix with another's.
     */
    public static Path freshWorkDir(String name) {
        Path dir = directoryProperty("it.work.dir", "target/it").resolve(name);
        deleteRecursively(dir);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + dir, e);
        }
    }

    /**
     * Ports that were free on the loopback address a moment ago. All sockets are held open
     * until every port is chosen, so one call never returns the same port twice.
     */
    public static List<Integer> freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            InetAddress loopback = InetAddress.getByName(LOOPBACK);
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, loopback);
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find free ports on " + LOOPBACK, e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // a probe socket that fails to close only keeps its port busy: nothing to do
                }
            }
        }
    }

    /** The last {@code lines} lines of a log file (from its last 64 KiB), for failure messages. */
    public static String tail(Path file, int lines) {
        try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
            long start = Math.max(0, log.length() - TAIL_BYTES);
            byte[] end = new byte[(int) (log.length() - start)];
            log.seek(start);
            log.readFully(end);
            List<String> all = new String(end, StandardCharsets.UTF_8).lines().toList();
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    private static Path directoryProperty(String name, String fallback) {
        return Paths.get(System.getProperty(name, fallback)).toAbsolutePath().normalize();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + dir, e);
        }
    }
}
