#include "cairn/ktest/KTest.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <limits>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace cairn {

namespace {

constexpr std::string_view kMagic = "KTEST";
constexpr std::string_view kLegacyMagic = "BOUT\n";

// ---- Encoding ---------------------------------------------------------------------------------

void putU32(std::string &out, uint32_t v) {
  out.push_back(static_cast<char>((v >> 24) & 0xff));
  out.push_back(static_cast<char>((v >> 16) & 0xff));
  out.push_back(static_cast<char>((v >> 8) & 0xff));
  out.push_back(static_cast<char>(v & 0xff));
}

uint32_t checkedLength(size_t n, const char *what) {
  if (n > std::numeric_limits<uint32_t>::max())
    throw std::runtime_error(std::string("ktest: ") + what + " of " + std::to_string(n) +
                             " is too large for the format (at most 4294967295)");
  return static_cast<uint32_t>(n);
}

void putBytes(std::string &out, const void *data, size_t n, const char *what) {
  putU32(out, checkedLength(n, what));
  out.append(static_cast<const char *>(data), n);
}

// ---- Decoding ---------------------------------------------------------------------------------

class Reader {
public:
  explicit Reader(std::string_view in) : in_(in) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }

  uint32_t u32(const char *what) {
    need(4, what);
    auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(in_[pos_ + i])); };
    uint32_t v = (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
    pos_ += 4;
    return v;
  }

  // A length-prefixed byte string; the length is checked against the input before anything is
  // allocated.
  std::string_view bytes(const char *what) {
    size_t lengthAt = pos_;
    uint32_t n = u32(what);
    if (n > remaining())
      throw std::runtime_error("ktest: " + std::string(what) + " length " + std::to_string(n) +
                               " (at offset " + std::to_string(lengthAt) +
                               ") exceeds the " + std::to_string(remaining()) +
                               " bytes left in the input (truncated or corrupt file)");
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }

  // A count of records that each take at least `minRecordSize` bytes.
  uint32_t count(const char *what, size_t minRecordSize) {
    size_t countAt = pos_;
    uint32_t n = u32(what);
    if (n > remaining() / minRecordSize)
      throw std::runtime_error("ktest: " + std::string(what) + " " + std::to_string(n) +
                               " (at offset " + std::to_string(countAt) + ") is more than the " +
                               std::to_string(remaining()) +
                               " bytes left in the input could hold (truncated or corrupt file)");
    return n;
  }

  std::string_view raw(size_t n, const char *what) {
    need(n, what);
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }

private:
  void need(size_t n, const char *what) {
    if (n > remaining())
      throw std::runtime_error("ktest: truncated input: " + std::string(what) + " at offset " +
                               std::to_string(pos_) + " needs " + std::to_string(n) +
                               " bytes but only " + std::to_string(remaining()) + " remain");
  }

  std::string_view in_;
  size_t pos_ = 0;
};

std::string errnoText(int err) { return std::generic_category().message(err); }

// ---- Printing ---------------------------------------------------------------------------------

void appendHexEscape(std::string &out, unsigned v) {
  static const char digits[] = "0123456789abcdef";
  out += "\\x";
  out.push_back(digits[(v >> 4) & 0xf]);
  out.push_back(digits[v & 0xf]);
}

// Python picks double quotes only when the text holds a single quote and no double quote.
char pythonQuote(std::string_view s) {
  bool single = s.find('\'') != std::string_view::npos;
  bool dbl = s.find('"') != std::string_view::npos;
  return single && !dbl ? '"' : '\'';
}

// The escapes common to Python's repr of bytes and of str; false when `c` needs other handling.
bool appendAsciiRepr(std::string &out, unsigned char c, char quote) {
  if (c == '\\') {
    out += "\\\\";
  } else if (c == static_cast<unsigned char>(quote)) {
    out.push_back('\\');
    out.push_back(quote);
  } else if (c == '\t') {
    out += "\\t";
  } else if (c == '\n') {
    out += "\\n";
  } else if (c == '\r') {
    out += "\\r";
  } else if (c >= 0x20 && c < 0x7f) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x80) {
    appendHexEscape(out, c);
  } else {
    return false;
  }
  return true;
}

