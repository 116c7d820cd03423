package dev.wsjava.cli;

import dev.wsjava.TlsContexts;
import dev.wsjava.Transport;
import dev.wsjava.WebSocketClient;
import dev.wsjava.WebSocketConfig;
import dev.wsjava.WebSocketProxy;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The options every client command shares, and the one place that turns them into a {@link
 * WebSocketClient}. A new client option is a field here and a line in {@link #client}.
 */
final class ClientOptions {
  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--transport", paramLabel = "nio|blocking", defaultValue = "nio",
      description = "NIO event loops, or blocking sockets on virtual threads.")
  Transport transport;

  @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = "Add a header to the handshake request (repeatable).")
  List<String> headers = new ArrayList<>();

  @Option(names = "--cacert", paramLabel = "PEM",
      description = "Trust the certificates in this PEM file for wss:// (host names still checked).")
  Path caCertificates;

  @Option(names = {"-k", "--insecure"},
      description = "wss:// without certificate or host name checks: development only.")
  boolean insecure;

  @Option(names = "--proxy", paramLabel = "URL", converter = ProxyConverter.class,
      description = "Tunnel through this proxy: http://[user:password@]host[:port] (HTTP CONNECT)"
          + " or socks5://[user:password@]host[:port]; wss:// stays TLS end to end.")
  WebSocketProxy proxy;

  @Option(names = "--proxy-from-env",
      description = "Take the proxy from https_proxy (wss://), http_proxy (ws://) or all_proxy,"
          + " minus no_proxy, as curl does.")
  boolean proxyFromEnvironment;

  /**
   * Checks that the URL is ws:// or wss:// with a host and that the options go together; a usage
   * error otherwise.
   */
  URI check(URI url) {
    if (proxy != null && proxyFromEnvironment) {
      throw new ParameterException(spec.commandLine(), "choose --proxy or --proxy-from-env");
    }
    return checkUrl(spec, url);
  }

  /** Checks that a command's URL is ws:// or wss:// with a host; a usage error otherwise. */
  static URI checkUrl(CommandSpec command, URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("ws") && !scheme.equals("wss") || url.getHost() == null) {
      throw new ParameterException(
          command.commandLine(), "'" + url + "' is not a ws:// or wss:// URL with a host");
    }
    if (url.getPort() == 0 || url.getPort() > 65_535) {
      throw new ParameterException(command.commandLine(), "the port " + url.getPort() + " of '"
          + url + "' is out of range: give 1 to 65535, or none for the scheme's default");
    }
    return url;
  }

  /**
   * What a user may try when connecting failed, on a line of its own, or null when there is
   * nothing to add: where to get a certificate trusted, or that the server may speak TLS.
   *
   * @param target the URL that could not be opened
   * @param failure why
   * @return the hint, or null
   */
  static String hint(URI target, Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertPathBuilderException
          || t instanceof java.security.cert.CertPathValidatorException
          || t instanceof java.security.cert.CertificateException
          || t instanceof javax.net.ssl.SSLHandshakeException
              && String.valueOf(t.getMessage()).contains("PKIX")) {
        return "the server's certificate is not trusted here: give the certificate (or its CA)"
            + " with --cacert FILE (or --insecure, for testing only)";
      }
      if (t instanceof java.io.EOFException && "ws".equalsIgnoreCase(target.getScheme())) {
        return "the server may speak TLS: try wss://" + target.getRawAuthority()
            + (target.getRawPath() == null ? "" : target.getRawPath())
            + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
      }
    }
    return null;
  }

  /** Says on stderr, loud and once, that certificates will not be checked. */
  static void warnInsecure(PrintStream err) {
    err.println(
        "wsjava: WARNING: --insecure: wss:// certificates and host names are NOT checked;"
            + " anyone on the path can read and change this traffic. Development only.");
  }

  /** Builds the client: this configuration on the chosen transport, headers, TLS trust. */
  WebSocketClient client(WebSocketConfig config, PrintStream err)
      throws IOException, GeneralSecurityException {
    WebSocketClient.Builder b =
        WebSocketClient.builder().config(config.toBuilder().transport(transport).build());
    for (String header : headers) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        throw new ParameterException(
            spec.commandLine(), "--header '" + header + "' is not 'Name: value'");
      }
      try {
        b.header(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--header '" + header + "': " + e.getMessage());
      }
    }
    if (Usage.readableFile(spec, "--cacert", caCertificates) != null) {
      b.tls(TlsContexts.trusting(caCertificates));
    }
    if (insecure) {
      warnInsecure(err);
      b.insecureTrustAnyCertificateForDevelopmentOnly();
    }
    if (proxy != null) {
      b.proxy(proxy);
    } else if (proxyFromEnvironment) {
      b.proxyFromEnvironment();
    }
    return b.build();
  }

  /** Reads {@code --proxy}; a value it cannot read is a usage error that names the forms it takes. */
  static final class ProxyConverter implements ITypeConverter<WebSocketProxy> {
    @Override
    public WebSocketProxy convert(String value) {
      try {
        return WebSocketProxy.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage()
            + "; give http://[user:password@]host[:port] or socks5://[user:password@]host[:port]");
      }
    }
  }
}
