#include "cairn/engine/RecordedBitcode.h"

#include "cairn/engine/ProgramLoader.h"

#include <llvm/Object/Archive.h>
#include <llvm/Object/Binary.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fstream>
#include <set>

namespace cairn::engine {

namespace {

std::string message(llvm::Error e) { return llvm::toString(std::move(e)); }

void fromObject(const llvm::object::ObjectFile &object, const char *wanted, std::vector<std::string> &out,
                std::set<std::string> &seen) {
  for (const llvm::object::SectionRef &section : object.sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != wanted)
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents)
      throw LoadError(object.getFileName().str() + ": unreadable " + wanted + " section: " +
                      message(contents.takeError()));
    llvm::StringRef rest = *contents;
    while (!rest.empty()) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      line = line.trim(llvm::StringRef("\0 \t\r", 4)); // sections are padded with NULs
      if (!line.empty() && seen.insert(line.str()).second)
        out.push_back(line.str());
    }
  }
}

void fromBinary(llvm::object::Binary &binary, const std::string &path, const char *wanted,
                std::vector<std::string> &out, std::set<std::string> &seen) {
  if (auto *object = llvm::dyn_cast<llvm::object::ObjectFile>(&binary))
    return fromObject(*object, wanted, out, seen);
  auto *archive = llvm::dyn_cast<llvm::object::Archive>(&binary);
  if (!archive)
    throw LoadError(path + ": neither an object file nor an archive");
  llvm::Error err = llvm::Error::success();
  for (const llvm::object::Archive::Child &child : archive->children(err)) {
    llvm::Expected<std::unique_ptr<llvm::object::Binary>> member = child.getAsBinary();
    if (!member) {
      llvm::consumeError(member.takeError()); // a member that is no object (a symbol table)
      continue;
    }
    fromBinary(**member, path, wanted, out, seen);
  }
  if (err)
    throw LoadError(path + ": unreadable archive: " + message(std::move(err)));
}

} // namespace

bool isNativeBinary(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  return (in.gcount() >= 4 && std::string(head, 4) == "\x7f" "ELF") ||
         (in.gcount() == 8 && std::string(head, 8) == "!<arch>\n");
}

std::vector<std::string> recordedBitcodeFiles(const std::string &path, const char *section) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw LoadError(path + ": " + buffer.getError().message());
  llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary =
      llvm::object::createBinary((*buffer)->getMemBufferRef());
  if (!binary)
    throw LoadError(path + ": not a readable native file: " + message(binary.takeError()));
  std::vector<std::string> files;
  std::set<std::string> seen;
  fromBinary(**binary, path, section, files, seen);
  return files;
}

} // namespace cairn::engine
