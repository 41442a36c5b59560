package io.sievecrawl.crawler.fetch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import okhttp3.Connection;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;

/**
 * An OkHttp network interceptor that captures every exchange as it went over the wire and hands it to an
 * {@link ExchangeRecorder} when the response is closed, its body read or not: the request exactly as OkHttp sent
 * it, the response's status line and header fields as received, and its body as received, content coding (gzip)
 * included.
 *
 * <p>One rewrite, the one a proxy makes: OkHttp removes the chunked transfer coding while reading, so a chunked
 * response is recorded without its {@code Transfer-Encoding} field and, when read whole, with a
 * {@code Content-Length} giving the recorded length. Transfer codings belong to one hop, not to the message.
 * The client must speak HTTP/1.1 for the heads to be the real ones ({@link PageFetcher} sees to it).
 */
public final class CaptureInterceptor implements Interceptor {
  private final ExchangeRecorder recorder;
  private final long cap;
  private final Consumer<IOException> onFailure;
  private final Clock clock;
  private final boolean keepCredentials;

  /**
   * A capture whose request heads mask the values of Authorization and Cookie ({@link CredentialMask}).
   *
   * @param cap the most body bytes kept per exchange; a longer body is recorded truncated
   * @param onFailure told when the recorder cannot record (a full disk): the fetch itself goes on
   * @param clock the wall clock: an exchange's date is when its request was sent
   */
  public CaptureInterceptor(ExchangeRecorder recorder, long cap, Consumer<IOException> onFailure, Clock clock) {
    this(recorder, cap, onFailure, clock, false);
  }

  /**
   * As {@link #CaptureInterceptor(ExchangeRecorder, long, Consumer, Clock)}; with {@code keepCredentials}, request
   * heads keep Authorization and Cookie values as sent (warc.keep-credentials).
   */
  public CaptureInterceptor(ExchangeRecorder recorder, long cap, Consumer<IOException> onFailure, Clock clock,
      boolean keepCredentials) {
    this.recorder = recorder;
    this.cap = cap;
    this.onFailure = onFailure;
    this.clock = clock;
    this.keepCredentials = keepCredentials;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Instant started = request.tag(Instant.class); // when the fetch began, the date of its record
    Instant date = started != null ? started : clock.instant();
    Response response = chain.proceed(request);
    Connection connection = chain.connection();
    // through a proxy the socket's address is the proxy's, not the server's: WARC-IP-Address is left out
    InetAddress ip = connection == null || connection.route().proxy().type() != java.net.Proxy.Type.DIRECT ? null
        : connection.route().socketAddress().getAddress();
    byte[] requestHead = requestHead(request, keepCredentials);
    ResponseBody body = response.body();
    Capture capture = new Capture(request.url().toString(), date, ip, requestHead, response, body.contentLength(),
        request.tag(Revalidation.class), request.tag(CaptureNote.class));
    return response.newBuilder().body(new CapturedBody(body, capture)).build();
  }

