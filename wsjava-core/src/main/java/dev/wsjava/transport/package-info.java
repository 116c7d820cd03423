/**
 * What the two transports ({@code transport.nio} and {@code transport.blocking}) share: the
 * transport-neutral {@link dev.wsjava.transport.Connection} and its {@link
 * dev.wsjava.transport.ConnectionHandler}, the client and server transport interfaces the API picks
 * from, their configuration and the shared parts of a server builder, and {@link
 * dev.wsjava.transport.Tuning}, every tuning constant of both with its reason and measurements.
 *
 * <p>May import the sans-I/O layers (protocol, extension, handshake, http, session) and {@code
 * dev.wsjava.proxy}; never the API package nor either transport. Internal: not exported by the
 * module.
 */
package dev.wsjava.transport;
