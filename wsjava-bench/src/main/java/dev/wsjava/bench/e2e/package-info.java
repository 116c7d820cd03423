/**
 * The end-to-end benchmark suite ({@code ./bench e2e}): the raw load client, the connect client,
 * the suite that starts each server process fresh per point, the contract check every target
 * keeps, and the report ({@code docs/benchmarks/RESULTS.md} and its charts). How it measures is in
 * {@code docs/benchmarks/README.md}.
 *
 * <p>Depends on {@code dev.wsjava.bench.peer} (the shared peer code) and HdrHistogram; the peers
 * themselves run in their own processes with their own class paths. No JPMS module, not a library.
 */
package dev.wsjava.bench.e2e;
