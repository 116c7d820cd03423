package dev.wsjava.http;

/**
 * Answers a request on a plain HTTP route (RFC 9110 §9: the method's semantics are the handler's).
 * A handler runs on the thread that feeds the connection and must be thread-safe, since one handler
 * serves every connection. What it throws is answered 500 and closes that connection; the exception
 * is never sent to the client, which gets a plain 500 page; catch and log what the handler's callers
 * must know.
 */
@FunctionalInterface
public interface HttpHandler {

  /**
   * Answers a request.
   *
   * @param request the request with its whole body; for a HEAD request served by a GET route the
   *     method is {@code HEAD}, and the body of the response is not sent
   * @return the response, not null
   * @throws Exception when the request cannot be answered; the client gets 500
   */
  HttpResponse handle(HttpRequest request) throws Exception;
}
