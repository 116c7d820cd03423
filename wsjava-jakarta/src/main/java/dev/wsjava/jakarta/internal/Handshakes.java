package dev.wsjava.jakarta.internal;

import dev.wsjava.Headers;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The Jakarta views of an upgrade request and of a handshake response. */
final class Handshakes {
  private Handshakes() {}

  /** Header fields as a case-insensitive map of lists, in arrival order. */
  static Map<String, List<String>> headerMap(Headers headers) {
    Map<String, List<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0; i < headers.size(); i++) {
      out.computeIfAbsent(headers.name(i), k -> new ArrayList<>()).add(headers.value(i));
    }
    out.replaceAll((k, v) -> List.copyOf(v));
    return Collections.unmodifiableMap(out);
  }

  /** The server's view of the upgrade request (read-only). */
  record Request(
      Map<String, List<String>> getHeaders,
      Principal getUserPrincipal,
      URI getRequestURI,
      Map<String, List<String>> getParameterMap,
      String getQueryString)
      implements HandshakeRequest {
    static Request of(dev.wsjava.HandshakeRequest r, URI uri, Principal principal) {
      Map<String, List<String>> params = new LinkedHashMap<>(r.queryParams());
      return new Request(
          headerMap(r.headers()), principal, uri, Collections.unmodifiableMap(params), r.query());
    }

    @Override
    public boolean isUserInRole(String role) {
      return false; // no servlet container, no roles
    }

    @Override
    public Object getHttpSession() {
      return null; // no servlet container, no HTTP session
    }
  }

  /** A handshake response whose fields the configurator may change. */
  record Response(Map<String, List<String>> getHeaders) implements HandshakeResponse {
    static Response empty() {
      return new Response(new TreeMap<>(String.CASE_INSENSITIVE_ORDER));
    }
  }
}
