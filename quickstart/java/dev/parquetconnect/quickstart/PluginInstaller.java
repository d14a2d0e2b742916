package dev.parquetconnect.quickstart;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Installs the plugin as a user would: unpacks the archive {@code mvn package} builds into a {@code
 * plugin.path} directory. The directory is emptied first, so a rebuilt archive never mixes with the
 * jars of an earlier one.
 */
final class PluginInstaller {

  private PluginInstaller() {}

  static void install(Path archive, Path pluginPath) throws IOException {
    deleteRecursively(pluginPath);
    Files.createDirectories(pluginPath);
    Path root = pluginPath.toRealPath();
    try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        Path target = root.resolve(entry.getName()).normalize();
        // An entry such as ../../x must not write outside the plugin path.
        if (!target.startsWith(root) || target.equals(root)) {
          throw new IOException(
              "the plugin archive "
                  + archive
                  + " has an entry outside its root: "
                  + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          copy(zip, target);
        }
      }
    }
  }

  private static void copy(InputStream entryContent, Path target) throws IOException {
    Files.copy(entryContent, target, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
