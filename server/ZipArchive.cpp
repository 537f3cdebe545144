#include "ZipArchive.h"

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace cairn::server {

namespace {

constexpr std::array<uint32_t, 256> kCrcTable = [] {
  std::array<uint32_t, 256> t{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[n] = c;
  }
  return t;
}();

void put16(std::string &out, uint32_t v) {
  out.push_back(char(v & 0xff));
  out.push_back(char((v >> 8) & 0xff));
}
void put32(std::string &out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

constexpr uint32_t kVersion = 20;         // 2.0: stored files, directories
constexpr uint32_t kMadeByUnix = 3 << 8;  // external attributes hold a Unix mode
constexpr uint32_t kUtf8Names = 1 << 11;  // general purpose flag 11: names are UTF-8
constexpr uint32_t kDate19800101 = (0 << 9) | (1 << 5) | 1;
constexpr uint32_t kRegularFile0644 = 0100644;

} // namespace

uint32_t crc32(const std::string &bytes) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes)
    c = kCrcTable[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::string zipArchive(const std::vector<std::pair<std::string, std::string>> &files) {
  constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();
  if (files.size() > 0xffff)
    throw std::length_error("more than 65,535 files for one zip archive");
  std::string out, directory;
  for (const auto &[name, bytes] : files) {
    if (name.size() > 0xffff || bytes.size() >= kMax32 || out.size() + bytes.size() + name.size() + 30 >= kMax32)
      throw std::length_error("a zip archive of more than 4 GiB");
    const uint32_t offset = uint32_t(out.size()), crc = crc32(bytes), size = uint32_t(bytes.size());
    put32(out, 0x04034b50); // local file header
    put16(out, kVersion);
    put16(out, kUtf8Names);
    put16(out, 0); // stored
    put16(out, 0); // 00:00:00
    put16(out, kDate19800101);
    put32(out, crc);
    put32(out, size);
    put32(out, size);
    put16(out, uint32_t(name.size()));
    put16(out, 0);
    out += name;
    out += bytes;

    put32(directory, 0x02014b50); // its central directory header
    put16(directory, kMadeByUnix | kVersion);
    put16(directory, kVersion);
    put16(directory, kUtf8Names);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, kDate19800101);
    put32(directory, crc);
    put32(directory, size);
    put32(directory, size);
    put16(directory, uint32_t(name.size()));
    put16(directory, 0); // extra field
    put16(directory, 0); // comment
    put16(directory, 0); // disk
    put16(directory, 0); // internal attributes
    put32(directory, kRegularFile0644 << 16);
    put32(directory, offset);
    directory += name;
  }
  if (out.size() + directory.size() >= kMax32)
    throw std::length_error("a zip archive of more than 4 GiB");
  const uint32_t directoryOffset = uint32_t(out.size());
  out += directory;
  put32(out, 0x06054b50); // end of central directory
  put16(out, 0);
  put16(out, 0);
  put16(out, uint32_t(files.size()));
  put16(out, uint32_t(files.size()));
  put32(out, uint32_t(directory.size()));
  put32(out, directoryOffset);
  put16(out, 0);
  return out;
}

} // namespace cairn::server
