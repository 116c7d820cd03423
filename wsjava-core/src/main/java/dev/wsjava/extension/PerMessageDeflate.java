package dev.wsjava.extension;

import dev.wsjava.internal.deflate.DeflateExtension;
import dev.wsjava.internal.deflate.DeflateParams;
import java.util.List;

/**
 * RFC 7692 §7: negotiates the permessage-deflate extension, as client or server, and creates the
 * per-connection deflate codec (internal) from its immutable configuration.
 *
 * <p>Windows (§7.1.2): a server honours every {@code server_max_window_bits} from 8 to 15 that a
 * client asks for, echoing it, and then never refers back farther than 2^N bytes; a client always
 * offers {@code client_max_window_bits} without a value and honours the server's answer the same
 * way. With 15 bits {@code java.util.zip.Deflater} compresses; below 15 a compressor of this
 * package does, since zlib cannot be held to such a window. The inflater reads any window, so
 * this end never limits the peer's.
 *
 * <p>The two no-context-takeover switches mean the same on both sides, so one configuration
 * serves a client and a server: a client asks for, or offers, what is switched on; a server grants
 * it in every response, whatever the offer (§7.1.1.1, §7.1.1.2 let it). Either end may stop
 * taking over its own context unilaterally; the switches make it part of the agreement.
 *
 * <p>Immutable and thread-safe: one instance serves every connection. Made by {@link #builder()},
 * whose setters give each default and its reason.
 */
public final class PerMessageDeflate implements ExtensionFactory {

  /** The registered extension name. */
  public static final String NAME = "permessage-deflate";

  /** {@link #serverMaxWindowBits()} value for "do not offer server_max_window_bits". */
  public static final int WINDOW_BITS_NOT_OFFERED = 0;

  /**
   * Level 3: levels 1-3 use zlib's fast matcher. On JSON-like messages (JDK 25, small messages
   * with context takeover and 4 MB streams) level 3 came out 5-10% smaller than level 1 at 90-97%
   * of its speed, while level 6 was another 6-11% smaller at half to two thirds the speed.
   */
  public static final int DEFAULT_COMPRESSION_LEVEL = 3;

  /**
   * 16 bytes: below that a DEFLATE block's own overhead (block header, end-of-block code, the
   * flush octet) eats any saving, even with a shared window, while the zlib call still costs.
   */
  public static final int DEFAULT_MIN_COMPRESS_SIZE = 16;

  /**
   * Keep the server's context: messages that repeat earlier ones (JSON keys) compress far
   * better, and resetting zlib after each message costs CPU. Our deflater's memory is held per
   * connection either way.
   */
  public static final boolean DEFAULT_SERVER_NO_CONTEXT_TAKEOVER = false;

  /** Keep the client's context, for the same reasons as the server's. */
  public static final boolean DEFAULT_CLIENT_NO_CONTEXT_TAKEOVER = false;

  /**
   * Do not ask for a smaller server window: it costs compression ratio and saves no memory in
   * this library's inflater, which java.util.zip sizes for 15 bits whatever the window.
   */
  public static final int DEFAULT_SERVER_MAX_WINDOW_BITS = WINDOW_BITS_NOT_OFFERED;

  private static final PerMessageDeflate DEFAULTS = new Builder().build();

  /** The fallback offer: {@code permessage-deflate; client_max_window_bits}. */
  private static final DeflateParams PLAIN_OFFER =
      new DeflateParams(false, false, DeflateParams.ABSENT, DeflateParams.NO_VALUE);

  private final int compressionLevel;
  private final int minCompressSize;
  private final boolean serverNoContextTakeover;
  private final boolean clientNoContextTakeover;
  private final int serverMaxWindowBits;

  private PerMessageDeflate(
      int compressionLevel,
      int minCompressSize,
      boolean serverNoContextTakeover,
      boolean clientNoContextTakeover,
      int serverMaxWindowBits) {
    if (compressionLevel < 0 || compressionLevel > 9) {
      throw new IllegalArgumentException(
          "compressionLevel " + compressionLevel + " is not a zlib level: use 0 to 9");
    }
    if (minCompressSize < 0) {
      throw new IllegalArgumentException(
          "minCompressSize " + minCompressSize + " is negative: use 0 to compress every message");
    }
    if (serverMaxWindowBits != WINDOW_BITS_NOT_OFFERED
        && (serverMaxWindowBits < DeflateParams.MIN_WINDOW_BITS
            || serverMaxWindowBits > DeflateParams.MAX_WINDOW_BITS)) {
      throw new IllegalArgumentException(
          "serverMaxWindowBits " + serverMaxWindowBits + " is out of range: use 8 to 15, or"
              + " WINDOW_BITS_NOT_OFFERED (RFC 7692 §7.1.2.1)");
    }
    this.compressionLevel = compressionLevel;
    this.minCompressSize = minCompressSize;
    this.serverNoContextTakeover = serverNoContextTakeover;
    this.clientNoContextTakeover = clientNoContextTakeover;
    this.serverMaxWindowBits = serverMaxWindowBits;
  }

