package dev.wsjava.conformance;

/** What a case does on the connection: the frames and bytes it sends and what it waits for. */
@FunctionalInterface
public interface Script {

  /**
   * Runs the case against the peer. The runner closes the connection and judges afterwards.
   *
   * @param peer the endpoint under test
   * @throws InterruptedException when interrupted
   */
  void run(Peer peer) throws InterruptedException;
}
