package dev.parquetconnect.storage;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP/1.1 proxy of ours for the S3 tests, bound to 127.0.0.1: it relays requests to a
 * backend (S3Proxy) byte for byte, counts the bytes it relays, and on a seeded fraction of requests
 * injects a fault: 500 InternalError, 503 SlowDown, 503 ServiceUnavailable, a connection reset
 * before the request reaches the backend, a reset after the backend executed it (the response is
 * lost: the client must retry idempotently), or a response cut off half-way.
 *
 * <p>The client talks to it as its S3 endpoint (not as an HTTP proxy), so SigV4 signatures, which
 * cover the Host header, stay valid: the Host header is relayed unchanged.
 */
final class FaultProxy implements Closeable {
  enum Fault {
    INTERNAL_ERROR_500,
    SLOW_DOWN_503,
    UNAVAILABLE_503,
    RESET_BEFORE,
    RESET_AFTER,
    TRUNCATE
  }

  private final ServerSocket server;
  private final int backendPort;
  private final Random random;
  private volatile double faultRate;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicLong bytesToClient = new AtomicLong();
  private final AtomicLong bytesFromClient = new AtomicLong();
  private final AtomicInteger requests = new AtomicInteger();
  private final Map<Fault, AtomicInteger> faults = new EnumMap<>(Fault.class);
  private final List<String> requestLines =
      java.util.Collections.synchronizedList(new ArrayList<>());
  private final List<String> requestHeads =
      java.util.Collections.synchronizedList(new ArrayList<>());
  private volatile boolean closed;
  private final List<Map.Entry<java.util.function.Predicate<String>, Fault>> forced =
      java.util.Collections.synchronizedList(new ArrayList<>());

  private final List<Map.Entry<java.util.function.Predicate<String>, Runnable>> stalls =
      java.util.Collections.synchronizedList(new ArrayList<>());

  /**
   * Runs {@code action} on the connection's thread when the next request whose start line matches
   * arrives, once, and relays the request only after it returns: the client stalls right before
   * that request reaches the store for as long as the action runs (until {@link #close} if it
   * blocks for good: a writer frozen there).
   */
  void stallNext(java.util.function.Predicate<String> startLine, Runnable action) {
    stalls.add(Map.entry(startLine, action));
  }

  private Runnable takeStall(String startLine) {
    synchronized (stalls) {
      for (var it = stalls.iterator(); it.hasNext(); ) {
        var e = it.next();
        if (e.getKey().test(startLine)) {
          it.remove();
          return e.getValue();
        }
      }
    }
    return null;
  }

  /** Injects {@code fault} into the next request whose start line matches, once. */
  void failNext(java.util.function.Predicate<String> startLine, Fault fault) {
    forced.add(Map.entry(startLine, fault));
  }

  FaultProxy(int backendPort, double faultRate, long seed) throws IOException {
    this.backendPort = backendPort;
    this.faultRate = faultRate;
    this.random = new Random(seed);
    for (Fault f : Fault.values()) {
      faults.put(f, new AtomicInteger());
    }
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread t = new Thread(this::acceptLoop, "fault-proxy-accept");
    t.setDaemon(true);
    t.start();
  }

  int port() {
    return server.getLocalPort();
  }

  String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  void faultRate(double rate) {
    this.faultRate = rate;
  }

  long bytesToClient() {
    return bytesToClient.get();
  }

  long bytesFromClient() {
    return bytesFromClient.get();
  }

  int requests() {
    return requests.get();
  }

  int faults(Fault f) {
    return faults.get(f).get();
  }

