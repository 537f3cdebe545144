// The runtime's string and memory functions (runtime/lib/libc-string.c), run natively when the
// call cannot fork and cannot fail: every pointer's address known from the layout (concrete, or
// the relocatable model's base plus a constant), every byte it reads concrete, and every byte
// it reads or writes inside one live object of concrete size that no model moved. Interpreted, they cost
// about 10 instructions per byte (a 4 KiB strlen: 41,000 instructions); natively nothing
// measurable. In every other case (a symbolic byte, length or pointer, an access out of
// bounds, a read-only destination) the call declines and the C body runs, so that forks,
// errors and their lines are exactly what the C code gives. The results are the C code's, byte
// for byte, including memcpy's forward copy.
#include "interpreter/NativeStrings.h"

#include "executor/Engine.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace cairn::engine {

namespace {

// The bytes from a pointer to the end of its object.
struct Span {
  const AddressSpace::Entry *entry = nullptr;
  uint64_t address = 0;  // where the pointer points on this path
  uint64_t offset = 0;   // of the pointer within the object
  uint64_t room = 0;     // bytes from the pointer to the object's end
  const uint8_t *bytes = nullptr;
};

// Where the C code's accesses through `p` take the concrete path, without a solver question.
std::optional<Span> spanAt(MemoryAccess &memory, const ExecutionState &s, const Value &p) {
  std::optional<uint64_t> known = memory.knownAddress(s, p);
  if (!known)
    return std::nullopt;
  const uint64_t a = *known;
  const AddressSpace::Entry *e = s.memory.find(a);
  // Symbolic sizes and the relocatable model's moved objects have checks of their own.
  if (!e || e->object->sizeExpr || e->object->relocation)
    return std::nullopt;
  const uint64_t offset = a - e->object->address;
  return Span{e, a, offset, e->object->size - offset, e->state->concreteBytes() + offset};
}

// A concrete NUL-terminated string: where it is, and its length without the NUL.
struct ConcreteString {
  Span span;
  uint64_t length = 0;
};

// The string at `p`, if all of it and its NUL are concrete and inside the object.
std::optional<ConcreteString> concreteString(MemoryAccess &memory, const ExecutionState &s, const Value &p) {
  std::optional<Span> span = spanAt(memory, s, p);
  if (!span)
    return std::nullopt;
  // The bytes are searched first and their concreteness checked up to what was found: a
  // symbolic byte's stale value may stop the search early, and then the C loop decides.
  const void *nul = std::memchr(span->bytes, 0, span->room);
  if (!nul)
    return std::nullopt;
  const uint64_t length = uint64_t(static_cast<const uint8_t *>(nul) - span->bytes);
  if (span->entry->state->concreteRun(span->offset, length + 1) <= length)
    return std::nullopt;
  return ConcreteString{*span, length};
}

// Byte `i` from the span, when it is inside the object and concrete.
std::optional<uint8_t> byteAt(const Span &span, uint64_t i) {
  if (i >= span.room || !span.entry->state->isConcreteByte(span.offset + i))
    return std::nullopt;
  return span.bytes[i];
}

// `n` concrete bytes at `p`, all inside its object.
std::optional<Span> concreteSpan(MemoryAccess &memory, const ExecutionState &s, const Value &p, uint64_t n) {
  std::optional<Span> span = spanAt(memory, s, p);
  if (!span || n > span->room || span->entry->state->concreteRun(span->offset, n) < n)
    return std::nullopt;
  return span;
}

// The object `p` points into, writable for `n` bytes from it.
std::optional<Span> writableSpan(MemoryAccess &memory, const ExecutionState &s, const Value &p, uint64_t n) {
  std::optional<Span> span = spanAt(memory, s, p);
  if (!span || n > span->room || span->entry->object->readOnly)
    return std::nullopt;
  return span;
}

bool overlap(const Span &a, const Span &b, uint64_t n) {
  return a.address < b.address + n && b.address < a.address + n;
}

Value intResult(int v) { return Value(u128(uint32_t(v))); }
Value sizeResult(uint64_t v) { return Value(u128(v)); }

class NativeCall {
public:
  NativeCall(Engine &engine, ExecutionState &state, const Instr &in, const std::vector<Value> &args)
      : e_(engine), s_(state), in_(in), args_(args) {}

