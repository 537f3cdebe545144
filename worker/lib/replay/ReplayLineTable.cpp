#include "replay/ReplayLineTable.h"

#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace cairn::engine {

namespace {
// `longer` ends with `shorter`, starting at a path component.
bool endsWithPath(const std::string &longer, const std::string &shorter) {
  if (shorter.size() > longer.size() ||
      longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) != 0)
    return false;
  return shorter.size() == longer.size() || shorter.front() == '/' ||
         longer[longer.size() - shorter.size() - 1] == '/';
}
} // namespace

bool sameSourceFile(const std::string &a, const std::string &b) {
  if (a.empty() || b.empty())
    return false;
  std::string x = std::filesystem::path(a).lexically_normal().string();
  std::string y = std::filesystem::path(b).lexically_normal().string();
  return endsWithPath(x, y) || endsWithPath(y, x);
}

std::vector<uint64_t> lineAddresses(const std::string &binary, const std::string &file,
                                    unsigned line) {
  auto object = llvm::object::ObjectFile::createObjectFile(binary);
  if (!object)
    throw std::runtime_error("cannot read " + binary + ": " + llvm::toString(object.takeError()));
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(*object->getBinary());
  std::vector<uint64_t> addresses;
  for (const auto &unit : dwarf->compile_units()) {
    const llvm::DWARFDebugLine::LineTable *table = dwarf->getLineTableForUnit(unit.get());
    if (!table)
      continue;
    const char *dir = unit->getCompilationDir();
    // Rows name files by index; each index is looked up once.
    std::vector<int> matches; // per file index: -1 unknown, 0 no, 1 yes
    for (const llvm::DWARFDebugLine::Row &row : table->Rows) {
      if (row.EndSequence || row.Line != line)
        continue;
      if (row.File >= matches.size())
        matches.resize(row.File + 1, -1);
      if (matches[row.File] < 0) {
        std::string name;
        matches[row.File] =
            table->getFileNameByIndex(
                row.File, dir ? dir : "",
                llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, name) &&
            sameSourceFile(name, file);
      }
      if (matches[row.File])
        addresses.push_back(row.Address.Address);
    }
  }
  std::sort(addresses.begin(), addresses.end());
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  return addresses;
}

} // namespace cairn::engine
