/** The Jakarta echo target on tyrus. */
package dev.wsjava.bench.peer.jakarta.tyrus;
