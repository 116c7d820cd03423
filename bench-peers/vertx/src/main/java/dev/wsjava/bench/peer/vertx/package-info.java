/**
 * The benchmark peer for Vert.x: its echo server for the end-to-end suite, run as a process of its
 * own that keeps the suite's contract (TCP_NODELAY, 16 MiB messages, deflate level 6 where it is
 * on).
 *
 * <p>Depends on {@code dev.wsjava.bench.peer} and Vert.x only; each peer module has a class path of
 * its own, since the peers' dependency trees conflict. No JPMS module, not a library.
 */
package dev.wsjava.bench.peer.vertx;
