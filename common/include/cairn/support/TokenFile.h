// A service's own secret, kept in a file only its user may read: the token a daemon accepts by
// default when it is given none, so that a service is never open by accident.
#pragma once

#include <stdexcept>
#include <string>

namespace cairn {

struct TokenFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The token in `path`, which is created first (mode 600, a fresh token of 256 random bits in
// hex) when there is no such file. An existing file is read as it is, so a restarted daemon
// keeps accepting the clients it had; one that others may read or write is refused, as is one
// that holds no token.
std::string tokenFileOrCreate(const std::string &path);

// The token a client sends: the first word of `path` (a service's token file, or a file of its
// tokens, of which the first is taken). Throws TokenFileError naming the file when it cannot be
// read or holds none.
std::string tokenFromFile(const std::string &path);

} // namespace cairn
