/**
 * Runnable examples of the wsjava API, one {@code main} each; docs/GUIDE.md walks through them and
 * {@code ExamplesTest} runs each one as a process and checks what it does. {@code examples/run} builds them when
 * needed and runs one on a JDK 21 or newer; a server takes its port as first argument, a client
 * the server's port or URI:
 *
 * <pre>
 * examples/run WssEchoServer 8443
 * examples/run EchoClient 8080 hello world     # against ./wsjava
 * </pre>
 */
package dev.wsjava.examples;
