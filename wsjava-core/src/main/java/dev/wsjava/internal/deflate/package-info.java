/**
 * The permessage-deflate codec (RFC 7692): the per-connection {@link
 * dev.wsjava.internal.deflate.DeflateExtension}, its parameters' negotiation rules, a bounded
 * inflater (decompression bombs stop at the configured size), a windowed deflater and its own
 * deflate block encoder.
 *
 * <p>Sans-I/O; may import {@code dev.wsjava.extension} (the SPI it implements) and {@code
 * dev.wsjava.protocol}. Not exported: users configure it through {@code PerMessageDeflate}.
 */
package dev.wsjava.internal.deflate;
