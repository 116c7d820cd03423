/**
 * What every benchmark peer shares: the peer command line ({@link dev.wsjava.bench.peer.PeerArgs}),
 * workloads and their checked payloads, the client drivers' measuring loop ({@link
 * dev.wsjava.bench.peer.ClientBench}), CPU time from {@code /proc} and the result line the suite
 * reads.
 *
 * <p>Depends on the JDK and HdrHistogram only, so that each library's peer module adds just its
 * own library. No JPMS module, not a library.
 */
package dev.wsjava.bench.peer;
