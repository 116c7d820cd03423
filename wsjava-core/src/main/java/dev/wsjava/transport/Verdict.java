package dev.wsjava.transport;

import dev.wsjava.Headers;
import dev.wsjava.handshake.ServerHandshake;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * What an {@link Acceptor} decided about one upgrade: {@link Accept}, {@link Refuse}, or {@link
 * Later} when the decision waits for something (a token check that calls out).
 */
public sealed interface Verdict {

  /**
   * Refuses with a status and the default short body.
   *
   * @param status 300 to 599
   * @param reason for logs, never sent
   * @return the verdict
   */
  static Verdict refuse(int status, String reason) {
    return new Refuse(ServerHandshake.reject(status, reason));
  }

  /**
   * Serve the connection: answer 101 with {@code subprotocol} and these extra fields.
   *
   * @param handler the connection's handler
   * @param subprotocol the subprotocol to answer, null for none; one the client offered
   * @param headers more 101 fields (for example {@code Set-Cookie}); none the handshake owns
   * @param declinesExtensions true to answer with no extension although some were negotiated
   */
  record Accept(ConnectionHandler handler, String subprotocol, Headers headers, boolean declinesExtensions)
      implements Verdict {
    /**
     * Checks.
     *
     * @param handler not null
     * @param subprotocol or null
     * @param headers not null
     * @param declinesExtensions whether to drop the negotiated extensions
     */
    public Accept {
      Objects.requireNonNull(handler, "handler");
      Objects.requireNonNull(headers, "headers");
    }

    /**
     * Serves with the negotiated extensions.
     *
     * @param handler not null
     * @param subprotocol or null
     * @param headers not null
     */
    public Accept(ConnectionHandler handler, String subprotocol, Headers headers) {
      this(handler, subprotocol, headers, false);
    }
  }

  /**
   * Do not serve: send this complete response, then close.
   *
   * @param rejected the response and its status
   */
  record Refuse(ServerHandshake.Rejected rejected) implements Verdict {
    /**
     * Checks.
     *
     * @param rejected not null
     */
    public Refuse {
      Objects.requireNonNull(rejected, "rejected");
    }
  }

  /**
   * The decision comes later, on any thread; the connection reads nothing meanwhile, and gets 503
   * when it takes longer than the handshake timeout. A failed stage is answered 500.
   *
   * @param stage completes with an {@link Accept} or a {@link Refuse}
   */
  record Later(CompletionStage<? extends Verdict> stage) implements Verdict {
    /**
     * Checks.
     *
     * @param stage not null
     */
    public Later {
      Objects.requireNonNull(stage, "stage");
    }
  }
}
