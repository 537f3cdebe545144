#include "reports/JsonText.h"

#include <cstdio>

namespace cairn::engine {

size_t utf8SequenceAt(const std::string &s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size() || (n == 2 && c < 0xc2))
    return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2)
      return 0;
  return n;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
    case '"': out += "\\\""; ++i; continue;
    case '\\': out += "\\\\"; ++i; continue;
    case '\n': out += "\\n"; ++i; continue;
    case '\t': out += "\\t"; ++i; continue;
    default: break;
    }
    if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
    } else if (size_t n = utf8SequenceAt(s, i)) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  return out + "\"";
}

} // namespace cairn::engine
