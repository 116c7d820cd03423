// The Boost.Beast echo server of the wsjava end-to-end suite: a native (C++) reference, outside the
// JVM ratios like Node's ws. Asynchronous, one io_context per core with one thread each (as Beast's
// examples run one io_context per thread), the listener on the first, each accepted connection
// handed to the next io_context in turn. GET / answers "hello"; /echo reads a whole message and
// writes it back (read, write, read: the examples' echo), as text or binary as it came.
//
// Usage: beast-echo PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]
// (the arguments of every peer, see PeerArgs.java). Built by ./bench with g++ -O2 from Debian's
// libboost-dev (header-only Beast and Asio) and OpenSSL for wss.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/version.hpp>
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

namespace {

// The suite's contract: messages and frames up to 16 MiB, larger ones refused (1009).
constexpr std::size_t kMaxMessage = 16u << 20;

struct Args {
  unsigned short port = 0;
  std::string host = "127.0.0.1";
  int level = -1;  // no permessage-deflate
  bool one_loop = false;
  std::string tls;  // directory with cert.pem and key.pem, empty for ws://
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << why << "; usage: beast-echo PORT [--host ADDR] [--deflate LEVEL] [--one-loop] [--tls DIR]\n";
  std::exit(2);
}

Args parse(int argc, char** argv) {
  if (argc < 2) usage("no port");
  Args a;
  a.port = static_cast<unsigned short>(std::atoi(argv[1]));
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--host") a.host = value();
    else if (arg == "--deflate") a.level = std::atoi(value().c_str());
    else if (arg == "--one-loop") a.one_loop = true;
    else if (arg == "--tls") a.tls = value();
    else usage("unknown argument " + arg);
  }
  if (a.level < -1 || a.level > 9) usage("--deflate takes a zlib level 0-9");
  return a;
}

// The processors this process may run on (1 when the suite pins it with taskset).
int cpus_allowed() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}

// One WebSocket connection: read a whole message, write it back, read the next.
template <class Stream>
class WsSession : public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  explicit WsSession(Stream&& stream) : ws_(std::move(stream)) {}

  void run(http::request<http::string_body> req, int level) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxMessage);
    // A whole message goes out as one frame, header and payload in one write, as every JVM peer
    // sends it (Beast would otherwise cut unmasked messages into frames of its write buffer).
    ws_.auto_fragment(false);
    if (level >= 0) {
      websocket::permessage_deflate pmd;
      pmd.server_enable = true;
      pmd.compLevel = level;
      pmd.memLevel = 8;  // zlib's default, as the JDK's Deflater and Node use (Beast's own is 4)
      ws_.set_option(pmd);
    }
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, this->shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (!ec) read();
  }

  void read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;  // closed (Beast answers the close handshake itself), or failed
    ws_.text(ws_.got_text());
    ws_.async_write(buffer_.data(), beast::bind_front_handler(&WsSession::on_write, this->shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return;
    buffer_.consume(buffer_.size());
    read();
  }

  websocket::stream<Stream> ws_;
  beast::flat_buffer buffer_;
};

// One HTTP/1.1 connection until it upgrades: GET / answers "hello", /echo upgrades.
template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
  static constexpr bool kTls = !std::is_same<Stream, beast::tcp_stream>::value;

 public:
  HttpSession(Stream&& stream, int level) : stream_(std::move(stream)), level_(level) {}

  void run() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
      stream_.async_handshake(ssl::stream_base::server,
          beast::bind_front_handler(&HttpSession::on_handshake, this->shared_from_this()));
    } else {
      read();
    }
  }

 private:
  void on_handshake(beast::error_code ec) {
    if (!ec) read();
  }

  void read() {
    req_ = {};
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, req_,
        beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;  // the client closed, or sent no request in time
    if (websocket::is_upgrade(req_) && req_.target() == "/echo") {
      beast::get_lowest_layer(stream_).expires_never();  // the WebSocket's own timeouts take over
      std::make_shared<WsSession<Stream>>(std::move(stream_))->run(std::move(req_), level_);
      return;
    }
    bool hello = req_.method() == http::verb::get && req_.target() == "/";
    auto res = std::make_shared<http::response<http::string_body>>(
        hello ? http::status::ok : http::status::not_found, req_.version());
    res->set(http::field::content_type, "text/plain");
    res->keep_alive(req_.keep_alive());
    res->body() = hello ? "hello" : "";
    res->prepare_payload();
    auto self = this->shared_from_this();
    http::async_write(stream_, *res, [self, res](beast::error_code ec, std::size_t) {
      if (!ec && res->keep_alive()) self->read();
    });
  }

  Stream stream_;
  int level_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> req_;
};

// Accepts on the first io_context and hands each connection to the next io_context in turn.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, std::vector<std::unique_ptr<net::io_context>>& loops, tcp::endpoint at,
      ssl::context* tls, int level)
      : acceptor_(ioc), loops_(loops), tls_(tls), level_(level) {
    acceptor_.open(at.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(at);
    acceptor_.listen(4096);
  }

  void accept() {
    net::io_context& next = *loops_[next_++ % loops_.size()];
    acceptor_.async_accept(next.get_executor(),
        beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      socket.set_option(tcp::no_delay(true));
      if (tls_ != nullptr) {
        using Tls = beast::ssl_stream<beast::tcp_stream>;
        std::make_shared<HttpSession<Tls>>(Tls(beast::tcp_stream(std::move(socket)), *tls_), level_)->run();
      } else {
        std::make_shared<HttpSession<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), level_)->run();
      }
    }
    accept();
  }

  tcp::acceptor acceptor_;
  std::vector<std::unique_ptr<net::io_context>>& loops_;
  ssl::context* tls_;
  int level_;
  std::size_t next_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Args args = parse(argc, argv);
  int loops = args.one_loop ? 1 : cpus_allowed();
  std::vector<std::unique_ptr<net::io_context>> iocs;
  for (int i = 0; i < loops; i++) iocs.push_back(std::make_unique<net::io_context>(1));

  std::unique_ptr<ssl::context> tls;
  if (!args.tls.empty()) {
    tls = std::make_unique<ssl::context>(ssl::context::tls_server);
    tls->use_certificate_chain_file(args.tls + "/cert.pem");
    tls->use_private_key_file(args.tls + "/key.pem", ssl::context::pem);
  }
  auto listener = std::make_shared<Listener>(*iocs[0], iocs,
      tcp::endpoint(net::ip::make_address(args.host), args.port), tls.get(), args.level);
  listener->accept();

  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;
  std::vector<std::thread> threads;
  for (int i = 1; i < loops; i++) {
    guards.push_back(net::make_work_guard(*iocs[i]));
    threads.emplace_back([&iocs, i] { iocs[i]->run(); });
  }
  std::string detail = "Beast " + std::to_string(BOOST_BEAST_VERSION) + " (Boost " + BOOST_LIB_VERSION + "), "
      + std::to_string(loops) + " io_context(s) with one thread each, accepting on the first";
  if (args.level >= 0) detail += "; deflate level " + std::to_string(args.level) + " memLevel 8";
  if (tls) detail += "; wss (OpenSSL)";
  std::printf("READY %u %s\n", static_cast<unsigned>(args.port), detail.c_str());
  std::fflush(stdout);
  iocs[0]->run();
  for (auto& t : threads) t.join();
  return 0;
}
