// A small HTTP/1.1 server for the dashboard and the metrics: GET only, one response per
// connection, requests handled one after the other on its own thread.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace cairn::server {

struct HttpRequest {
  std::string path;          // without the query
  std::string authorization; // the Authorization header's value, if any
};

struct HttpResponse {
  int status = 200;
  std::string contentType = "text/plain; charset=utf-8";
  std::string body;
  std::string extraHeaders; // whole lines, each ending in \r\n (Content-Disposition, ...)
};

class HttpServer {
public:
  using Handler = std::function<HttpResponse(const HttpRequest &request)>;
  // Listens on HOST:PORT (port 0: a free one); throws std::runtime_error when it cannot.
  HttpServer(const std::string &address, Handler handler);
  ~HttpServer(); // stops serving
  int port() const { return port_; }

private:
  void serve();
  void answer(int connection);
  Handler handler_;
  int socket_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

} // namespace cairn::server
