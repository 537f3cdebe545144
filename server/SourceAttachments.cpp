#include "SourceAttachments.h"

#include <set>

namespace cairn::server {

namespace {

// Why `name` is not a plain relative name, or "".
std::string badName(const std::string &name) {
  if (name.empty())
    return "an attached source has no name";
  if (name.size() > 1024)
    return "an attached source's name is over 1024 characters";
  if (name[0] == '/')
    return "attached source '" + name + "' has an absolute name: names are relative to the program's directory";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f || c == '\\')
      return "attached source names hold no control characters or backslashes";
  size_t start = 0;
  for (;;) {
    size_t end = name.find('/', start);
    const std::string part = name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part == "." || part == "..")
      return "attached source '" + name + "' has an empty, '.' or '..' component: names stay inside the program's directory";
    if (end == std::string::npos)
      return "";
    start = end + 1;
  }
}

} // namespace

std::string checkSources(const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources,
                         const SourceLimits &limits) {
  if (size_t(sources.size()) > limits.maxFiles)
    return "at most " + std::to_string(limits.maxFiles) + " source files may be attached, got " +
           std::to_string(sources.size());
  size_t total = 0;
  std::set<std::string> names;
  for (const v1::SourceFile &s : sources) {
    if (std::string why = badName(s.name()); !why.empty())
      return why;
    if (!names.insert(s.name()).second)
      return "attached source '" + s.name() + "' is given twice";
    if (s.text().size() > limits.maxFileBytes)
      return "attached source '" + s.name() + "' is " + std::to_string(s.text().size()) +
             " bytes, over the limit of " + std::to_string(limits.maxFileBytes);
    total += s.text().size();
  }
  if (total > limits.maxTotalBytes)
    return "the attached sources are " + std::to_string(total) + " bytes together, over the limit of " +
           std::to_string(limits.maxTotalBytes);
  return "";
}

int matchSource(const std::string &debugPath,
                const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources) {
  int best = -1;
  size_t bestLength = 0;
  for (int i = 0; i < sources.size(); ++i) {
    const std::string &name = sources[i].name();
    if (name.empty() || name.size() > debugPath.size() || name.size() <= bestLength)
      continue;
    const size_t at = debugPath.size() - name.size();
    if (debugPath.compare(at, name.size(), name) == 0 && (at == 0 || debugPath[at - 1] == '/')) {
      best = i;
      bestLength = name.size();
    }
  }
  return best;
}

} // namespace cairn::server