  bool run(NativeString which) {
    switch (which) {
    case NativeString::None: return false;
    case NativeString::Memcpy: return copy(false);
    case NativeString::Memmove: return copy(true);
    case NativeString::Memset: return set();
    case NativeString::Memcmp: return compare(false);
    case NativeString::Bcmp: return compare(true);
    case NativeString::Memchr: return memchr();
    case NativeString::Strlen: return strlen();
    case NativeString::Strnlen: return strnlen();
    case NativeString::Strcmp: return strcmp();
    case NativeString::Strncmp: return strncmp();
    case NativeString::Strchr: return strchr(false);
    case NativeString::Strchrnul: return strchr(true);
    case NativeString::Strrchr: return strrchr();
    case NativeString::Strcpy: return strcpy(false);
    case NativeString::Stpcpy: return strcpy(true);
    }
    return false;
  }

private:
  // An argument that must be concrete for the call to run natively.
  std::optional<uint64_t> count(size_t i) const {
    const Value &v = args_.at(i);
    return v.concrete() ? std::optional<uint64_t>(uint64_t(v.bits)) : std::nullopt;
  }
  std::optional<Span> span(const Value &p) { return spanAt(e_.memory, s_, p); }
  std::optional<ConcreteString> string(const Value &p) { return concreteString(e_.memory, s_, p); }
  bool done(Value v) {
    e_.interpreter.returnValue(s_, in_, std::move(v));
    return true;
  }
  // Writes `n` bytes at the destination `dst`, already checked to be writable. Making it
  // writable may copy its contents, so a source in the same object is copied out first.
  void store(const Span &dst, const uint8_t *from, uint64_t n, bool sameObject) {
    std::vector<uint8_t> own;
    if (sameObject)
      from = own.insert(own.end(), from, from + n).base();
    s_.memory.writable(dst.entry->object->address).writeConcrete(e_.ctx, dst.offset, from, n);
  }

  bool copy(bool move) {
    std::optional<uint64_t> n = count(2);
    if (!n)
      return false;
    if (*n == 0)
      return done(args_[0]); // the C loop reads nothing
    std::optional<Span> src = concreteSpan(e_.memory, s_, args_[1], *n), dst = writableSpan(e_.memory, s_, args_[0], *n);
    // The C memcpy copies forward byte by byte: overlapping ranges are left to it.
    if (!src || !dst || (!move && overlap(*src, *dst, *n)))
      return false;
    store(*dst, src->bytes, *n, src->entry->object == dst->entry->object);
    return done(args_[0]);
  }

  bool set() {
    std::optional<uint64_t> n = count(2);
    if (!n || !args_[1].concrete())
      return false;
    if (*n == 0)
      return done(args_[0]);
    std::optional<Span> dst = writableSpan(e_.memory, s_, args_[0], *n);
    if (!dst)
      return false;
    s_.memory.writable(dst->entry->object->address).fillConcrete(e_.ctx, dst->offset, uint8_t(args_[1].bits), *n);
    return done(args_[0]);
  }

  // The C loops stop at the first difference: bytes past it need not exist.
  bool compare(bool equalityOnly) {
    std::optional<uint64_t> n = count(2);
    if (!n)
      return false;
    if (*n == 0)
      return done(intResult(0));
    std::optional<Span> a = span(args_[0]), b = span(args_[1]);
    if (!a || !b)
      return false;
    for (uint64_t i = 0; i < *n; ++i) {
      std::optional<uint8_t> x = byteAt(*a, i), y = byteAt(*b, i);
      if (!x || !y) // symbolic, or outside an object: the C loop decides
        return false;
      if (*x != *y) {
        const int diff = int(*x) - int(*y);
        return done(intResult(equalityOnly ? diff != 0 : diff));
      }
    }
    return done(intResult(0));
  }

  // The first `byte` among the `limit` bytes at the first argument (memchr, strnlen): its
  // index; `limit` when none is, all of them read; nullopt when the C loop must decide (a
  // symbolic byte or the object's end comes first).
  std::optional<uint64_t> firstOf(uint8_t byte, uint64_t limit) {
    std::optional<Span> at = span(args_[0]);
    if (!at)
      return std::nullopt;
    const uint64_t searched = std::min(limit, at->room);
    const void *hit = std::memchr(at->bytes, byte, searched);
    const uint64_t end = hit ? uint64_t(static_cast<const uint8_t *>(hit) - at->bytes) : limit;
    // Everything the C loop reads: up to the hit, or all `limit` bytes, concrete and in bounds.
    const uint64_t read = hit ? end + 1 : limit;
    if (read > at->room || at->entry->state->concreteRun(at->offset, read) < read)
      return std::nullopt;
    return end;
  }