// Python's repr of a bytes object: b'...'.
std::string bytesRepr(std::string_view s) {
  char quote = pythonQuote(s);
  std::string out = "b";
  out.push_back(quote);
  for (unsigned char c : s)
    if (!appendAsciiRepr(out, c, quote))
      appendHexEscape(out, c);
  out.push_back(quote);
  return out;
}

// Length of the valid UTF-8 sequence starting at s[i] and its code point; 0 when invalid.
size_t utf8Sequence(std::string_view s, size_t i, uint32_t &cp) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  size_t len;
  uint32_t min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, cp = c & 0x1f, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, cp = c & 0x0f, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (s.size() - i < len)
    return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((at(i + k) & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (at(i + k) & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

// Python's repr of a str holding these bytes as UTF-8: non-ASCII text stays as it is (C1
// controls are escaped as Python does), bytes that are not UTF-8 become \xNN.
std::string stringRepr(std::string_view s) {
  char quote = pythonQuote(s);
  std::string out(1, quote);
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (appendAsciiRepr(out, c, quote)) {
      ++i;
      continue;
    }
    uint32_t cp = 0;
    size_t len = utf8Sequence(s, i, cp);
    if (len == 0) {
      appendHexEscape(out, c);
      ++i;
    } else {
      if (cp < 0xa0)
        appendHexEscape(out, cp);
      else
        out.append(s.substr(i, len));
      i += len;
    }
  }
  out.push_back(quote);
  return out;
}

} // namespace

std::string serializeKTest(const KTest &test) {
  if (test.version > KTest::kCurrentVersion)
    throw std::runtime_error("ktest: cannot write version " + std::to_string(test.version) +
                             " (the format's newest version is " +
                             std::to_string(KTest::kCurrentVersion) + ")");
  size_t size = kMagic.size() + 4 + 4 + 8 + 4;
  for (const std::string &a : test.args)
    size += 4 + a.size();
  for (const KTestObject &o : test.objects)
    size += 8 + o.name.size() + o.bytes.size();

  std::string out;
  out.reserve(size);
  out.append(kMagic);
  putU32(out, test.version);
  putU32(out, checkedLength(test.args.size(), "argument count"));
  for (const std::string &a : test.args)
    putBytes(out, a.data(), a.size(), "argument length");
  if (test.version >= 2) {
    putU32(out, test.symArgvs);
    putU32(out, test.symArgvLen);
  }
  putU32(out, checkedLength(test.objects.size(), "object count"));
  for (const KTestObject &o : test.objects) {
    putBytes(out, o.name.data(), o.name.size(), "object name length");
    putBytes(out, o.bytes.data(), o.bytes.size(), "object size");
  }
  return out;
}

KTest parseKTest(std::string_view bytes) {
  Reader r(bytes);
  std::string_view magic = r.raw(kMagic.size(), "magic");
  if (magic != kMagic && magic != kLegacyMagic)
    throw std::runtime_error("ktest: bad magic " + bytesRepr(magic) +
                             ": not a KTEST file (expected b'KTEST' or b'BOUT\\n')");

  KTest test;
  test.version = r.u32("version");
  if (test.version > KTest::kCurrentVersion)
    throw std::runtime_error("ktest: unsupported version " + std::to_string(test.version) +
                             " (versions up to " + std::to_string(KTest::kCurrentVersion) +
                             " are understood)");

  uint32_t numArgs = r.count("argument count", 4);
  test.args.reserve(numArgs);
  for (uint32_t i = 0; i < numArgs; ++i)
    test.args.emplace_back(r.bytes("argument"));

  if (test.version >= 2) {
    test.symArgvs = r.u32("symArgvs");
    test.symArgvLen = r.u32("symArgvLen");
  }

  uint32_t numObjects = r.count("object count", 8);
  test.objects.reserve(numObjects);
  for (uint32_t i = 0; i < numObjects; ++i) {
    KTestObject o;
    o.name = std::string(r.bytes("object name"));
    std::string_view data = r.bytes("object data");
    o.bytes.assign(reinterpret_cast<const uint8_t *>(data.data()),
                   reinterpret_cast<const uint8_t *>(data.data()) + data.size());
    test.objects.push_back(std::move(o));
  }

  if (r.remaining() != 0)
    throw std::runtime_error("ktest: " + std::to_string(r.remaining()) +
                             " unexpected bytes after the last object (at offset " +
                             std::to_string(r.offset()) + ")");
  return test;
}

void writeKTestFile(const std::string &path, const KTest &test) {
  std::string data = serializeKTest(test);
  auto fail = [&](const std::string &what, int err) {
    throw std::runtime_error("cannot write ktest file '" + path + "': " + what + ": " +
                             errnoText(err));
  };

  // A name unique within this process (counter) and among processes (pid); O_EXCL guards against
  // leftovers. Mode 0666 lets the umask decide, as for any file the program creates.
  static std::atomic<uint64_t> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      fail("creating a temporary file", errno);
  }
  if (fd < 0)
    fail("creating a temporary file", EEXIST);

  auto abandon = [&](const char *what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(what, err);
  };
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      abandon("writing", errno);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail("closing", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail("renaming the temporary file into place", err);
  }
}

