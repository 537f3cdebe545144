// What forking a state's address space costs with 10 to 10,000 live objects: the shared object
// table (AddressSpace) against a private std::map copied at every fork (what the table was
// before), side by side in one run. Not a timed test.
//
//   cairn-bench-fork [--objects N,N,...] [--seconds S]
//
// Per object count it prints the time of one fork (and the end of the forked state), of one fork
// followed by what a forked state typically does next (write one object, allocate one, end),
// and of one address lookup.
#include "cairn/engine/Memory.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace cairn;
using namespace cairn::engine;

namespace {

using Clock = std::chrono::steady_clock;
using Table = std::map<uint64_t, AddressSpace::Entry>; // the former representation

constexpr uint64_t kBase = 0x2000'0000, kStride = 64, kObjectSize = 32;

std::shared_ptr<const MemoryObject> object(uint64_t address) {
  auto mo = std::make_shared<MemoryObject>();
  mo->address = address;
  mo->size = kObjectSize;
  return mo;
}

// Nanoseconds per call of `f`, repeated for about `seconds`.
template <typename F>
double timePerCall(double seconds, F &&f) {
  uint64_t calls = 0;
  auto start = Clock::now();
  auto deadline = start + std::chrono::duration<double>(seconds);
  do {
    for (int i = 0; i < 16; ++i, ++calls)
      f();
  } while (Clock::now() < deadline);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / double(calls);
}

// The former table's lookup and copy-on-write, as the address space did them.
const AddressSpace::Entry *findIn(const Table &t, uint64_t address) {
  auto it = t.upper_bound(address);
  if (it == t.begin())
    return nullptr;
  --it;
  return address - it->first < it->second.object->size ? &it->second : nullptr;
}

ObjectState &writableIn(Table &t, uint64_t base) {
  AddressSpace::Entry &e = t.at(base);
  if (e.state.use_count() > 1)
    e.state = std::make_shared<ObjectState>(*e.state);
  return const_cast<ObjectState &>(*e.state);
}

std::string format(double ns) {
  char buf[32];
  if (ns >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3)
    std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<uint64_t> counts = {10, 1000, 10000};
  double seconds = 0.3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--objects") && i + 1 < argc) {
      counts.clear();
      std::stringstream list(argv[++i]);
      for (std::string n; std::getline(list, n, ',');)
        counts.push_back(std::strtoull(n.c_str(), nullptr, 10));
    } else if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--objects N,N,...] [--seconds S]\n", argv[0]);
      return 2;
    }
  }
  ExprContext ctx;
  std::printf("%8s | %-30s | %-30s | %-30s\n", "", "fork + end", "fork + write + allocate + end",
              "find");
  std::printf("%8s | %9s %9s %9s | %9s %9s %9s | %9s %9s %9s\n", "objects", "map copy", "shared",
              "ratio", "map copy", "shared", "ratio", "map", "shared", "ratio");
  for (uint64_t n : counts) {
    Table table;
    AddressSpace space;
    for (uint64_t i = 0; i < n; ++i) {
      auto mo = object(kBase + i * kStride);
      auto os = std::make_shared<const ObjectState>(kObjectSize);
      table[mo->address] = AddressSpace::Entry{mo, os};
      space.bind(mo, os);
    }
    std::mt19937_64 rng(n);
    auto someAddress = [&] { return kBase + (rng() % n) * kStride + rng() % kObjectSize; };
    const uint64_t fresh = kBase + n * kStride;

    // A copy that is dropped again: what a fork costs over a state's life, its end included.
    double forkMap = timePerCall(seconds, [&] { Table fork = table; });
    double forkShared = timePerCall(seconds, [&] { AddressSpace fork = space; });

    auto mo = object(fresh);
    double stepMap = timePerCall(seconds, [&] {
      Table fork = table;
      uint64_t a = someAddress();
      writableIn(fork, findIn(fork, a)->object->address).write(ctx, 0, Value(u128(1)), 1);
      fork[fresh] = AddressSpace::Entry{mo, std::make_shared<const ObjectState>(kObjectSize)};
    });
    double stepShared = timePerCall(seconds, [&] {
      AddressSpace fork = space;
      uint64_t a = someAddress();
      fork.writable(fork.find(a)->object->address).write(ctx, 0, Value(u128(1)), 1);
      fork.bind(mo, std::make_shared<const ObjectState>(kObjectSize));
    });

    uint64_t sink = 0;
    double findMap = timePerCall(seconds, [&] { sink += findIn(table, someAddress()) != nullptr; });
    double findShared = timePerCall(seconds, [&] { sink += space.find(someAddress()) != nullptr; });
    if (sink == 0)
      std::printf("(no lookup hit)\n");

    std::printf("%8llu | %9s %9s %8.1fx | %9s %9s %8.1fx | %9s %9s %8.2fx\n", (unsigned long long)n,
                format(forkMap).c_str(), format(forkShared).c_str(), forkMap / forkShared,
                format(stepMap).c_str(), format(stepShared).c_str(), stepMap / stepShared,
                format(findMap).c_str(), format(findShared).c_str(), findMap / findShared);
  }
  std::printf("ratio: map copy over shared (above 1: the shared table is faster)\n");
  return 0;
}
