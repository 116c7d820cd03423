package dev.wsjava.internal.http;

import dev.wsjava.http.HttpRequest;
import dev.wsjava.http.HttpHandler;
import dev.wsjava.http.HttpResponse;
import dev.wsjava.handshake.HttpStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Serves the files under a directory at a URL prefix (RFC 9110 §9.3.1 GET, §9.3.2 HEAD). The rest
 * of the path after the prefix is percent-decoded (RFC 3986 §2.1) as UTF-8 and must name a file
 * inside the directory: a {@code .} or {@code ..} segment (also encoded, {@code %2e%2e}), an empty
 * segment (so no absolute path), a backslash, a colon or a NUL is answered 404 before the file
 * system is asked ({@code %2F} decodes to a separator like {@code /}), and a file whose real path
 * (symbolic links followed) leaves the directory is answered 404 too. A directory is served by its
 * {@code index.html}; asked for without a trailing slash it is redirected (301) to the path with
 * one, so that relative links in the page resolve. The content type follows the file name's
 * extension.
 *
 * <p>Files are read whole on the calling thread. Immutable and thread-safe.
 */
final class StaticFiles implements HttpHandler {
  private static final String OCTET_STREAM = "application/octet-stream";

  /** The largest array the JVM reliably allocates. */
  private static final long MAX_FILE = Integer.MAX_VALUE - 8;

  private static final Map<String, String> TYPES =
      Map.ofEntries(
          Map.entry("html", HttpResponse.TEXT_HTML),
          Map.entry("htm", HttpResponse.TEXT_HTML),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("mjs", "text/javascript; charset=utf-8"),
          Map.entry("txt", HttpResponse.TEXT_PLAIN),
          Map.entry("json", "application/json"),
          Map.entry("map", "application/json"),
          Map.entry("xml", "application/xml"),
          Map.entry("wasm", "application/wasm"),
          Map.entry("pdf", "application/pdf"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("png", "image/png"),
          Map.entry("jpg", "image/jpeg"),
          Map.entry("jpeg", "image/jpeg"),
          Map.entry("gif", "image/gif"),
          Map.entry("webp", "image/webp"),
          Map.entry("avif", "image/avif"),
          Map.entry("ico", "image/vnd.microsoft.icon"),
          Map.entry("woff", "font/woff"),
          Map.entry("woff2", "font/woff2"));

  private final String prefix;
  private final Path root;

  /**
   * Mounts a directory.
   *
   * @param urlPrefix where the files appear, starting with {@code /}; a trailing slash is added
   * @param directory an existing directory; its real path is taken now
   * @throws IllegalArgumentException when the directory does not exist or is not one
   */
  StaticFiles(String urlPrefix, Path directory) {
    this.prefix = urlPrefix.endsWith("/") ? urlPrefix : urlPrefix + "/";
    try {
      this.root = directory.toRealPath();
    } catch (IOException e) {
      throw new IllegalArgumentException("static file directory " + directory + ": " + e, e);
    }
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException("static file root is not a directory: " + directory);
    }
  }

  /** Returns the prefix, ending in a slash. */
  String prefix() {
    return prefix;
  }

  /** Returns whether a path is this mount's: under the prefix, or the prefix without its slash. */
  boolean covers(String path) {
    return path.startsWith(prefix)
        || (path.length() == prefix.length() - 1 && prefix.startsWith(path));
  }

  /**
   * Serves the file a GET or HEAD request names.
   *
   * @param request a request whose path this mount {@link #covers}
   * @return the file, its directory's index, a redirect to the directory, or 404
   * @throws IOException when the file exists but cannot be read (the client gets 500)
   */
  @Override
  public HttpResponse handle(HttpRequest request) throws IOException {
    String path = request.path();
    if (!path.startsWith(prefix)) {
      return redirectToDirectory(request);
    }
    String relative = decode(path.substring(prefix.length()));
    if (relative == null) {
      return HttpResponse.notFound();
    }
    boolean directoryAsked = relative.isEmpty() || relative.endsWith("/");
    String[] segments = relative.isEmpty() ? new String[0] : relative.split("/", -1);
    int named = directoryAsked ? segments.length - 1 : segments.length; // "a/" names "a" only
    Path file = root;
    try {
      for (int i = 0; i < named; i++) {
        if (!isSafeSegment(segments[i])) {
          return HttpResponse.notFound();
        }
        file = file.resolve(segments[i]);
      }
      Path real = file.toRealPath();
      if (!real.startsWith(root)) {
        return HttpResponse.notFound(); // a symbolic link leads out of the directory
      }
      if (Files.isDirectory(real)) {
        if (!directoryAsked) {
          return redirectToDirectory(request);
        }
        file = real.resolve("index.html");
        real = file.toRealPath();
        if (!real.startsWith(root)) {
          return HttpResponse.notFound();
        }
      } else if (directoryAsked) {
        return HttpResponse.notFound();
      }
      if (!Files.isRegularFile(real)) {
        return HttpResponse.notFound();
      }
      if (Files.size(real) > MAX_FILE) {
        throw new IOException(real + " is too large to be served whole");
      }
      String type = contentType(file.getFileName().toString());
      return HttpResponse.bytes(200, type, Files.readAllBytes(real));
    } catch (NoSuchFileException | NotDirectoryException | InvalidPathException e) {
      return HttpResponse.notFound();
    } catch (AccessDeniedException e) {
      return HttpResponse.error(HttpStatus.FORBIDDEN);
    }
  }

  private static HttpResponse redirectToDirectory(HttpRequest request) {
    String query = request.query() == null ? "" : "?" + request.query();
    return HttpResponse.redirect(301, request.path() + "/" + query);
  }

  /**
   * Returns whether a decoded path segment may be resolved: not empty (an empty segment would make
   * a double slash or an absolute path), not {@code .} or {@code ..}, no separator of any platform,
   * no NUL.
   */
  private static boolean isSafeSegment(String s) {
    return !s.isEmpty()
        && !s.equals(".")
        && !s.equals("..")
        && s.indexOf('\\') < 0
        && s.indexOf(':') < 0
        && s.indexOf('\0') < 0;
  }

  /** Percent-decodes a path as UTF-8; null when an escape or the UTF-8 is malformed. */
  static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteBuffer bytes = ByteBuffer.allocate(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '%') {
        bytes.put((byte) c); // the target is visible ASCII (RFC 9112 §3.2)
        continue;
      }
      int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = hi < 0 ? -1 : Character.digit(s.charAt(i + 2), 16);
      if (lo < 0) {
        return null;
      }
      bytes.put((byte) (hi << 4 | lo));
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes.flip())
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Returns the content type for a file name by its extension.
   *
   * @param name for example {@code app.js}
   * @return for example {@code text/javascript; charset=utf-8}; {@code application/octet-stream}
   *     for an unknown extension
   */
  static String contentType(String name) {
    int dot = name.lastIndexOf('.');
    if (dot < 0) {
      return OCTET_STREAM;
    }
    return TYPES.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), OCTET_STREAM);
  }
}