  /**
   * The request as OkHttp wrote it to the server (a capturing client speaks HTTP/1.1 and nothing else), without the
   * Proxy-Authorization a proxy got, and unless {@code keepCredentials} with Authorization and Cookie values masked.
   */
  static byte[] requestHead(Request request, boolean keepCredentials) {
    HttpUrl url = request.url();
    StringBuilder head = new StringBuilder(256).append(request.method()).append(' ').append(url.encodedPath());
    if (url.encodedQuery() != null) {
      head.append('?').append(url.encodedQuery());
    }
    head.append(" HTTP/1.1\r\n");
    Headers headers = request.headers();
    for (int i = 0; i < headers.size(); i++) {
      String name = headers.name(i);
      if (name.equalsIgnoreCase("Proxy-Authorization")) {
        continue; // the proxy's credentials were for the proxy, not the server: they stay out of the archive
      }
      head.append(name).append(": ").append(keepCredentials ? headers.value(i)
          : CredentialMask.value(name, headers.value(i))).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  static byte[] responseHead(Response response, long recordedLength, boolean whole) {
    StringBuilder head = new StringBuilder(512).append(version(response.protocol())).append(' ')
        .append(response.code()).append(' ').append(response.message()).append("\r\n");
    Headers headers = response.headers();
    boolean chunked = headers.get("Transfer-Encoding") != null
        && headers.get("Transfer-Encoding").toLowerCase(Locale.ROOT).contains("chunked");
    appendFields(head, headers, chunked);
    if (chunked && whole && headers.get("Content-Length") == null) {
      head.append("Content-Length: ").append(recordedLength).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static void appendFields(StringBuilder head, Headers headers, boolean dropTransferEncoding) {
    for (int i = 0; i < headers.size(); i++) {
      if (dropTransferEncoding && headers.name(i).equalsIgnoreCase("Transfer-Encoding")) {
        continue;
      }
      head.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
    }
  }

  private static String version(Protocol protocol) {
    return protocol == Protocol.HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1";
  }

  /** The body of one exchange on its way to the reader, copied aside; recorded once, at the end or at close. */
  private final class Capture {
    private final String url;
    private final Instant date;
    private final InetAddress ip;
    private final byte[] requestHead;
    private final Response response;
    private final long declaredLength;
    private final CaptureBuffer body;
    private final Revalidation revalidation;
    private final CaptureNote note; // null for a request that asks for none (robots.txt)
    private final AtomicBoolean recorded = new AtomicBoolean();
    private boolean overCap;
    private IOException copyFailure;
    private volatile boolean failed;
    private volatile boolean atEnd;

    Capture(String url, Instant date, InetAddress ip, byte[] requestHead, Response response, long declaredLength,
        Revalidation revalidation, CaptureNote note) {
      this.revalidation = revalidation;
      this.note = note;
      this.url = url;
      this.date = date;
      this.ip = ip;
      this.requestHead = requestHead;
      this.response = response;
      this.declaredLength = declaredLength;
      this.body = new CaptureBuffer(recorder.spillDirectory());
    }

    /** Copies what the reader just read; a failure to keep it fails the capture, never the fetch. */
    void copy(Buffer sink, long offset, long byteCount) {
      if (copyFailure != null) {
        return;
      }
      long room = cap - body.size();
      if (byteCount > room) {
        overCap = true;
      }
      long n = Math.min(byteCount, room);
      try {
        if (n > 0) {
          body.append(sink, offset, n);
        }
      } catch (IOException e) {
        copyFailure = e; // a large body could not be spilled to disk
      }
    }

    /** Records the exchange, once: {@code readToEnd} when the body was read to its end. */
    void finish(boolean readToEnd) {
      if (!recorded.compareAndSet(false, true)) {
        return;
      }
      if (copyFailure != null) {
        closeQuietly(body);
        onFailure.accept(recorder.failure(copyFailure));
        return;
      }
      boolean whole = !overCap && (readToEnd || body.size() == declaredLength);
      Exchange.Truncation truncation = whole ? null
          : failed ? Exchange.Truncation.DISCONNECT : Exchange.Truncation.LENGTH;
      try (CaptureBuffer captured = body) {
        StoredAs stored = recorder.record(new Exchange(url, date, ip, requestHead,
            responseHead(response, captured.size(), whole), captured, truncation, revalidation));
        if (note != null) {
          note.stored(stored);
        }
      } catch (IOException e) {
        onFailure.accept(e);
      }
    }
  }

  private static void closeQuietly(CaptureBuffer buffer) {
    try {
      buffer.close();
    } catch (IOException e) {
      // its file is deleted on close, or removed when the next run opens the directory
    }
  }

  private static final class CapturedBody extends ResponseBody {
    private final ResponseBody delegate;
    private final MediaType contentType; // parsed once: the delegate parses its header on every call
    private final BufferedSource source;

    CapturedBody(ResponseBody delegate, Capture capture) {
      this.delegate = delegate;
      this.contentType = delegate.contentType();
      this.source = Okio.buffer(new ForwardingSource(delegate.source()) {
        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
          long n;
          try {
            n = super.read(sink, byteCount);
          } catch (IOException e) {
            capture.failed = true;
            throw e;
          }
          if (n == -1) {
            capture.atEnd = true;
          } else {
            capture.copy(sink, sink.size() - n, n);
          }
          return n;
        }

        @Override
        public void close() throws IOException {
          // Recorded at close, not at the end of the body: the fetch has taken its time by then, so waiting for the
          // archive never counts as the server's response time.
          capture.finish(capture.atEnd);
          super.close();
        }
      });
    }

    @Override
    public MediaType contentType() {
      return contentType;
    }

    @Override
    public long contentLength() {
      return delegate.contentLength();
    }

    @Override
    public BufferedSource source() {
      return source;
    }
  }
}
