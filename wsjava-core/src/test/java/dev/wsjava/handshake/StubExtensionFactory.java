package dev.wsjava.handshake;

import dev.wsjava.extension.ByteSink;
import dev.wsjava.extension.Extension;
import dev.wsjava.extension.ExtensionFactory;
import dev.wsjava.extension.ExtensionNegotiationException;
import dev.wsjava.extension.ExtensionOffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A test extension factory that records what it is given. Server side it accepts the first offer
 * without a {@code decline} parameter and echoes it; client side it refuses a response carrying
 * {@code refuse}. Every extension it makes is kept, to check which were closed.
 */
final class StubExtensionFactory implements ExtensionFactory {
  final String name;
  final int rsv;
  final List<ExtensionOffer> offers;
  final List<List<ExtensionOffer>> serverCalls = new ArrayList<>();
  final List<Stub> made = new ArrayList<>();

  StubExtensionFactory(String name, int rsv, ExtensionOffer... offers) {
    this.name = name;
    this.rsv = rsv;
    this.offers =
        offers.length == 0 ? List.of(new ExtensionOffer(name, List.of())) : List.of(offers);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<ExtensionOffer> clientOffers() {
    return offers;
  }

  @Override
  public Extension clientAccept(ExtensionOffer response) throws ExtensionNegotiationException {
    for (ExtensionOffer.Param p : response.params()) {
      if (p.name().equals("refuse")) {
        throw new ExtensionNegotiationException(name + " cannot work with parameter refuse");
      }
    }
    return make(response);
  }

  @Override
  public Accepted serverAccept(List<ExtensionOffer> clientOffers) {
    serverCalls.add(clientOffers);
    for (ExtensionOffer o : clientOffers) {
      if (o.params().stream().noneMatch(p -> p.name().equals("decline"))) {
        return new Accepted(o, make(o));
      }
    }
    return null;
  }

  private Stub make(ExtensionOffer config) {
    Stub s = new Stub(name, rsv, config);
    made.add(s);
    return s;
  }

  /** An extension that passes bytes through. */
  static final class Stub implements Extension {
    final String name;
    final int rsv;
    final ExtensionOffer config;
    boolean closed;

    Stub(String name, int rsv, ExtensionOffer config) {
      this.name = name;
      this.rsv = rsv;
      this.config = config;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int rsvBits() {
      return rsv;
    }

    @Override
    public void decode(int messageRsv, boolean fin, ByteBuffer payload, ByteSink out) {
      throw new UnsupportedOperationException("not used by handshake tests");
    }

    @Override
    public int encode(boolean first, boolean fin, ByteBuffer payload, ByteSink out) {
      throw new UnsupportedOperationException("not used by handshake tests");
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
