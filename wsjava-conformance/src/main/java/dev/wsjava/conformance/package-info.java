/**
 * A WebSocket conformance suite written from RFC 6455 and RFC 7692.
 *
 * <p>{@link dev.wsjava.conformance.FuzzingClient} tests a server at a URL; {@link
 * dev.wsjava.conformance.FuzzingServer} tests a client that connects to it. Both play the cases
 * of one {@link dev.wsjava.conformance.Catalogue} (groups 1-7, 9, 10, 12 and 13, one file per
 * group), each a {@link dev.wsjava.conformance.Script} run against a {@link
 * dev.wsjava.conformance.Peer} and an {@link dev.wsjava.conformance.Expect}ation that the {@link
 * dev.wsjava.conformance.Judge} compares with what happened. {@link
 * dev.wsjava.conformance.Report} writes JSON and HTML.
 *
 * <p>The suite leans on wsjava-core only to encode correct frames. It reads frames with its own
 * lenient {@link dev.wsjava.conformance.FrameReader}, checks UTF-8 with its own checker and
 * compresses with {@code java.util.zip} directly, so that a bug in the stack under test cannot
 * hide itself.
 */
package dev.wsjava.conformance;
