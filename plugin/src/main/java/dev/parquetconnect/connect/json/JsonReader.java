package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.StagedRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON document from UTF-8 bytes, with the meaning Kafka's {@code JsonConverter} gives it
 * (its Jackson set-up: leading zeros allowed, floats read as exact decimals, trailing bytes after
 * the first value ignored, duplicate keys: the last wins), and the limits untrusted input needs:
 * nesting depth and number length as Jackson's defaults bound them, strict UTF-8, and every read
 * checked against the end of the bytes, so a bad record is a {@link MalformedJsonException} naming
 * the byte, never a hang, a runaway allocation or an unchecked exception.
 *
 * <p>Two forms of the values. <em>Schemaless</em> (what {@code schemas.enable=false} gives
 * Connect): integers as {@code Long} (wrapped to 64 bits beyond, as JsonConverter does), other
 * numbers as {@code Double}, objects as {@code HashMap}, arrays as {@code ArrayList}.
 * <em>Exact</em> (the envelope's schema and payload, converted later by a schema): integers as
 * {@code Long} or {@code BigInteger}, other numbers as {@code BigDecimal}, objects as {@code
 * LinkedHashMap} in the order of their first keys. One instance per task thread; it keeps its
 * scratch between records.
 */
final class JsonReader {
  /** Jackson's default maximum nesting depth (StreamReadConstraints), which JsonConverter has. */
  static final int MAX_DEPTH = 1000;

  /** Jackson's default maximum number length in digits. */
  static final int MAX_NUMBER_LENGTH = 1000;

  /** The value of a document of whitespace only (Jackson's missing node): a null value. */
  static final Object MISSING = new Object();

  private final JsonStrings strings = new JsonStrings();
  private final JsonNumbers numbers = new JsonNumbers();

  private byte[] buf;
  private int pos;
  private int end;
  private int depth;
  private boolean exact;
  private int payloadAt = -1;

  /** Reads the document in {@code bytes}: its first value, or {@link #MISSING}. */
  Object read(byte[] bytes, boolean exactValues) throws MalformedJsonException {
    start(bytes, exactValues);
    if (!skipWhitespace()) {
      return MISSING;
    }
    byte first = buf[pos];
    Object value = readValue();
    if ((first == '-' || (first >= '0' && first <= '9')) && pos < end) {
      // Jackson requires white space after a number at the top level (it cannot tell "12" from
      // "1" followed by "2" otherwise); after any other value it reads no further.
      byte next = buf[pos];
      if (next != ' ' && next != '\t' && next != '\n' && next != '\r') {
        throw error("expected white space after the number");
      }
    }
    return value;
  }

  /** Prepares reading {@code bytes}, skipping a UTF-8 byte order mark as Jackson does. */
  void start(byte[] bytes, boolean exactValues) {
    buf = bytes;
    end = bytes.length;
    pos = 0;
    depth = 0;
    exact = exactValues;
    if (end >= 3
        && (bytes[0] & 0xFF) == 0xEF
        && (bytes[1] & 0xFF) == 0xBB
        && (bytes[2] & 0xFF) == 0xBF) {
      pos = 3;
    }
  }

  int position() {
    return pos;
  }

  /** The byte at the position, which must exist. */
  byte peek() {
    return buf[pos];
  }

  /** Moves past white space; false at the end of the bytes. */
  boolean skipWhitespace() throws MalformedJsonException {
    while (pos < end) {
      byte b = buf[pos];
      if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
        pos++;
      } else if (b >= 0 && b < 0x20) {
        throw error("control character 0x" + Integer.toHexString(b) + " outside a string");
      } else {
        return true;
      }
    }
    return false;
  }

  /** Reads the value at the position (white space before it already skipped). */
  Object readValue() throws MalformedJsonException {
    if (pos >= end) {
      throw error("unexpected end of the input, a value expected");
    }
    byte b = buf[pos];
    switch (b) {
      case '{':
        return readObject();
      case '[':
        return readArray();
      case '"':
        pos++;
        String s = strings.read(this, buf, pos, end);
        pos = strings.end();
        return s;
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default:
        if (b == '-' || (b >= '0' && b <= '9')) {
          Object n =
              exact ? numbers.readExact(this, buf, pos, end) : numbers.read(this, buf, pos, end);
          pos = numbers.end();
          return n;
        }
        throw error("unexpected " + describe(b) + ", a value expected");
    }
  }

  /** Reads the value in {@code bytes[from, to)} exactly; positions stay the record's. */
  Object readRange(byte[] bytes, int from, int to) throws MalformedJsonException {
    buf = bytes;
    pos = from;
    end = to;
    depth = 0;
    exact = true;
    skipWhitespace();
    return readValue();
  }

  /**
   * Reads the envelope at the top level in exact form, except the value of {@code "schema"}, which
   * is only checked and whose range goes to {@code schemaRange} ({@code [from, to)}, the last one
   * when the key repeats); its place in the map holds {@link #MISSING}. Returns null when the
   * document is not an object (the caller reads it whole for its error). When the envelope opens
   * with the members {@code "schema"} and {@code "payload"} in that order, {@link #payloadAt} is
   * the position after the payload's ':' (else -1): the bytes before it are the envelope's prefix,
   * which the next record of the topic repeats.
   */
  Map<String, Object> readEnvelope(byte[] bytes, int[] schemaRange) throws MalformedJsonException {
    start(bytes, true);
    payloadAt = -1;
    if (!skipWhitespace() || buf[pos] != '{') {
      return null;
    }
    enter();
    pos++;
    Map<String, Object> object = new LinkedHashMap<>();
    if (!skipWhitespace()) {
      throw error("unexpected end of the input in an object");
    }
    if (buf[pos] == '}') {
      return object;
    }
    return envelopeMembers(object, schemaRange);
  }

  /**
   * Reads an envelope whose bytes before {@code prefixLength} are those of an envelope read before
   * with {@link #readEnvelope}, which ended there with its {@link #payloadAt}: reading them again
   * would end in the same state, so reading starts at the payload, which {@code directed} reads by
   * {@code schema} straight into its Connect value. Only the common envelope is taken: the payload
   * then the object's end; a member after the payload throws {@link
   * SchemaDirectedReader.NotDirect}, and the caller reads the record again with {@link
   * #readEnvelope}.
   */
  Object resumeEnvelope(
      byte[] bytes,
      int prefixLength,
      SchemaDirectedReader directed,
      org.apache.kafka.connect.data.Schema schema)
      throws MalformedJsonException {
    start(bytes, true);
    depth = 1;
    pos = prefixLength;
    Object payload = directed.read(this, schema);
    if (!skipWhitespace() || buf[pos] != '}') {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    pos++;
    depth--;
    return payload;
  }

  /**
   * As {@link #resumeEnvelope}, the payload read by {@code staging} into its row (of {@code plan})
   * instead of Connect values.
   */
  void resumeStaged(
      byte[] bytes, int prefixLength, StagedPayloadReader staging, StagedPayloadReader.Plan plan)
      throws MalformedJsonException {
    start(bytes, true);
    depth = 1;
    pos = prefixLength;
    staging.read(this, plan);
    if (!skipWhitespace() || buf[pos] != '}') {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    pos++;
    depth--;
  }

  /**
   * Stages the string at the position (its opening quote) as leaf {@code leaf} of {@code row}: its
   * bytes' range when it has no escapes, else its decoded text.
   */
  void stageString(StagedRow row, int leaf) throws MalformedJsonException {
    pos++;
    int close = strings.plainEnd(this, buf, pos, end);
    if (close >= 0) {
      row.setText(leaf, pos, close - pos);
      pos = close + 1;
    } else {
      row.setEscapedText(leaf, strings.read(this, buf, pos, end));
      pos = strings.end();
    }
  }

  /** Reads the number at the position into a primitive: {@link JsonNumbers#readPrimitive}. */
  int readPrimitiveNumber() throws MalformedJsonException {
    int kind = numbers.readPrimitive(this, buf, pos, end);
    pos = numbers.end();
    return kind;
  }

  /** Reads the number at the position as a decimal: {@link JsonNumbers#readDecimal}. */
  int readDecimalNumber() throws MalformedJsonException {
    int kind = numbers.readDecimal(this, buf, pos, end);
    pos = numbers.end();
    return kind;
  }

  /** The last {@link #readDecimalNumber}'s scale (its unscaled value: {@link #primitiveLong}). */
  int decimalScale() {
    return numbers.decimalScale();
  }

  /**
   * Reads the string at the position as base64 into {@code row}'s scratch at its {@link
   * StagedRow#scratchEnd()} (not yet taken): the decoded length, or -1 (the position then
   * undefined) when the string has escapes or is not base64 JsonConverter reads.
   */
  int readBase64(StagedRow row) throws MalformedJsonException {
    int from = pos + 1;
    int close = strings.plainEnd(this, buf, from, end);
    if (close < 0) {
      return -1;
    }
    byte[] out = row.scratch(Base64Text.maxDecodedLength(close - from));
    int n = Base64Text.decode(buf, from, close, out, row.scratchEnd());
    pos = close + 1;
    return n;
  }

  /** The last {@link #readPrimitiveNumber}'s integer. */
  long primitiveLong() {
    return numbers.longValue();
  }

  /** The last {@link #readPrimitiveNumber}'s fraction. */
  double primitiveDouble() {
    return numbers.doubleValue();
  }

  /** Reads the literal at the position, one of {@code true}, {@code false}, {@code null}. */
  void readLiteral(String word) throws MalformedJsonException {
    literal(word);
  }

  /** The position after the payload's ':' of the last {@link #readEnvelope}, or -1. */
  int payloadAt() {
    return payloadAt;
  }

  private Map<String, Object> envelopeMembers(Map<String, Object> object, int[] schemaRange)
      throws MalformedJsonException {
    int member = 0;
    while (true) {
      String key = readKey();
      if (key.equals("schema")) {
        if (!skipWhitespace()) {
          throw error("unexpected end of the input, a value expected");
        }
        schemaRange[0] = pos;
        skipValue();
        schemaRange[1] = pos;
        object.put(key, MISSING);
      } else {
        if (member == 1 && key.equals("payload") && object.containsKey("schema")) {
          payloadAt = pos;
        }
        object.put(key, readMemberValue());
      }
      member++;
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an object");
      }
      byte b = buf[pos++];
      if (b == '}') {
        return object;
      }
      if (b != ',') {
        pos--;
        throw error("unexpected " + describe(b) + " in an object, ',' or '}' expected");
      }
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an object");
      }
    }
  }

  /** Moves past the value at the position, checking it as {@link #readValue} would. */
  void skipValue() throws MalformedJsonException {
    if (pos >= end) {
      throw error("unexpected end of the input, a value expected");
    }
    byte b = buf[pos];
    switch (b) {
      case '{', '[' -> skipContainer(b == '{' ? (byte) '}' : (byte) ']');
      case '"' -> {
        pos++;
        pos = strings.skip(this, buf, pos, end);
      }
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (b == '-' || (b >= '0' && b <= '9')) {
          numbers.skip(this, buf, pos, end);
          pos = numbers.end();
        } else {
          throw error("unexpected " + describe(b) + ", a value expected");
        }
      }
    }
  }

  private void skipContainer(byte close) throws MalformedJsonException {
    enter();
    pos++;
    boolean object = close == '}';
    if (!skipWhitespace()) {
      throw error("unexpected end of the input in " + (object ? "an object" : "an array"));
    }
    if (buf[pos] == close) {
      pos++;
      depth--;
      return;
    }
    while (true) {
      if (object) {
        if (buf[pos] != '"') {
          throw error("unexpected " + describe(buf[pos]) + ", a quoted key expected");
        }
        pos = strings.skip(this, buf, pos + 1, end);
        if (!skipWhitespace()) {
          throw error("unexpected end of the input after a key");
        }
        if (buf[pos] != ':') {
          throw error("unexpected " + describe(buf[pos]) + " after a key, ':' expected");
        }
        pos++;
        if (!skipWhitespace()) {
          throw error("unexpected end of the input, a value expected");
        }
      }
      skipValue();
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in " + (object ? "an object" : "an array"));
      }
      byte b = buf[pos++];
      if (b == close) {
        depth--;
        return;
      }
      if (b != ',') {
        pos--;
        throw error("unexpected " + describe(b) + ", ',' or '" + (char) close + "' expected");
      }
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in " + (object ? "an object" : "an array"));
      }
    }
  }

  private Map<String, Object> readObject() throws MalformedJsonException {
    enter();
    pos++;
    Map<String, Object> object = exact ? new LinkedHashMap<>() : new HashMap<>();
    if (!skipWhitespace()) {
      throw error("unexpected end of the input in an object");
    }
    if (buf[pos] == '}') {
      pos++;
      depth--;
      return object;
    }
    while (true) {
      String key = readKey();
      object.put(key, readMemberValue());
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an object");
      }
      byte b = buf[pos++];
      if (b == '}') {
        depth--;
        return object;
      }
      if (b != ',') {
        pos--;
        throw error("unexpected " + describe(b) + " in an object, ',' or '}' expected");
      }
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an object");
      }
    }
  }

  /** Reads a member's key and its ':' (white space before it already skipped). */
  String readKey() throws MalformedJsonException {
    if (buf[pos] != '"') {
      throw error("unexpected " + describe(buf[pos]) + ", a quoted key expected");
    }
    pos++;
    String key = strings.read(this, buf, pos, end);
    pos = strings.end();
    if (!skipWhitespace()) {
      throw error("unexpected end of the input after a key");
    }
    if (buf[pos] != ':') {
      throw error("unexpected " + describe(buf[pos]) + " after a key, ':' expected");
    }
    pos++;
    return key;
  }

  /** Reads a member's value after its ':'. */
  Object readMemberValue() throws MalformedJsonException {
    if (!skipWhitespace()) {
      throw error("unexpected end of the input, a value expected");
    }
    return readValue();
  }

  private List<Object> readArray() throws MalformedJsonException {
    enter();
    pos++;
    List<Object> array = new ArrayList<>();
    if (!skipWhitespace()) {
      throw error("unexpected end of the input in an array");
    }
    if (buf[pos] == ']') {
      pos++;
      depth--;
      return array;
    }
    while (true) {
      array.add(readValue());
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an array");
      }
      byte b = buf[pos++];
      if (b == ']') {
        depth--;
        return array;
      }
      if (b != ',') {
        pos--;
        throw error("unexpected " + describe(b) + " in an array, ',' or ']' expected");
      }
      if (!skipWhitespace()) {
        throw error("unexpected end of the input in an array");
      }
    }
  }

  /** Moves past the byte at the position (a bracket the caller has seen with {@link #peek}). */
  void advance() {
    pos++;
  }

  /** Closes an object or array opened with {@link #enter}. */
  void leave() {
    depth--;
  }

  /**
   * Moves past the member key at the position and its ':' when the key's bytes between its quotes
   * are {@code name} (a name of ASCII without '"' or '\\', so the key has no escapes); false (the
   * position unchanged) otherwise, or where the bytes end early.
   */
  boolean matchKey(byte[] name) throws MalformedJsonException {
    int n = name.length;
    int p = pos;
    if (p + n + 2 > end
        || buf[p] != '"'
        || buf[p + n + 1] != '"'
        || !Arrays.equals(buf, p + 1, p + 1 + n, name, 0, n)) {
      return false;
    }
    int saved = pos;
    pos = p + n + 2;
    if (!skipWhitespace() || buf[pos] != ':') {
      pos = saved;
      return false;
    }
    pos++;
    return true;
  }

  /** Opens an object or array at the position. */
  void enter() throws MalformedJsonException {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
  }

  private void literal(String word) throws MalformedJsonException {
    int n = word.length();
    for (int i = 0; i < n; i++) {
      if (pos + i >= end || buf[pos + i] != word.charAt(i)) {
        throw error("unrecognised token, '" + word + "' expected");
      }
    }
    pos += n;
    if (pos < end) {
      int b = buf[pos] & 0xFF;
      // A letter, digit, '_' or '$' (or any non-ASCII byte) would continue the token.
      if ((b >= 'a' && b <= 'z')
          || (b >= 'A' && b <= 'Z')
          || (b >= '0' && b <= '9')
          || b == '_'
          || b == '$'
          || b >= 0x80) {
        throw error("unrecognised token starting '" + word + "'");
      }
    }
  }

  MalformedJsonException error(String reason) {
    return new MalformedJsonException(reason, pos);
  }

  MalformedJsonException errorAt(String reason, int at) {
    return new MalformedJsonException(reason, at);
  }

  static String describe(byte b) {
    int c = b & 0xFF;
    if (c >= 0x20 && c < 0x7F) {
      return "'" + (char) c + "'";
    }
    return "byte 0x" + Integer.toHexString(c);
  }
}
