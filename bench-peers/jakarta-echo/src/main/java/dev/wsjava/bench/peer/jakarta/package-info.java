/** The Jakarta WebSocket echo endpoint shared by the Jakarta targets. */
package dev.wsjava.bench.peer.jakarta;
