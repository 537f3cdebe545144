#include "replay/PosixTestEnvironment.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

namespace {

bool isArgument(const std::string &name) {
  return name.size() == 5 && name.rfind("arg", 0) == 0 && std::isdigit((unsigned char)name[3]) &&
         std::isdigit((unsigned char)name[4]);
}

// "A-data": the contents of the file named A.
bool isFileData(const std::string &name) { return name.size() == 6 && name.substr(1) == "-data" && std::isupper((unsigned char)name[0]); }

void writeBytes(const fs::path &p, const std::vector<uint8_t> &bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
  if (!out.flush())
    throw std::runtime_error("cannot write " + p.string());
}

// To nobody, who runs the program when the replay runs as root.
void giveAway(const fs::path &p) {
  if (::geteuid() == 0 && ::chown(p.c_str(), 65534, 65534) != 0)
    throw std::runtime_error("cannot give " + p.string() + " to nobody");
}

} // namespace

bool isPosixTest(const KTest &test) {
  for (const KTestObject &o : test.objects)
    if (o.name == "model_version")
      return true;
  return false;
}

PosixTestEnvironment::PosixTestEnvironment(const KTest &test, const std::string &parent,
                                           const std::string &mappedFiles) {
  static unsigned counter = 0;
  dir_ = (fs::path(parent) / ("fs-" + std::to_string(::getpid()) + "-" + std::to_string(counter++))).string();
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  // Run by root, the program runs as nobody (ProcessOptions::unprivileged): its working
  // directory and the symbolic files are its own, as they are the model's user's. Its parent is
  // readable, as the model's "/" is: `wc ..` finds a directory there, not EACCES.
  fs::permissions(parent, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  giveAway(dir_);
  std::error_code ec;
  if (!mappedFiles.empty() && fs::is_directory(mappedFiles, ec))
    for (const fs::directory_entry &e : fs::directory_iterator(mappedFiles)) {
      const fs::path copy = fs::path(dir_) / e.path().filename();
      fs::copy_file(e.path(), copy);
      fs::permissions(copy, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
      giveAway(copy);
    }
  stdin_ = "/dev/null";
  if (!test.args.empty())
    programName_ = fs::path(test.args[0]).stem().string();
  arguments_.assign(test.args.size() > 1 ? test.args.begin() + 1 : test.args.end(), test.args.end());
  for (const KTestObject &o : test.objects) {
    if (o.name == "model_version")
      break; // the model's inputs end here; the program's own follow
    if (isArgument(o.name)) {
      // The argument as the program saw it: up to its first NUL, within its LEN characters (the
      // last byte is the terminator the model wrote).
      std::string arg(o.bytes.begin(), o.bytes.empty() ? o.bytes.end() : o.bytes.end() - 1);
      arguments_.push_back(arg.substr(0, arg.find('\0')));
    } else if (isFileData(o.name)) {
      writeBytes(fs::path(dir_) / o.name.substr(0, 1), o.bytes);
      giveAway(fs::path(dir_) / o.name.substr(0, 1));
    } else if (o.name == "stdin") {
      stdin_ = dir_ + ".stdin"; // beside the directory, not in it: the program may list it
      writeBytes(stdin_, o.bytes);
    }
  }
}

PosixTestEnvironment::~PosixTestEnvironment() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
  fs::remove(dir_ + ".stdin", ec);
}

} // namespace cairn::engine
