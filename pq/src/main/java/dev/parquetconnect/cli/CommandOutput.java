package dev.parquetconnect.cli;

import java.io.PrintStream;
import java.io.Writer;

/**
 * Where a command writes: {@code out} for its result (buffered; a closed pipe surfaces as a {@link
 * ClosedOutputException}), {@code err} for warnings.
 */
record CommandOutput(Writer out, PrintStream err) {}
