#include "cairn/support/TokenFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cairn {

namespace {

std::string freshToken() {
  unsigned char bytes[32];
  for (size_t got = 0; got < sizeof bytes;) {
    ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno != EINTR)
      throw TokenFileError(std::string("no random bytes for a token: ") + std::strerror(errno));
    got += n > 0 ? size_t(n) : 0;
  }
  static const char *kHex = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 15]);
  }
  return token;
}

// The first word of the open file `fd`, which it closes.
std::string firstWord(int fd, const std::string &path) {
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      throw TokenFileError("cannot read the token file " + path + ": " + std::strerror(errno));
    }
    text.append(buffer, size_t(n));
    if (text.size() > 4096)
      break;
  }
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    throw TokenFileError("the token file " + path + " holds no token");
  const size_t end = text.find_first_of(" \t\r\n", first);
  return text.substr(first, end == std::string::npos ? std::string::npos : end - first);
}

} // namespace

std::string tokenFileOrCreate(const std::string &path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    const std::string token = freshToken(), line = token + "\n";
    const bool written = write(fd, line.data(), line.size()) == ssize_t(line.size());
    close(fd);
    if (!written) {
      unlink(path.c_str());
      throw TokenFileError("cannot write the token file " + path);
    }
    return token;
  }
  if (errno != EEXIST)
    throw TokenFileError("cannot create the token file " + path + ": " + std::strerror(errno));
  fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    throw TokenFileError("cannot read the token file " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077) != 0 || st.st_uid != geteuid()) {
    close(fd);
    throw TokenFileError("the token file " + path +
                         " must be a regular file of this user that no one else may read or write (chmod 600)");
  }
  return firstWord(fd, path);
}

std::string tokenFromFile(const std::string &path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw TokenFileError("cannot read the token file " + path + ": " + std::strerror(errno));
  return firstWord(fd, path);
}

} // namespace cairn