  int totalFaults() {
    return faults.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  List<String> requestLines() {
    synchronized (requestLines) {
      return new ArrayList<>(requestLines);
    }
  }

  /** Every request head (start line and headers, lower-cased names) since the last reset. */
  List<String> requestHeads() {
    synchronized (requestHeads) {
      return new ArrayList<>(requestHeads);
    }
  }

  void resetCounters() {
    requestHeads.clear();
    bytesToClient.set(0);
    bytesFromClient.set(0);
    requests.set(0);
    requestLines.clear();
    faults.values().forEach(a -> a.set(0));
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket c = server.accept();
        sockets.add(c);
        Thread t = new Thread(() -> handle(c), "fault-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!closed) {
          e.printStackTrace();
        }
      }
    }
  }

  private Fault decide(String startLine) {
    synchronized (forced) {
      for (var it = forced.iterator(); it.hasNext(); ) {
        var e = it.next();
        if (e.getKey().test(startLine)) {
          it.remove();
          return e.getValue();
        }
      }
    }
    synchronized (random) {
      if (faultRate <= 0 || random.nextDouble() >= faultRate) {
        return null;
      }
      Fault[] all = Fault.values();
      return all[random.nextInt(all.length)];
    }
  }

  private final class Counting extends OutputStream {
    private final OutputStream out;
    private final AtomicLong counter;

    Counting(OutputStream out, AtomicLong counter) {
      this.out = out;
      this.counter = counter;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      counter.incrementAndGet();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      counter.addAndGet(len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }
  }

  /** A request or response head: the start line and the header lines. */
  private static final class Head {
    final String startLine;
    final List<String> lines;

    Head(String startLine, List<String> lines) {
      this.startLine = startLine;
      this.lines = lines;
    }

    String header(String name) {
      for (String l : lines) {
        int colon = l.indexOf(':');
        if (colon > 0 && l.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return l.substring(colon + 1).trim();
        }
      }
      return null;
    }

    byte[] bytes(String dropHeader) {
      StringBuilder sb = new StringBuilder(startLine).append("\r\n");
      for (String l : lines) {
        int colon = l.indexOf(':');
        if (dropHeader != null
            && colon > 0
            && l.substring(0, colon).trim().equalsIgnoreCase(dropHeader)) {
          continue;
        }
        sb.append(l).append("\r\n");
      }
      return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
      }
      if (c == '\n') {
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      b.write(c);
    }
  }

  private static Head readHead(InputStream in) throws IOException {
    String start = readLine(in);
    if (start == null) {
      return null;
    }
    List<String> lines = new ArrayList<>();
    while (true) {
      String l = readLine(in);
      if (l == null) {
        throw new IOException("connection closed inside a message head");
      }
      if (l.isEmpty()) {
        return new Head(start, lines);
      }
      lines.add(l);
    }
  }

  /** Copies a request body: framed by Content-Length or chunked encoding, else none. */
  private static void copyRequestBody(Head h, InputStream in, OutputStream out) throws IOException {
    if (h.header("Content-Length") == null && h.header("Transfer-Encoding") == null) {
      return;
    }
    copyBody(h, in, out, -1);
  }

  /**
   * Copies a message body framed by Content-Length or chunked encoding, else (a response) until
   * EOF; with {@code cutAfter >= 0}, throws {@link CutException} after that many bytes.
   */
  private static void copyBody(Head h, InputStream in, OutputStream out, long cutAfter)
      throws IOException {
    String te = h.header("Transfer-Encoding");
    if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
      long copied = 0;
      while (true) {
        String sizeLine = readLine(in);
        if (sizeLine == null) {
          throw new IOException("EOF in chunked body");
        }
        out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        int semi = sizeLine.indexOf(';');
        long size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
        if (size == 0) {
          while (true) {
            String t = readLine(in);
            out.write(((t == null ? "" : t) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            if (t == null || t.isEmpty()) {
              return;
            }
          }
        }
        copied += copyN(in, out, size, cutAfter < 0 ? -1 : cutAfter - copied);
        if (cutAfter >= 0 && copied >= cutAfter) {
          throw new CutException();
        }
        String crlf = readLine(in);
        out.write(((crlf == null ? "" : crlf) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    String cl = h.header("Content-Length");
    if (cl != null) {
      long n = Long.parseLong(cl.trim());
      long c = copyN(in, out, n, cutAfter);
      if (c < n) {
        throw new CutException();
      }
      return;
    }
    copyN(in, out, Long.MAX_VALUE, cutAfter); // close-delimited
  }

  private static final class CutException extends IOException {
    CutException() {
      super("cut");
    }
  }

  /** Copies up to n bytes (stopping after cut bytes when cut >= 0); returns how many. */
  private static long copyN(InputStream in, OutputStream out, long n, long cut) throws IOException {
    byte[] buf = new byte[16 * 1024];
    long limit = cut >= 0 ? Math.min(n, cut) : n;
    long done = 0;
    while (done < limit) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, limit - done));
      if (r < 0) {
        if (n == Long.MAX_VALUE) {
          return done;
        }
        throw new IOException("EOF in body");
      }
      out.write(buf, 0, r);
      done += r;
    }
    return done;
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0);
      s.close();
    } catch (IOException e) {
      // gone already
    }
  }

  private void handle(Socket client) {
    Socket backend = null;
    try {
      InputStream cin = new BufferedInputStream(client.getInputStream(), 64 * 1024);
      OutputStream cout = new Counting(client.getOutputStream(), bytesToClient);
      InputStream bin = null;
      OutputStream bout = null;
      while (true) {
        Head req = readHead(cin);
        if (req == null) {
          break;
        }
        requests.incrementAndGet();
        requestLines.add(req.startLine);
        requestHeads.add(
            new String(req.bytes(null), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
        Runnable stall = takeStall(req.startLine);
        if (stall != null) {
          stall.run();
          if (closed) {
            break;
          }
        }
        Fault fault = decide(req.startLine);
        if (fault != null) {
          faults.get(fault).incrementAndGet();
        }
        boolean expect = "100-continue".equalsIgnoreCase(req.header("Expect"));
        if (fault == Fault.INTERNAL_ERROR_500
            || fault == Fault.SLOW_DOWN_503
            || fault == Fault.UNAVAILABLE_503) {
          if (!expect) {
            copyRequestBody(req, cin, OutputStream.nullOutputStream());
          }
          sendError(cout, fault);
          break;
        }
        if (fault == Fault.RESET_BEFORE) {
          reset(client);
          break;
        }
        if (expect) {
          cout.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
          cout.flush();
        }
        if (backend == null) {
          backend = new Socket(InetAddress.getLoopbackAddress(), backendPort);
          sockets.add(backend);
          bin = new BufferedInputStream(backend.getInputStream(), 64 * 1024);
          bout = backend.getOutputStream();
        }
        bout.write(req.bytes("Expect"));
        CountingIn counted = new CountingIn(cin);
        copyRequestBody(req, counted, bout);
        bytesFromClient.addAndGet(counted.count);
        bout.flush();
        Head resp;
        do {
          resp = readHead(bin);
          if (resp == null) {
            throw new IOException("backend closed the connection");
          }
        } while (resp.startLine.split(" ")[1].startsWith("1"));
        if (fault == Fault.RESET_AFTER) {
          reset(client);
          break;
        }
        int status = Integer.parseInt(resp.startLine.split(" ")[1]);
        boolean noBody = req.startLine.startsWith("HEAD ") || status == 204 || status == 304;
        boolean framed =
            resp.header("Content-Length") != null || (resp.header("Transfer-Encoding") != null);
        cout.write(resp.bytes(null));
        if (!noBody) {
          long cut = -1;
          if (fault == Fault.TRUNCATE) {
            String cl = resp.header("Content-Length");
            cut = cl == null ? 10 : Long.parseLong(cl.trim()) / 2;
          }
          try {
            copyBody(resp, bin, cout, cut);
          } catch (CutException e) {
            cout.flush();
            reset(client);
            break;
          }
          if (fault == Fault.TRUNCATE) {
            // nothing left to cut (an empty body): reset anyway, the response is incomplete
            cout.flush();
            reset(client);
            break;
          }
        }
        cout.flush();
        String conn = resp.header("Connection");
        if ((conn != null && conn.equalsIgnoreCase("close")) || (!framed && !noBody)) {
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      // the client or the backend went away, or we reset
    } finally {
      close(client);
      if (backend != null) {
        close(backend);
      }
    }
  }

  private static final class CountingIn extends InputStream {
    private final InputStream in;
    long count;

    CountingIn(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }

  private static void sendError(OutputStream out, Fault f) throws IOException {
    int status;
    String reason;
    String code;
    switch (f) {
      case INTERNAL_ERROR_500 -> {
        status = 500;
        reason = "Internal Server Error";
        code = "InternalError";
      }
      case SLOW_DOWN_503 -> {
        status = 503;
        reason = "Slow Down";
        code = "SlowDown";
      }
      default -> {
        status = 503;
        reason = "Service Unavailable";
        code = "ServiceUnavailable";
      }
    }
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>"
                + code
                + "</Code><Message>injected by the test proxy</Message><RequestId>fault</RequestId>"
                + "</Error>")
            .getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason
            + "\r\nContent-Type: application/xml\r\n"
            + "Content-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(body);
    out.flush();
  }

  private void close(Socket s) {
    sockets.remove(s);
    try {
      s.close();
    } catch (IOException e) {
      // ignore
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket s : sockets) {
      reset(s);
    }
  }
}