  /**
   * Returns the zlib level.
   *
   * @return 0 (store only) to 9 (smallest, slowest)
   */
  public int compressionLevel() {
    return compressionLevel;
  }

  /**
   * Returns the size below which a message sent in one frame goes out uncompressed, RSV1 clear
   * (§6 allows this per message).
   *
   * @return bytes; 0 compresses everything
   */
  public int minCompressSize() {
    return minCompressSize;
  }

  /**
   * Returns whether the server's compressor forgets its window after every message: a client asks
   * for it in its offer, a server always adds it to its response.
   *
   * @return whether it is on
   */
  public boolean serverNoContextTakeover() {
    return serverNoContextTakeover;
  }

  /**
   * Returns whether the client's compressor forgets its window after every message: a client
   * offers it (and keeps to it, whatever the response), a server always demands it.
   *
   * @return whether it is on
   */
  public boolean clientNoContextTakeover() {
    return clientNoContextTakeover;
  }

  /**
   * Returns the window a client asks the server for; a server ignores it and compresses with 15
   * bits unless the client asks for fewer.
   *
   * @return 8..15 (2^n bytes, with a plain offer as fallback), or {@link #WINDOW_BITS_NOT_OFFERED}
   */
  public int serverMaxWindowBits() {
    return serverMaxWindowBits;
  }

  /**
   * Compares the five settings.
   *
   * @param o another object
   * @return true for a {@code PerMessageDeflate} with the same settings
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof PerMessageDeflate p
        && p.compressionLevel == compressionLevel
        && p.minCompressSize == minCompressSize
        && p.serverNoContextTakeover == serverNoContextTakeover
        && p.clientNoContextTakeover == clientNoContextTakeover
        && p.serverMaxWindowBits == serverMaxWindowBits;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        compressionLevel,
        minCompressSize,
        serverNoContextTakeover,
        clientNoContextTakeover,
        serverMaxWindowBits);
  }

  /**
   * Describes the settings.
   *
   * @return for example {@code PerMessageDeflate[compressionLevel=3, ...]}
   */
  @Override
  public String toString() {
    return "PerMessageDeflate[compressionLevel=" + compressionLevel
        + ", minCompressSize=" + minCompressSize
        + ", serverNoContextTakeover=" + serverNoContextTakeover
        + ", clientNoContextTakeover=" + clientNoContextTakeover
        + ", serverMaxWindowBits=" + serverMaxWindowBits + "]";
  }

  /**
   * Returns the default configuration (every {@code DEFAULT_*} constant).
   *
   * @return the defaults
   */
  public static PerMessageDeflate defaults() {
    return DEFAULTS;
  }

  /**
   * Starts a configuration from the defaults.
   *
   * @return a builder holding the defaults
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a configuration from this one.
   *
   * @return a builder holding this configuration's values
   */
  public Builder toBuilder() {
    return new Builder()
        .compressionLevel(compressionLevel)
        .minCompressSize(minCompressSize)
        .serverNoContextTakeover(serverNoContextTakeover)
        .clientNoContextTakeover(clientNoContextTakeover)
        .serverMaxWindowBits(serverMaxWindowBits);
  }

  /**
   * Returns {@code permessage-deflate}.
   *
   * @return {@link #NAME}
   */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Client side (§5, §7.1): one offer with the configured parameters and {@code
   * client_max_window_bits} without a value (this client keeps to any window the server names);
   * when it carries {@code server_max_window_bits}, a plain {@code permessage-deflate;
   * client_max_window_bits} follows for servers that cannot honour a smaller window.
   *
   * @return one or two offers, most preferred first
   */
  @Override
  public List<ExtensionOffer> clientOffers() {
    List<DeflateParams> offers = offerParams();
    return offers.size() == 1
        ? List.of(offers.get(0).toElement())
        : List.of(offers.get(0).toElement(), offers.get(1).toElement());
  }

  private List<DeflateParams> offerParams() {
    DeflateParams first =
        new DeflateParams(
            serverNoContextTakeover,
            clientNoContextTakeover,
            serverMaxWindowBits,
            DeflateParams.NO_VALUE);
    return serverMaxWindowBits == WINDOW_BITS_NOT_OFFERED
        ? List.of(first)
        : List.of(first, PLAIN_OFFER);
  }

