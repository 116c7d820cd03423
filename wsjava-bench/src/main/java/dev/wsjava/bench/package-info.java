/**
 * JMH microbenchmarks of the core's hot paths (codec, masking, UTF-8, deflate, loopback echo),
 * with Netty's codec beside ours in the same run, and the idle-footprint and deflate-window
 * measurements ({@code ./bench micro}, {@code ./bench footprint}, {@code ./bench windows}).
 *
 * <p>Depends on the core's exported packages, JMH and Netty (a peer here only). Benchmarks print
 * figures; they are not tests. No JPMS module, not a library.
 */
package dev.wsjava.bench;
