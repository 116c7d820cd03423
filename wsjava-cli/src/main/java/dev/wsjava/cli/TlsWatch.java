package dev.wsjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

/**
 * Reloads {@code wsjava serve}'s certificate when its files change (a renewal by certbot or a
 * secret mount): every {@link #POLL_SECONDS} it compares each file's modification time and size
 * with what it saw, and on a change loads the files again and hands the new context to the server;
 * new connections get it, open ones keep theirs. A file that does not load (half written, a key
 * that does not match) leaves the current certificate in place, says why, and is tried again at
 * its next change. {@link #check()} is the trigger the poll pulls; tests pull it themselves.
 * Thread-safe.
 */
final class TlsWatch implements AutoCloseable {
  /**
   * How often the files are looked at: a stat of two files is nothing, and a renewal, done days
   * ahead of the old certificate's expiry, does not need to be seen sooner.
   */
  static final int POLL_SECONDS = 5;

  private final List<Path> files;
  private final Callable<SSLContext> load;
  private final Consumer<SSLContext> apply;
  private final PrintStream err;
  private List<String> seen;
  private ScheduledExecutorService poll;

  TlsWatch(List<Path> files, Callable<SSLContext> load, Consumer<SSLContext> apply, PrintStream err) {
    this.files = List.copyOf(files);
    this.load = load;
    this.apply = apply;
    this.err = err;
    this.seen = stamps();
  }

  /** Starts polling on a daemon thread of its own. */
  TlsWatch start() {
    poll = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "wsjava-tls-watch");
      t.setDaemon(true);
      return t;
    });
    poll.scheduleWithFixedDelay(this::check, POLL_SECONDS, POLL_SECONDS, TimeUnit.SECONDS);
    return this;
  }

  /**
   * Reloads when a file changed since the last look.
   *
   * @return true when a new context was applied
   */
  synchronized boolean check() {
    List<String> now = stamps();
    if (now.equals(seen)) {
      return false;
    }
    seen = now;
    try {
      apply.accept(load.call());
      err.println("wsjava serve: reloaded the TLS certificate from " + files
          + "; new connections use it");
      return true;
    } catch (Exception e) {
      err.println("wsjava serve: cannot reload the TLS certificate from " + files + " ("
          + Main.describe(e) + "); keeping the current one");
      return false;
    }
  }

  /** Each file's modification time and size; a missing file is a state of its own. */
  private List<String> stamps() {
    List<String> stamps = new ArrayList<>();
    for (Path f : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        stamps.add(a.lastModifiedTime().toMillis() + "/" + a.size());
      } catch (IOException e) {
        stamps.add("missing");
      }
    }
    return stamps;
  }

  @Override
  public void close() {
    if (poll != null) {
      poll.shutdownNow();
    }
  }
}
