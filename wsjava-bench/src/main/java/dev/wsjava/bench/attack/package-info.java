/**
 * Issue 23's attacks at the scale against servers forked with a 512 MiB heap: wsjava
 * {@code serve} on both transports beside Netty's echo server from {@code bench-peers/netty}. A
 * main program, not a test: it prints one table row per attack and server.
 */
package dev.wsjava.bench.attack;
