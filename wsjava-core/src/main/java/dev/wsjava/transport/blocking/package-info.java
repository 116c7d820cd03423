/**
 * The blocking transport: one virtual thread per connection running a plain read loop, in the
 * style of Helidon's {@code WsConnection.handle()}; writes happen on the thread that sends.
 *
 * <p>{@link dev.wsjava.transport.blocking.BlockingServer} accepts connections, speaks HTTP until
 * an upgrade (the bare handshake, or the {@link dev.wsjava.internal.http.HttpConnection} front with plain
 * routes), {@link dev.wsjava.transport.blocking.BlockingClient} connects and upgrades, and both
 * hand over a {@link dev.wsjava.transport.blocking.BlockingConnection}. TLS runs on {@code
 * SSLSocket} (TLS 1.2 and 1.3). No protocol decision is made here: the session, the handshake and
 * the HTTP front decide; this package moves bytes, keeps time and reports events.
 *
 * <p>May import the sans-I/O layers, {@code dev.wsjava.proxy} and {@code dev.wsjava.transport};
 * never {@code transport.nio} nor the API. Internal: not exported by the module.
 */
package dev.wsjava.transport.blocking;
