/**
 * The implementation of the Jakarta containers, not exported: the sessions over wsjava sockets
 * ({@code JSession}), the annotation scanning that resolves every endpoint method to one method
 * handle ({@code EndpointModel}), codecs, URI templates, the server's handshake decision ({@code
 * ServerDeployment}) and the client container ({@code ClientContainer}). Its public classes are
 * public only for the {@link java.util.ServiceLoader} and for {@code dev.wsjava.jakarta}; they may
 * change in any release.
 */
package dev.wsjava.jakarta.internal;
