package dev.parquetconnect.storage;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP sockets this JVM listens on that are not bound to a loopback address, read from /proc
 * (Linux): the socket inodes among /proc/self/fd, matched with /proc/net/tcp and tcp6.
 */
final class ListeningSockets {
  private ListeningSockets() {}

  static List<String> nonLoopback() throws IOException {
    Set<String> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    List<String> bad = new ArrayList<>();
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path p = Path.of(table);
      if (!Files.exists(p)) {
        continue;
      }
      List<String> lines = Files.readAllLines(p);
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !f[3].equals("0A") || !inodes.contains(f[9])) {
          continue; // not LISTEN, or not ours
        }
        String addr = f[1].substring(0, f[1].indexOf(':'));
        boolean loopback =
            addr.length() == 8
                ? addr.endsWith("7F") // 127.x.x.x, little-endian
                : addr.equals("00000000000000000000000001000000") // ::1
                    || (addr.startsWith("0000000000000000FFFF0000") && addr.endsWith("7F"));
        if (!loopback) {
          bad.add(table + " " + f[1]);
        }
      }
    }
    return bad;
  }
}
