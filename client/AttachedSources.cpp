#include "AttachedSources.h"

#include <fstream>
#include <set>
#include <sstream>

namespace cairn::client {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxFileBytes = 1 << 20, kMaxTotalBytes = 8 << 20, kMaxFiles = 256;

} // namespace

void attachSources(v1::SubmitJobRequest &request, const fs::path &programFile, const engine::Program &program) {
  std::error_code ec;
  const fs::path main = fs::weakly_canonical(fs::absolute(programFile), ec);
  const fs::path dir = main.parent_path();
  std::vector<fs::path> files = {main};
  std::set<uint32_t> userFiles;
  for (uint64_t key : program.coverableLineKeys)
    userFiles.insert(uint32_t(key >> 32));
  for (uint32_t index : userFiles)
    if (index < program.files.size() && !program.files[index].empty())
      files.push_back(fs::weakly_canonical(program.files[index], ec));
  size_t total = 0;
  std::set<std::string> named;
  for (const fs::path &file : files) {
    const fs::path relative = file.lexically_relative(dir);
    const std::string name = relative.generic_string();
    // Outside the program's directory (a system or sibling header): not the program's own.
    if (name.empty() || relative.is_absolute() || name.rfind("..", 0) == 0 || !named.insert(name).second)
      continue;
    std::ifstream in(file, std::ios::binary);
    if (!in)
      continue;
    std::stringstream text;
    text << in.rdbuf();
    const std::string bytes = text.str();
    if (bytes.size() > kMaxFileBytes || total + bytes.size() > kMaxTotalBytes ||
        size_t(request.sources_size()) == kMaxFiles)
      continue;
    total += bytes.size();
    v1::SourceFile &source = *request.add_sources();
    source.set_name(name);
    source.set_text(bytes);
  }
}

} // namespace cairn::client
