/** The Jakarta echo target on tomcat. */
package dev.wsjava.bench.peer.jakarta.tomcat;
