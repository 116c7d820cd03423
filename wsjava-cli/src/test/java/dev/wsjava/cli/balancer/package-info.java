/**
 * A reusable harness for tests and benchmarks of wsjava behind real load balancers: {@link
 * dev.wsjava.cli.balancer.ServeNode} ({@code wsjava serve} as a child process, killed with SIGKILL
 * or drained with SIGTERM), and two {@link dev.wsjava.cli.balancer.Balancer}s: {@link
 * dev.wsjava.cli.balancer.Haproxy} (Debian's {@code haproxy},
 * TCP mode, {@code send-proxy-v2}) and {@link dev.wsjava.cli.balancer.Nginx} (Debian's {@code
 * nginx}, WebSocket proxying with {@code X-Forwarded-For}), each on free loopback ports, with the
 * configurations docs/DEPLOYMENT.md shows. Shipped in wsjava-cli's test-jar, so that a benchmark
 * module can depend on it ({@code <type>test-jar</type>}).
 */
package dev.wsjava.cli.balancer;