  /**
   * Client side (§7): checks the server's response against the offers and creates the extension.
   * The response is accepted when it fits at least one offer; the client's compressor resets
   * after each message when the response says {@code client_no_context_takeover} or this
   * configuration asks for it, its decompressor when the response says {@code
   * server_no_context_takeover}; its compressor's window is the response's {@code
   * client_max_window_bits}, else 15 bits.
   *
   * @param response the server's {@code permessage-deflate} element
   * @return the extension for this connection
   * @throws ExtensionNegotiationException when the response has an unknown, repeated or
   *     malformed parameter, or fits none of the offers; the message names the rule
   */
  @Override
  public Extension clientAccept(ExtensionOffer response) throws ExtensionNegotiationException {
    if (!NAME.equals(response.name())) {
      throw new ExtensionNegotiationException(
          "response names extension " + response.name() + ", not " + NAME);
    }
    DeflateParams accepted = DeflateParams.parse(response, false);
    String misfit = null;
    for (DeflateParams offer : offerParams()) {
      String why = accepted.misfitAsResponseTo(offer);
      if (why == null) {
        return new DeflateExtension(
            compressionLevel,
            minCompressSize,
            clientNoContextTakeover || accepted.clientNoContextTakeover(),
            accepted.serverNoContextTakeover(),
            windowBits(accepted.clientMaxWindowBits()));
      }
      if (misfit == null) {
        misfit = why;
      }
    }
    throw new ExtensionNegotiationException("permessage-deflate response fits no offer: " + misfit);
  }

  /**
   * Server side (§5, §7): accepts the first offer this server can honour: the first that is well
   * formed. Offers with unknown, repeated or malformed parameters are declined. The response
   * grants the offer's no-context-takeover parameters plus this configuration's, echoes {@code
   * server_max_window_bits} when offered (and compresses within that window), and leaves the
   * client's window unlimited.
   *
   * @param offers the client's {@code permessage-deflate} offers in the client's order
   * @return the response and extension, or {@code null} when every offer is declined
   */
  @Override
  public Accepted serverAccept(List<ExtensionOffer> offers) {
    for (ExtensionOffer offer : offers) {
      if (!NAME.equals(offer.name())) {
        continue;
      }
      DeflateParams asked;
      try {
        asked = DeflateParams.parse(offer, true);
      } catch (ExtensionNegotiationException malformed) {
        continue; // §7: decline, and try the next offer
      }
      boolean snct = asked.serverNoContextTakeover() || serverNoContextTakeover;
      boolean cnct = asked.clientNoContextTakeover() || clientNoContextTakeover;
      DeflateParams response =
          new DeflateParams(snct, cnct, asked.serverMaxWindowBits(), DeflateParams.ABSENT);
      return new Accepted(
          response.toElement(),
          new DeflateExtension(
              compressionLevel,
              minCompressSize,
              snct,
              cnct,
              windowBits(asked.serverMaxWindowBits())));
    }
    return null;
  }

  /** A negotiated window: the parameter's value, or 15 bits when it is absent. */
  private static int windowBits(int parameter) {
    return parameter > 0 ? parameter : DeflateParams.MAX_WINDOW_BITS;
  }

  /**
   * Builds a {@link PerMessageDeflate}; starts from the defaults. Not thread-safe.
   */
  public static final class Builder {
    private int compressionLevel = DEFAULT_COMPRESSION_LEVEL;
    private int minCompressSize = DEFAULT_MIN_COMPRESS_SIZE;
    private boolean serverNoContextTakeover = DEFAULT_SERVER_NO_CONTEXT_TAKEOVER;
    private boolean clientNoContextTakeover = DEFAULT_CLIENT_NO_CONTEXT_TAKEOVER;
    private int serverMaxWindowBits = DEFAULT_SERVER_MAX_WINDOW_BITS;

    private Builder() {}

    /**
     * Sets the zlib level.
     *
     * @param level 0 (store only) to 9
     * @return this builder
     */
    public Builder compressionLevel(int level) {
      this.compressionLevel = level;
      return this;
    }

    /**
     * Sets the size below which a single-frame message is sent uncompressed.
     *
     * @param bytes 0 or more; 0 compresses every message
     * @return this builder
     */
    public Builder minCompressSize(int bytes) {
      this.minCompressSize = bytes;
      return this;
    }

    /**
     * Sets whether the server's compressor forgets its window after every message.
     *
     * @param on true: a client asks for it, a server always grants it
     * @return this builder
     */
    public Builder serverNoContextTakeover(boolean on) {
      this.serverNoContextTakeover = on;
      return this;
    }

    /**
     * Sets whether the client's compressor forgets its window after every message.
     *
     * @param on true: a client offers it, a server always demands it
     * @return this builder
     */
    public Builder clientNoContextTakeover(boolean on) {
      this.clientNoContextTakeover = on;
      return this;
    }

    /**
     * Sets the {@code server_max_window_bits} a client asks for.
     *
     * @param bits 8 to 15, or {@link #WINDOW_BITS_NOT_OFFERED}
     * @return this builder
     */
    public Builder serverMaxWindowBits(int bits) {
      this.serverMaxWindowBits = bits;
      return this;
    }

    /**
     * Creates the configuration.
     *
     * @return the immutable configuration
     * @throws IllegalArgumentException when a value is out of range
     */
    public PerMessageDeflate build() {
      return new PerMessageDeflate(
          compressionLevel,
          minCompressSize,
          serverNoContextTakeover,
          clientNoContextTakeover,
          serverMaxWindowBits);
    }
  }
}
