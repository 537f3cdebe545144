// A zip archive of whole files, stored without compression: what the dashboard hands out where a
// report is a directory (a Test-Comp suite). Any unzip reads it; nothing beyond the format's
// first version (no Zip64): at most 65,535 files and 4 GiB.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cairn::server {

// The archive of `files` (name, bytes), in their order, each dated 1980-01-01 (the format's
// epoch: the same files give the same bytes). Throws std::length_error past the format's limits.
std::string zipArchive(const std::vector<std::pair<std::string, std::string>> &files);

// The CRC-32 zip takes (IEEE 802.3, reflected).
uint32_t crc32(const std::string &bytes);

} // namespace cairn::server
