#include "HttpServer.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace cairn::server {

namespace {

// The value of header `name` (matched without regard to case) in the request's head, or "".
std::string headerValue(const std::string &head, const std::string &name) {
  for (size_t at = head.find("\r\n"); at != std::string::npos && at + 2 < head.size();) {
    const size_t start = at + 2, end = head.find("\r\n", start);
    const std::string line = head.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const size_t colon = line.find(':');
    if (colon == name.size() && std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      const size_t value = line.find_first_not_of(" \t", colon + 1);
      return value == std::string::npos ? "" : line.substr(value, line.find_last_not_of(" \t") + 1 - value);
    }
    at = end;
  }
  return "";
}

const char *reasonPhrase(int status) {
  switch (status) {
  case 200: return "OK";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 409: return "Conflict";
  case 413: return "Content Too Large";
  default: return "Error";
  }
}

} // namespace

HttpServer::HttpServer(const std::string &address, Handler handler) : handler_(std::move(handler)) {
  size_t colon = address.rfind(':');
  if (colon == std::string::npos)
    throw std::runtime_error("HTTP address needs HOST:PORT, got '" + address + "'");
  std::string host = address.substr(0, colon), port = address.substr(colon + 1);
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  if (getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found) != 0 || !found)
    throw std::runtime_error("cannot resolve HTTP address '" + address + "'");
  socket_ = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(socket_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (socket_ < 0 || ::bind(socket_, found->ai_addr, found->ai_addrlen) != 0 || ::listen(socket_, 64) != 0) {
    std::string why = std::strerror(errno);
    freeaddrinfo(found);
    if (socket_ >= 0)
      ::close(socket_);
    throw std::runtime_error("cannot listen for HTTP on " + address + ": " + why);
  }
  freeaddrinfo(found);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(socket_, reinterpret_cast<sockaddr *>(&bound), &len);
  port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&bound)->sin6_port
                                            : reinterpret_cast<sockaddr_in *>(&bound)->sin_port);
  thread_ = std::thread([this] { serve(); });
}

HttpServer::~HttpServer() {
  stopping_ = true;
  thread_.join();
  ::close(socket_);
}

void HttpServer::serve() {
  while (!stopping_) {
    pollfd p{socket_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0)
      continue;
    int connection = ::accept4(socket_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0)
      continue;
    timeval timeout{2, 0};
    ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    answer(connection);
    ::close(connection);
  }
}

void HttpServer::answer(int connection) {
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536) {
    ssize_t n = ::recv(connection, buf, sizeof buf, 0);
    if (n <= 0)
      return;
    request.append(buf, size_t(n));
  }
  HttpResponse response;
  size_t sp1 = request.find(' '), sp2 = request.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos) {
    response = {400, "text/plain; charset=utf-8", "bad request\n", ""};
  } else if (request.substr(0, sp1) != "GET") {
    response = {405, "text/plain; charset=utf-8", "only GET is served\n", ""};
  } else {
    std::string path = request.substr(sp1 + 1, sp2 - sp1 - 1);
    HttpRequest parsed{path.substr(0, path.find('?')), headerValue(request.substr(0, request.find("\r\n\r\n")), "Authorization")};
    try {
      response = handler_(parsed);
    } catch (const std::exception &e) {
      response = {500, "text/plain; charset=utf-8", std::string(e.what()) + "\n", ""};
    }
  }
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " + reasonPhrase(response.status) +
                     "\r\nContent-Type: " + response.contentType +
                     "\r\nContent-Length: " + std::to_string(response.body.size()) +
                     "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n" +
                     response.extraHeaders + "\r\n";
  std::string all = head + response.body;
  for (size_t sent = 0; sent < all.size();) {
    ssize_t n = ::send(connection, all.data() + sent, all.size() - sent, MSG_NOSIGNAL);
    if (n <= 0)
      return;
    sent += size_t(n);
  }
}

} // namespace cairn::server
