// The program's environment under the full libc (`--libc full`): which libc is linked, and the
// symbolic inputs the POSIX environment model creates at the start (runtime/posix/): arguments,
// stdin and files, named and laid out as KLEE's POSIX runtime does, and the host files mapped in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cairn::engine {

enum class LibcKind : uint8_t {
  Minimal, // the runtime's small libc model; the engine handles printf & co. itself
  Full,    // musl built to bitcode, with the POSIX environment model behind its system calls
};

bool parseLibcKind(const std::string &text, LibcKind &out);

// As many --sym-arg/--sym-args options as the model takes (runtime/posix/environment.h).
inline constexpr size_t kMaxSymbolicArgumentGroups = 16;

struct SymbolicArguments {
  uint32_t min = 1, max = 1, length = 0;
  bool counted = false; // --sym-args: a symbolic count `n_args` in [min, max]
};

// A host file the user maps in (--file NAME=PATH): read once when the options are parsed, it is
// a read-only file named NAME in every path's working directory. Paths never open host files.
struct MappedFile {
  std::string name;     // in the model's working directory: no '/'
  std::string hostPath; // where it was read from
  std::string bytes;
};

// The model's limits for --file (runtime/posix/posix.h has room for 32 files in all).
inline constexpr size_t kMaxMappedFiles = 16;
inline constexpr size_t kMaxMappedFileBytes = size_t(16) << 20;
// Symbolic and mapped files together: the model's table holds 32, of which stdin, the terminal,
// the directory and a file a path creates keep theirs.
inline constexpr size_t kMaxModelInputFiles = 28;

struct EnvironmentOptions {
  LibcKind libc = LibcKind::Minimal;
  std::vector<SymbolicArguments> arguments; // after the concrete ones, in the order given
  uint32_t symFiles = 0, symFileSize = 0;   // files A, B, ... of symFileSize bytes
  bool symStdin = false;
  uint32_t symStdinSize = 0;
  uint32_t maxFail = 0;
  std::vector<MappedFile> files;
  std::string programName; // argv[0] under the full libc (empty: the entry function's name)

  bool symbolicInputs() const { return !arguments.empty() || symFiles || symStdin; }
};

// The entry function the POSIX model starts the program at (runtime/posix/start.c), and the
// wrapper the loader makes around the program's own entry for it to call.
inline constexpr const char *kPosixStart = "__cairn_start";
inline constexpr const char *kPosixUserMain = "__cairn_user_main";

} // namespace cairn::engine
