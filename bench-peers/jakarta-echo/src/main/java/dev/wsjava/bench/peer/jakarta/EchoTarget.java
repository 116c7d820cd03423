package dev.wsjava.bench.peer.jakarta;

import dev.wsjava.bench.peer.PeerArgs;
import java.util.Arrays;

/**
 * A Jakarta target's command line: {@code [--whole]} then {@link PeerArgs}. With {@code --whole}
 * the target deploys {@link JakartaWholeEcho}, else {@link JakartaEcho}.
 *
 * @param endpoint the endpoint class to deploy
 * @param peer the rest of the command line
 */
public record EchoTarget(Class<?> endpoint, PeerArgs peer) {
  /**
   * Reads a Jakarta target's command line.
   *
   * @param args {@code [--whole]} then {@link PeerArgs}
   * @return the endpoint and the peer's arguments
   */
  public static EchoTarget parse(String[] args) {
    boolean whole = args.length > 0 && args[0].equals("--whole");
    PeerArgs peer = PeerArgs.parse(whole ? Arrays.copyOfRange(args, 1, args.length) : args);
    return new EchoTarget(whole ? JakartaWholeEcho.class : JakartaEcho.class, peer);
  }

  /**
   * Whether the whole-message form is deployed.
   *
   * @return true for {@link JakartaWholeEcho}
   */
  public boolean whole() {
    return endpoint == JakartaWholeEcho.class;
  }
}
