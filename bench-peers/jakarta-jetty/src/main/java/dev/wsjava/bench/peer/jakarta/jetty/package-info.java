/** The Jakarta echo target on jetty. */
package dev.wsjava.bench.peer.jakarta.jetty;