  bool memchr() {
    std::optional<uint64_t> n = count(2);
    if (!n || !args_[1].concrete())
      return false;
    if (*n == 0)
      return done(sizeResult(0)); // the C loop reads nothing
    std::optional<uint64_t> i = firstOf(uint8_t(args_[1].bits), *n);
    return i && done(*i == *n ? sizeResult(0) : e_.memory.offsetBy(args_[0], *i));
  }

  bool strlen() {
    std::optional<ConcreteString> str = string(args_[0]);
    return str && done(sizeResult(str->length));
  }

  bool strnlen() {
    std::optional<uint64_t> max = count(1);
    if (!max)
      return false;
    if (*max == 0)
      return done(sizeResult(0));
    std::optional<uint64_t> len = firstOf(0, *max);
    return len && done(sizeResult(*len));
  }

  // strcmp and strncmp (`limit` bytes at most): the C loop reads both strings up to the first
  // difference or the first string's NUL.
  bool compareStrings(uint64_t limit) {
    if (limit == 0)
      return done(intResult(0));
    std::optional<Span> a = span(args_[0]), b = span(args_[1]);
    if (!a || !b)
      return false;
    for (uint64_t i = 0; i < limit; ++i) {
      std::optional<uint8_t> x = byteAt(*a, i), y = byteAt(*b, i);
      if (!x || !y)
        return false;
      if (*x != *y)
        return done(intResult(int(*x) - int(*y)));
      if (!*x)
        return done(intResult(0));
    }
    return done(intResult(0));
  }
  bool strcmp() { return compareStrings(~uint64_t(0)); }
  bool strncmp() {
    std::optional<uint64_t> n = count(2);
    return n && compareStrings(*n);
  }

  // strchr (NULL when the string ends first) and strchrnul (the NUL's address then).
  // The C code compares `(char)c` with every byte up to and including the NUL.
  bool strchr(bool orEnd) {
    std::optional<ConcreteString> str = args_[1].concrete() ? string(args_[0]) : std::nullopt;
    if (!str)
      return false;
    const uint8_t *bytes = str->span.bytes;
    if (const void *hit = std::memchr(bytes, uint8_t(args_[1].bits), str->length + 1))
      return done(e_.memory.offsetBy(args_[0], uint64_t(static_cast<const uint8_t *>(hit) - bytes)));
    return done(orEnd ? e_.memory.offsetBy(args_[0], str->length) : sizeResult(0));
  }

  bool strrchr() {
    std::optional<ConcreteString> str = args_[1].concrete() ? string(args_[0]) : std::nullopt;
    if (!str)
      return false;
    for (uint64_t i = str->length + 1; i-- > 0;)
      if (str->span.bytes[i] == uint8_t(args_[1].bits))
        return done(e_.memory.offsetBy(args_[0], i));
    return done(sizeResult(0));
  }

  // strcpy returns the destination, stpcpy the end of the copy.
  bool strcpy(bool returnEnd) {
    std::optional<ConcreteString> src = string(args_[1]);
    if (!src)
      return false;
    const uint64_t n = src->length + 1;
    std::optional<Span> dst = writableSpan(e_.memory, s_, args_[0], n);
    if (!dst || overlap(src->span, *dst, n))
      return false;
    store(*dst, src->span.bytes, n, src->span.entry->object == dst->entry->object);
    return done(returnEnd ? e_.memory.offsetBy(args_[0], src->length) : args_[0]);
  }

  Engine &e_;
  ExecutionState &s_;
  const Instr &in_;
  const std::vector<Value> &args_;
};

} // namespace

bool runNatively(Engine &engine, ExecutionState &state, const Instr &in, NativeString which,
                 const std::vector<Value> &args) {
  if (!engine.options.nativeStringFunctions)
    return false;
  return NativeCall(engine, state, in, args).run(which);
}

} // namespace cairn::engine
