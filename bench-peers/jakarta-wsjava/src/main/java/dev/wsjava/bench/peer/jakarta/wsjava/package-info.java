/** The Jakarta echo target on wsjava. */
package dev.wsjava.bench.peer.jakarta.wsjava;
