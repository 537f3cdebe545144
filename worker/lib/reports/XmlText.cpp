#include "reports/XmlText.h"

#include "reports/JsonText.h"

namespace cairn::engine {

std::string xmlText(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
    case '&': out += "&amp;"; ++i; continue;
    case '<': out += "&lt;"; ++i; continue;
    case '>': out += "&gt;"; ++i; continue;
    case '"': out += "&quot;"; ++i; continue;
    case '\'': out += "&apos;"; ++i; continue;
    case '\n': out += "&#10;"; ++i; continue;
    case '\t': out += "&#9;"; ++i; continue;
    default: break;
    }
    if (size_t n = c < 0x20 ? 0 : utf8SequenceAt(s, i)) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

} // namespace cairn::engine
