package dev.wsjava;

/** Which I/O model runs the connections. Both run the same protocol core and pass the same tests. */
public enum Transport {
  /** Selector event loops: few threads, many connections, least memory per idle connection. */
  NIO,
  /** One virtual thread per connection with blocking socket I/O: plain code, easy to debug. */
  BLOCKING
}
