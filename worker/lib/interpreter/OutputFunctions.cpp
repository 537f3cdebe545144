// Output: printf and its relatives, puts, putchar. What a path prints is kept with the state
// (and its test); symbolic arguments print one of their values.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cairn::engine {

namespace {

// printf-style formatting of concrete arguments (symbolic ones print one possible value).
// `fmtIndex` is the format's argument position.
std::optional<std::string> format(const SpecialCall &c, size_t fmtIndex) {
  Engine &e = c.engine;
  ExecutionState &s = c.state;
  std::vector<Value> &args = c.args;
  std::string fmt = e.memory.readString(s, args[fmtIndex]);
  std::string out;
  size_t next = fmtIndex + 1;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ #0123456789.lhzjt", fmt[j]))
      ++j;
    if (j >= fmt.size())
      break;
    char conv = fmt[j];
    std::string spec = fmt.substr(i, j - i + 1);
    i = j;
    if (conv == '%') {
      out.push_back('%');
      continue;
    }
    if (next >= args.size())
      break;
    const Value &v = args[next++];
    if (conv == 's') {
      out += e.memory.readString(s, v);
      continue;
    }
    std::optional<u128> value = v.concrete() ? std::optional<u128>(v.bits) : e.questions.concretize(s, v, 64, false);
    if (!value)
      return std::nullopt;
    char buf[128];
    bool isLong = spec.find('l') != std::string::npos || spec.find('z') != std::string::npos;
    const u128 n = *value;
    switch (conv) {
    case 'd':
    case 'i':
      if (isLong)
        std::snprintf(buf, sizeof buf, "%lld", (long long)int64_t(uint64_t(n)));
      else
        std::snprintf(buf, sizeof buf, "%d", int32_t(uint32_t(n)));
      break;
    case 'u': std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)(isLong ? uint64_t(n) : uint32_t(n))); break;
    case 'x': std::snprintf(buf, sizeof buf, "%llx", (unsigned long long)(isLong ? uint64_t(n) : uint32_t(n))); break;
    case 'X': std::snprintf(buf, sizeof buf, "%llX", (unsigned long long)(isLong ? uint64_t(n) : uint32_t(n))); break;
    case 'c': std::snprintf(buf, sizeof buf, "%c", char(n)); break;
    case 'p': std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)uint64_t(n)); break;
    default: std::snprintf(buf, sizeof buf, "%s", spec.c_str()); break;
    }
    out += buf;
  }
  return out;
}

// Where a printf-family call's arguments are: the destination buffer, its bound (snprintf's
// n), the destination's size a fortified call checks against, and the format; kNone: absent.
// The fortified ones (what clang emits under -D_FORTIFY_SOURCE) have a flag before the format,
// which only asks glibc to refuse %n in writable formats: it is ignored.
constexpr size_t kNone = ~size_t(0);
struct PrintfArgs {
  size_t dst = kNone, bound = kNone, checkedSize = kNone, format = 0;
};

PrintfArgs printfArgs(Special k) {
  switch (k) {
  case Special::Fprintf: return {kNone, kNone, kNone, 1};    // (stream, format, ...)
  case Special::PrintfChk: return {kNone, kNone, kNone, 1};  // (flag, format, ...)
  case Special::FprintfChk: return {kNone, kNone, kNone, 2}; // (stream, flag, format, ...)
  case Special::Sprintf: return {0, kNone, kNone, 1};        // (s, format, ...)
  case Special::Snprintf: return {0, 1, kNone, 2};           // (s, n, format, ...)
  case Special::SprintfChk: return {0, kNone, 2, 3};         // (s, flag, slen, format, ...)
  case Special::SnprintfChk: return {0, 1, 3, 4};            // (s, n, flag, slen, format, ...)
  default: return {};                                        // printf (format, ...)
  }
}

// A fortified function found its destination too small: glibc's __chk_fail aborts the program.
void fortifyFailure(const SpecialCall &c) {
  c.engine.error(c.state, "abort", "abort", "buffer overflow detected in " + c.site.calleeName);
}

// printf and fprintf, plain and fortified: to the path's output.
void print(const SpecialCall &c) {
  std::optional<std::string> out = format(c, printfArgs(c.kind()).format);
  if (!out)
    return;
  c.state.output += *out;
  c.result(Value(u128(out->size())));
}

// sprintf / snprintf, plain and fortified: the formatted text, NUL-terminated, written through
// the memory checks. A fortified call first checks its destination's size as glibc does:
// __snprintf_chk that the bound fits in it, __sprintf_chk that the text with its NUL does.
void printToMemory(const SpecialCall &c) {
  const PrintfArgs where = printfArgs(c.kind());
  Engine &e = c.engine;
  ExecutionState &s = c.state;
  std::optional<u128> bound, checkedSize;
  if (where.bound != kNone && !(bound = e.questions.concretize(s, c.args[where.bound], 64, true)))
    return;
  if (where.checkedSize != kNone && !(checkedSize = e.questions.concretize(s, c.args[where.checkedSize], 64, true)))
    return;
  if (bound && checkedSize && *checkedSize < *bound)
    return fortifyFailure(c);
  std::optional<std::string> text = format(c, where.format);
  if (!text)
    return;
  if (!bound && checkedSize && *checkedSize < text->size() + 1)
    return fortifyFailure(c);
  size_t room = text->size() + 1;
  if (bound)
    room = std::min<size_t>(room, size_t(*bound));
  std::optional<Value> dst = e.memory.fixPointer(s, c.args[where.dst]);
  if (!dst)
    return;
  for (size_t i = 0; i < room; ++i) {
    uint8_t ch = i + 1 == room ? 0 : uint8_t((*text)[i]);
    if (!e.memory.storeByte(s, e.memory.offsetBy(*dst, i), Value(u128(ch))))
      return;
  }
  c.result(Value(u128(text->size())));
}

// putchar and fputc: one character.
void putCharacter(const SpecialCall &c) {
  std::optional<u128> ch = c.engine.questions.concretize(c.state, c.arg(0), 32, false);
  if (ch)
    c.state.output.push_back(char(*ch));
  c.result(ch ? Value(*ch) : Value());
}

} // namespace

void addOutputHandlers(SpecialHandlers &table) {
  table[size_t(Special::Printf)] = &print;
  table[size_t(Special::Fprintf)] = &print;
  table[size_t(Special::Sprintf)] = &printToMemory;
  table[size_t(Special::Snprintf)] = &printToMemory;
  table[size_t(Special::PrintfChk)] = &print;
  table[size_t(Special::FprintfChk)] = &print;
  table[size_t(Special::SprintfChk)] = &printToMemory;
  table[size_t(Special::SnprintfChk)] = &printToMemory;
  table[size_t(Special::Fputs)] = [](const SpecialCall &c) {
    c.state.output += c.engine.memory.readString(c.state, c.arg(0));
    c.result(Value(u128(1)));
  };
  table[size_t(Special::Puts)] = [](const SpecialCall &c) {
    c.state.output += c.engine.memory.readString(c.state, c.arg(0)) + "\n";
    c.result(Value(u128(1)));
  };
  table[size_t(Special::Fputc)] = &putCharacter;
  table[size_t(Special::Putchar)] = &putCharacter;
  table[size_t(Special::Fflush)] = [](const SpecialCall &c) { c.result(Value(u128(0))); };
}

} // namespace cairn::engine
