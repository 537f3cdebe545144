// Runs a C program through the engine for a unit test: compiled without the runtime (the
// engine's own functions are declared by a prelude), results collected in memory.
#pragma once

#include "cairn/engine/Executor.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace cairn::engine::unit {

struct Recorder : ResultSink {
  std::vector<TestCase> tests;
  void onTest(const TestCase &t) override { tests.push_back(t); }
};

// The engine's functions the test programs call.
inline const char *kEnginePrelude =
    "void klee_make_symbolic(void *, unsigned long, const char *);\n"
    "void klee_assume(unsigned long);\n"
    "void klee_open_merge(void);\nvoid klee_close_merge(void);\n"
    "void *malloc(unsigned long);\nvoid *calloc(unsigned long, unsigned long);\n"
    "void *realloc(void *, unsigned long);\nvoid free(void *);\n";
// Lines the prelude adds before a program's first line (for expected error lines).
inline constexpr unsigned kEnginePreludeLines = 8;

struct Outcome {
  RunStatistics stats;
  std::vector<TestCase> tests;
  // (type kind line) of every error, sorted.
  std::multiset<std::string> errors() const {
    std::multiset<std::string> out;
    for (const ErrorReport &e : stats.errors)
      out.insert(e.type + " " + e.kind + " " + std::to_string(e.line));
    return out;
  }
};

// A C program written to `dir`/prog.c and compiled as the engine compiles C (unoptimised,
// locals in allocas), without the runtime.
struct CompiledSource {
  std::unique_ptr<LoadedModule> module;
  std::unique_ptr<Program> program;
};
inline CompiledSource compileWithoutRuntime(const std::filesystem::path &dir, const std::string &source) {
  std::string path = (dir / "prog.c").string();
  std::ofstream(path) << source;
  LoadOptions lo;
  lo.linkRuntime = false;
  CompiledSource out;
  out.module = loadProgram(path, lo);
  out.program = translateProgram(*out.module);
  return out;
}

// A scratch directory per test, removed afterwards.
class EngineRunTest : public ::testing::Test {
protected:
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("cairn-unit-" + std::to_string(::getpid()) + "-" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name());

  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }

  Outcome runSource(const std::string &body, ExecutorOptions options) {
    return run(*compileWithoutRuntime(dir, kEnginePrelude + body).program, std::move(options));
  }

  // A program of the end-to-end corpus (tests/e2e/programs), with the runtime.
  Outcome runCorpusProgram(const std::string &name, ExecutorOptions options) {
    auto module = loadProgram(std::string(CAIRN_E2E_PROGRAMS) + "/" + name, LoadOptions{});
    return run(*translateProgram(*module), std::move(options));
  }

private:
  Outcome run(const Program &program, ExecutorOptions options) {
    if (options.solver.timeoutSeconds == 0)
      options.solver.timeoutSeconds = 10;
    Recorder sink;
    Executor ex(program, options, sink);
    Outcome o{ex.run(), {}};
    o.tests = std::move(sink.tests);
    return o;
  }
};

} // namespace cairn::engine::unit
