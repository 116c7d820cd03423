package dev.wsjava.bench.e2e;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What the raw load client counts: echoes, payload bytes, round trips (HdrHistogram, nanoseconds),
 * socket bytes each way, and failures. Only the measured interval counts: {@link #startMeasuring}
 * clears everything but the open-connection count. Single-threaded, like the client.
 */
final class LoadStats {
  private final Histogram rtt = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
  private boolean measuring;
  private long echoes;
  private long payloadBytes;
  private long bytesUp;
  private long bytesDown;
  private int open;
  private int failures;
  private String firstFailure;

  void startMeasuring() {
    measuring = true;
    rtt.reset();
    echoes = 0;
    payloadBytes = 0;
    bytesUp = 0;
    bytesDown = 0;
  }

  void stopMeasuring() {
    measuring = false;
  }

  void opened() {
    open++;
  }

  void read(int n) {
    if (measuring) {
      bytesDown += n;
    }
  }

  void written(int n) {
    if (measuring) {
      bytesUp += n;
    }
  }

  void echoed(int size, long nanos) {
    if (measuring) {
      echoes++;
      payloadBytes += size;
      rtt.recordValue(Math.max(0, Math.min(nanos, rtt.getHighestTrackableValue())));
    }
  }

  void failed(String why) {
    failures++;
    if (firstFailure == null) {
      firstFailure = why;
    }
  }

  Histogram rtt() {
    return rtt;
  }

  long echoes() {
    return echoes;
  }

  long payloadBytes() {
    return payloadBytes;
  }

  long bytesUp() {
    return bytesUp;
  }

  long bytesDown() {
    return bytesDown;
  }

  int open() {
    return open;
  }

  int failures() {
    return failures;
  }

  String firstFailure() {
    return firstFailure;
  }
}