KTest readKTestFile(const std::string &path) {
  auto fail = [&](const std::string &why) {
    throw std::runtime_error("cannot read ktest file '" + path + "': " + why);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    fail(errnoText(errno));

  std::string data;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    data.reserve(static_cast<size_t>(st.st_size)); // the file's real size, not a parsed length
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int err = errno;
      ::close(fd);
      fail(errnoText(err));
    }
    if (n == 0)
      break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);

  try {
    return parseKTest(data);
  } catch (const std::runtime_error &e) {
    fail(e.what());
  }
  return {}; // not reached
}

std::string formatKTest(const KTest &test, const std::string &fileName) {
  std::string out;
  out += "ktest file : " + stringRepr(fileName) + "\n";
  out += "args       : [";
  for (size_t i = 0; i < test.args.size(); ++i) {
    if (i)
      out += ", ";
    out += stringRepr(test.args[i]);
  }
  out += "]\n";
  out += "num objects: " + std::to_string(test.objects.size()) + "\n";

  for (size_t i = 0; i < test.objects.size(); ++i) {
    const KTestObject &o = test.objects[i];
    std::string prefix = "object " + std::to_string(i) + ": ";
    std::string_view data(reinterpret_cast<const char *>(o.bytes.data()), o.bytes.size());

    out += prefix + "name: " + stringRepr(o.name) + "\n";
    out += prefix + "size: " + std::to_string(o.bytes.size()) + "\n";
    out += prefix + "data: " + bytesRepr(data) + "\n";

    out += prefix + "hex : 0x";
    static const char digits[] = "0123456789abcdef";
    for (uint8_t b : o.bytes) {
      out.push_back(digits[b >> 4]);
      out.push_back(digits[b & 0xf]);
    }
    out += "\n";

    size_t n = o.bytes.size();
    if (n == 1 || n == 2 || n == 4 || n == 8) {
      uint64_t u = 0;
      for (size_t k = 0; k < n; ++k)
        u |= static_cast<uint64_t>(o.bytes[k]) << (8 * k);
      int64_t s;
      if (n == 8) {
        s = static_cast<int64_t>(u);
      } else {
        uint64_t signBit = uint64_t{1} << (8 * n - 1);
        s = (u & signBit) ? static_cast<int64_t>(u) - static_cast<int64_t>(signBit << 1)
                          : static_cast<int64_t>(u);
      }
      out += prefix + "int : " + std::to_string(s) + "\n";
      out += prefix + "uint: " + std::to_string(u) + "\n";
    }

    out += prefix + "text: ";
    for (uint8_t b : o.bytes)
      out.push_back(b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '.');
    out += "\n";
  }
  return out;
}

} // namespace cairn
