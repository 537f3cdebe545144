// Loading programs: C is compiled, bitcode and IR are parsed, and every kind of bad input is a
// LoadError that names the file and the problem.
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace cairn::engine;
namespace fs = std::filesystem;

namespace {

class ProgramLoaderTest : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() /
                 ("cairn-loader-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  std::string write(const std::string &name, const std::string &text) {
    std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  LoadOptions noRuntime() {
    LoadOptions o;
    o.linkRuntime = false;
    return o;
  }
  // The message of the LoadError that loading `path` raises.
  std::string failure(const std::string &path, const LoadOptions &o) {
    try {
      loadProgram(path, o);
    } catch (const LoadError &e) {
      return e.what();
    }
    ADD_FAILURE() << "loading " << path << " succeeded";
    return {};
  }
};

const char *kSign = "int sign(int x) { if (x < 0) return -1; if (x == 0) return 0; return 1; }\n"
                    "int main(void) { return sign(3); }\n";

TEST_F(ProgramLoaderTest, CompilesC) {
  auto m = loadProgram(write("sign.c", kSign), noRuntime());
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(fs::path(m->sourcePath()).filename(), "sign.c");
}

TEST_F(ProgramLoaderTest, ParsesTextualIr) {
  auto m = loadProgram(write("ret.ll", "define i32 @main() {\n  ret i32 0\n}\n"), noRuntime());
  ASSERT_NE(m, nullptr);
}

TEST_F(ProgramLoaderTest, RejectsForeignAndMalformedInput) {
  EXPECT_NE(failure(write("junk.bc", "\x7f" "ELF garbage"), noRuntime()).find("bitcode magic"),
            std::string::npos);
  std::string truncated = failure(write("cut.bc", std::string("BC\xC0\xDE\x01\x02", 6)), noRuntime());
  EXPECT_NE(truncated.find("cut.bc: not valid LLVM 15 bitcode"), std::string::npos) << truncated;
  std::string badIr = failure(write("bad.ll", "define i32 @main() {\n  ret i33 zap\n}\n"), noRuntime());
  EXPECT_NE(badIr.find("bad.ll"), std::string::npos) << badIr;
  EXPECT_NE(badIr.find(":2:"), std::string::npos) << badIr; // the line of the error
  EXPECT_NE(failure(write("notes.txt", "hello"), noRuntime()).find("expected a .c, .bc or .ll"),
            std::string::npos);
  EXPECT_NE(failure((dir / "missing.c").string(), noRuntime()).find("no such file"),
            std::string::npos);
  // A native program is read for the bitcode `cairn cc` records: a broken one says so.
  std::string elf = failure(write("prog", "\x7f" "ELF garbage"), noRuntime());
  EXPECT_NE(elf.find("prog: not a readable native file"), std::string::npos) << elf;
  std::string archive = failure(write("lib.a", "!<arch>\n"), noRuntime());
  EXPECT_NE(archive.find("no bitcode recorded"), std::string::npos) << archive;
}

TEST_F(ProgramLoaderTest, ReportsCompilerDiagnostics) {
  std::string msg = failure(write("broken.c", "int main(void) { return undefined_name; }\n"), noRuntime());
  EXPECT_NE(msg.find("could not compile"), std::string::npos) << msg;
  EXPECT_NE(msg.find("undefined_name"), std::string::npos) << msg;
}

TEST_F(ProgramLoaderTest, RequiresTheEntryFunction) {
  std::string msg = failure(write("lib.c", "int helper(int x) { return x; }\n"), noRuntime());
  EXPECT_NE(msg.find("entry function 'main'"), std::string::npos) << msg;
  LoadOptions o = noRuntime();
  o.entry = "helper";
  EXPECT_NE(loadProgram(write("lib2.c", "int helper(int x) { return x; }\n"), o), nullptr);
}

TEST_F(ProgramLoaderTest, MissingRuntimeIsAClearError) {
  LoadOptions o;
  o.runtimeBitcode = (dir / "nowhere.bc").string();
  std::string msg = failure(write("sign.c", kSign), o);
  EXPECT_NE(msg.find("runtime bitcode was not found"), std::string::npos) << msg;
}

// The engine places every object at a multiple of its alignment, up to 2^31; a larger one is
// refused by name rather than silently not honoured: a global's refuses the program, a local's
// ends the path that allocates it.
TEST_F(ProgramLoaderTest, RefusesAlignmentsTheEngineCannotHonour) {
  auto translationFailure = [&](const std::string &name, const std::string &ir) -> std::string {
    auto m = loadProgram(write(name, ir), noRuntime());
    try {
      translateProgram(*m);
    } catch (const LoadError &e) {
      return e.what();
    }
    return "translated";
  };
  // A local's alignment is the instruction's: only the path that runs it ends, with the reason.
  auto m = loadProgram(write("local.ll", "define i32 @main() {\n"
                                         "  %p = alloca i8, align 4294967296\n"
                                         "  ret i32 0\n}\n"),
                       noRuntime());
  auto p = translateProgram(*m);
  const Function &main = p->functions[p->entry];
  ASSERT_EQ(main.unsupported.size(), 1u);
  EXPECT_EQ(main.instrs[0].op, Opcode::Unsupported);
  EXPECT_NE(main.unsupported[0].find("alignments over 2147483648 bytes are not supported"), std::string::npos)
      << main.unsupported[0];
  std::string global = translationFailure("global.ll", "@g = global i8 0, align 4294967296\n"
                                                        "define i32 @main() {\n  ret i32 0\n}\n");
  EXPECT_NE(global.find("global g"), std::string::npos) << global;
  EXPECT_EQ(translationFailure("fine.ll", "@g = global i8 0, align 2147483648\n"
                                          "define i32 @main() {\n"
                                          "  %p = alloca i8, align 2147483648\n"
                                          "  ret i32 0\n}\n"),
            "translated");
}

} // namespace
