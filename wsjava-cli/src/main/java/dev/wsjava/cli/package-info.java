/**
 * The {@code wsjava} command line (picocli): {@code serve}, {@code connect}, {@code load} and the
 * conformance client and server, each a thin command over the public API of {@code wsjava-core}
 * and over {@code wsjava-conformance}.
 *
 * <p>Depends on the core's exported packages, the conformance module, picocli and HdrHistogram.
 * An application, not a library: no JPMS module, nothing here is meant to be imported.
 */
package dev.wsjava.cli;
