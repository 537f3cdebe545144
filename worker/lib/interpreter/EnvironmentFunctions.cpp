// The engine's side of the POSIX environment model (runtime/posix/): the model asks for the
// run's options and the mapped host files' contents at the start, and hands what the program
// writes to stdout and stderr to the path's output.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

#include "posix/environment.h"

#include <cstddef>
#include <string_view>

namespace cairn::engine {

namespace {

bool isNull(const Value &pointer) { return pointer.concrete() && pointer.bits == 0; }

// Concrete bytes into the program's memory at `pointer`; false when the path ended on it.
bool storeBytes(const SpecialCall &c, const Value &pointer, std::string_view bytes) {
  MemoryAccess &memory = c.engine.memory;
  std::optional<Value> out = memory.fixPointer(c.state, pointer);
  if (!out)
    return false;
  for (size_t i = 0; i < bytes.size(); ++i)
    if (!memory.storeByte(c.state, memory.offsetBy(*out, i), Value(u128(uint8_t(bytes[i])))))
      return false;
  return true;
}

// cairn_environment_options(struct cairn_environment_options *out)
void environmentOptions(const SpecialCall &c) {
  const EnvironmentOptions &env = c.engine.options.posix;
  struct cairn_environment_options o {};
  o.groups = uint32_t(std::min<size_t>(env.arguments.size(), CAIRN_MAX_SYM_ARG_GROUPS));
  for (uint32_t i = 0; i < o.groups; ++i) {
    const SymbolicArguments &a = env.arguments[i];
    o.group[i] = {a.min, a.max, a.length, a.counted ? 1u : 0u};
  }
  o.sym_files = env.symFiles;
  o.sym_file_size = env.symFileSize;
  o.sym_stdin = env.symStdin ? 1 : 0;
  o.sym_stdin_size = env.symStdinSize;
  o.max_fail = env.maxFail;
  o.mapped_files = uint32_t(env.files.size());
  storeBytes(c, c.arg(0), {reinterpret_cast<const char *>(&o), sizeof o});
}

// cairn_mapped_file(uint32_t index, char *name, void *data): the name (64 bytes, NUL-padded)
// and the contents, each where a pointer is not null; returns the size.
void mappedFile(const SpecialCall &c) {
  const std::vector<MappedFile> &files = c.engine.options.posix.files;
  std::optional<u128> index = c.engine.questions.concretize(c.state, c.arg(0), 32, true);
  if (!index)
    return;
  if (*index >= files.size())
    return c.result(Value(u128(0)));
  const MappedFile &f = files[size_t(*index)];
  char name[64] = {};
  f.name.copy(name, sizeof name - 1);
  if (!isNull(c.arg(1)) && !storeBytes(c, c.arg(1), {name, sizeof name}))
    return;
  if (!isNull(c.arg(2)) && !storeBytes(c, c.arg(2), f.bytes))
    return;
  c.result(Value(u128(f.bytes.size())));
}

// cairn_write_output(int fd, const void *buf, unsigned long count): fd 2 to stderr, any other
// to stdout; a symbolic byte is kept as its expression, for each test to evaluate.
void writeOutput(const SpecialCall &c) {
  Engine &e = c.engine;
  std::optional<u128> fd = e.questions.concretize(c.state, c.arg(0), 32, true);
  if (!fd)
    return;
  std::optional<u128> n = e.questions.concretize(c.state, c.sizeArg(2), 64, true);
  if (!n)
    return;
  e.memory.forEachTarget(c.state, c.arg(1), false, *n, [&](ExecutionState &s, const Value &buf) {
    const uint8_t stream = *fd == 2 ? 2 : 1;
    std::string &text = stream == 2 ? s.errorOutput : s.output;
    for (u128 i = 0; i < *n; ++i) {
      Value byte;
      if (!e.memory.loadByte(s, e.memory.offsetBy(buf, uint64_t(i)), byte))
        return;
      if (!byte.concrete())
        s.symbolicOutput.push_back({stream, uint32_t(text.size()), byte.sym});
      text.push_back(char(byte.concrete() ? uint8_t(byte.bits) : '?'));
    }
  });
}

} // namespace

void addEnvironmentHandlers(SpecialHandlers &table) {
  table[size_t(Special::EnvironmentOptions)] = &environmentOptions;
  table[size_t(Special::WriteOutput)] = &writeOutput;
  table[size_t(Special::MappedFile)] = &mappedFile;
}

} // namespace cairn::engine
