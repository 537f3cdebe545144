// Output: printf and its relatives, puts, putchar. What a path prints is kept with the state
// (and its test); symbolic arguments print one of their values.
#include "cairn/expr/Float.h"
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cairn::engine {

namespace {

// One conversion's argument as C's printf takes it: `lengthBits` of an integer (8 for hh, 16
// for h, 32 plain, 64 for l, ll, z, j and t), or a double (a long double with L).
struct Conversion {
  std::string flags; // flags, width and precision, as written ('*' resolved)
  char letter = 0;
  unsigned lengthBits = 32;
  bool longDouble = false;
};

// The host's printf of one conversion `spec` (made here, never the program's text alone).
template <class T> std::string formatted(const std::string &spec, T value) {
  const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  std::string out(size_t(std::max(n, 0)), '\0');
  std::snprintf(out.data(), out.size() + 1, spec.c_str(), value);
  return out;
}

// One conversion on the argument's bits.
std::string formatOne(const Conversion &c, u128 bits) {
  std::string spec = "%" + c.flags;
  auto print = [&](auto value) { return formatted(spec, value); };
  const uint64_t raw = uint64_t(bits);
  const uint64_t mask = c.lengthBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << c.lengthBits) - 1;
  switch (c.letter) {
  case 'd':
  case 'i': {
    const uint64_t sign = uint64_t(1) << (std::min(c.lengthBits, 64u) - 1);
    spec += "lld";
    return print((long long)int64_t(((raw & mask) ^ sign) - sign));
  }
  case 'u':
  case 'x':
  case 'X':
  case 'o': spec += std::string("ll") + c.letter; return print((unsigned long long)(raw & mask));
  case 'c': spec += 'c'; return print(int(uint8_t(raw)));
  case 'p': spec += 'p'; return print(reinterpret_cast<void *>(uintptr_t(raw)));
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
    if (c.longDouble) {
      spec += std::string("L") + c.letter;
      return print(decodeFloat(bits, requireFloatFormat(80)));
    }
    spec += c.letter;
    return print(double(decodeFloat(raw, requireFloatFormat(64))));
  default: return "%" + c.flags + c.letter;
  }
}

// printf-style formatting. A symbolic argument prints one of its values: for the path's output
// any one, for text written to memory (`constrain`) the one the path is then constrained to,
// since the program reads it back. `fmtIndex` is the format's argument position.
std::optional<std::string> format(const SpecialCall &c, size_t fmtIndex, bool constrain) {
  Engine &e = c.engine;
  ExecutionState &s = c.state;
  std::vector<Value> &args = c.args;
  std::string fmt = e.memory.readString(s, args[fmtIndex]);
  std::string out;
  size_t next = fmtIndex + 1;
  auto valueOf = [&](size_t i) -> std::optional<u128> {
    const Value &v = args[i];
    return v.concrete() ? std::optional<u128>(v.bits) : e.questions.concretize(s, v, c.argWidth(i), constrain);
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    Conversion conv;
    size_t j = i + 1;
    for (; j < fmt.size() && std::strchr("-+ #0123456789.*", fmt[j]); ++j) {
      if (fmt[j] != '*') {
        conv.flags.push_back(fmt[j]);
        continue;
      }
      if (next >= args.size())
        return out;
      std::optional<u128> star = valueOf(next++);
      if (!star)
        return std::nullopt;
      conv.flags += std::to_string(int32_t(uint32_t(*star)));
    }
    for (; j < fmt.size() && std::strchr("hlLqjzt", fmt[j]); ++j) {
      if (fmt[j] == 'h')
        conv.lengthBits = conv.lengthBits == 16 ? 8 : 16;
      else if (fmt[j] == 'L')
        conv.longDouble = true;
      else
        conv.lengthBits = 64;
    }
    if (j >= fmt.size())
      break;
    conv.letter = fmt[j];
    i = j;
    if (conv.letter == '%') {
      out.push_back('%');
      continue;
    }
    if (next >= args.size())
      break;
    if (conv.letter == 's') {
      const std::string text = e.memory.readString(s, args[next++]);
      out += conv.flags.empty() ? text : formatted("%" + conv.flags + "s", text.c_str());
      continue;
    }
    std::optional<u128> value = valueOf(next++);
    if (!value)
      return std::nullopt;
    out += formatOne(conv, *value);
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
  std::optional<std::string> out = format(c, printfArgs(c.kind()).format, false);
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
  std::optional<std::string> text = format(c, where.format, true);
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
