package dev.wsjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The page of {@code wsjava serve --token} and {@code --basic-auth} in headless Chromium ({@code
 * src/test/browser/browser-auth-test.mjs}): its chat asks for the secret instead of a nickname, says
 * "not admitted" for a wrong one, and joins with the right one under the name the server gives.
 * Needs what {@link BrowserTest} needs.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BrowserAuthTest {
  private static final long SCRIPT_MINUTES = 2;

  @Test
  void thePageJoinsTheChatWithATokenOrAUserAndPassword() throws Exception {
    BrowserTest.requireBrowser();
    try (ServeCommand.Running token = Cli.serve("--port", "0", "--token", "alice=s3cr3t-t0ken");
        ServeCommand.Running basic = Cli.serve("--port", "0", "--basic-auth", "carol:pass word")) {
      BrowserTest.Run test = BrowserTest.run(
          List.of("node", "browser-auth-test.mjs",
              "http://127.0.0.1:" + token.port() + "/", "alice", "s3cr3t-t0ken",
              "http://127.0.0.1:" + basic.port() + "/", "carol", "pass word"),
          BrowserTest.OUT.resolve("browser-auth-test.log"), SCRIPT_MINUTES);
      System.out.println(test.output());
      assertThat(test.exit()).as("browser-auth-test.mjs failed:%n%s", test.output()).isZero();
      assertThat(test.output()).contains("all checks passed").doesNotContain("FAIL");
    }
  }
}
