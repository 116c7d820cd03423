/**
 * Runnable examples of the wsjava API, one {@code main} each. Build once, then run any of them:
 *
 * <pre>
 * ./mvnw -q -pl examples -am package -DskipTests
 * java -cp wsjava-core/target/classes:examples/target/classes dev.wsjava.examples.WssEchoServer
 * </pre>
 */
package dev.wsjava.examples;
