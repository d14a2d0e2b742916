package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A new file of {@link StoreFileIO}: written through the store's output and committed (made visible
 * whole, durably) when the stream is closed, as Iceberg's own FileIOs complete their upload on
 * close.
 */
final class StoreOutputFile implements OutputFile {
  private final StoreFileIO io;
  private final String location;

  StoreOutputFile(StoreFileIO io, String location) {
    this.io = io;
    this.location = location;
  }

  @Override
  public PositionOutputStream create() {
    StoreFileIO.Located file = io.locate(location);
    try {
      if (file.store().exists(file.key())) {
        throw new AlreadyExistsException("file already exists: %s", location);
      }
      return new Stream(file.store().create(file.key()), location, false);
    } catch (IOException e) {
      throw StoreFileIO.unchecked("creating " + location, e);
    }
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    StoreFileIO.Located file = io.locate(location);
    try {
      return new Stream(file.store().create(file.key()), location, true);
    } catch (IOException e) {
      throw StoreFileIO.unchecked("creating " + location, e);
    }
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public InputFile toInputFile() {
    return io.newInputFile(location);
  }

  @Override
  public String toString() {
    return location;
  }

  private final class Stream extends PositionOutputStream {
    private final StoreOutput output;
    private final String location;
    private final boolean overwrite;
    private boolean closed;

    Stream(StoreOutput output, String location, boolean overwrite) {
      this.output = output;
      this.location = location;
      this.overwrite = overwrite;
    }

    @Override
    public long getPos() {
      return output.bytesWritten();
    }

    @Override
    public void write(int b) throws IOException {
      output.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      output.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      if (overwrite) {
        // The store never replaces a file: an overwrite removes the old one just before the new
        // one appears (Iceberg overwrites only files of its own that no snapshot references yet).
        StoreFileIO.Located file = io.locate(location);
        file.store().delete(file.key());
      }
      try {
        output.commit();
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "file already exists: %s", location);
      }
    }
  }
}
