// `cairn cc` as a project's build uses it: objects compiled apart, an archive, a link, and a
// compile-and-link at once; the executables run natively, and `cairn extract` and `cairn run`
// take them whole, their bitcode recorded in them.
#include "Process.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

using cairn::testing::CommandResult;
using cairn::testing::shell;

class CompilerWrapper : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cairn-cc-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "util.h") << "int classify(const char *s);\n";
    std::ofstream(dir_ / "util.c") << "#include \"util.h\"\n"
                                      "int classify(const char *s) {\n"
                                      "  if (s[0] == '-')\n"
                                      "    return s[1] == 'v' ? 2 : 1;\n"
                                      "  return 0;\n"
                                      "}\n";
    std::ofstream(dir_ / "main.c") << "#include <stdio.h>\n#include \"util.h\"\n"
                                      "int main(int argc, char **argv) {\n"
                                      "  int k = argc > 1 ? classify(argv[1]) : 0;\n"
                                      "  printf(\"kind %d\\n\", k);\n"
                                      "  return k;\n"
                                      "}\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  CommandResult in(const std::string &command) { return shell("cd " + dir_.string() + " && " + command); }

  const std::string cc = std::string(CAIRN_BIN) + " cc";
  fs::path dir_;
};

TEST_F(CompilerWrapper, ObjectsArchivesAndLinksKeepTheirBitcode) {
  ASSERT_EQ(in(cc + " -O2 -Wall -MD -MF util.d -c util.c -o util.o").status, 0);
  EXPECT_TRUE(fs::exists(dir_ / "util.d")) << "the native build's dependency file";
  ASSERT_EQ(in(cc + " -O2 -c main.c").status, 0);
  ASSERT_EQ(in("ar rcs libutil.a util.o").status, 0);
  CommandResult link = in(cc + " -o prog main.o -L. -lutil");
  ASSERT_EQ(link.status, 0) << link.output;

  CommandResult native = in("./prog -v");
  EXPECT_EQ(native.status, 2);
  EXPECT_EQ(native.output, "kind 2\n");

  CommandResult extract = in(std::string(CAIRN_BIN) + " extract prog -o prog.bc");
  EXPECT_EQ(extract.status, 0) << extract.output;
  EXPECT_NE(extract.output.find("2 bitcode files"), std::string::npos) << extract.output;
  EXPECT_TRUE(fs::exists(dir_ / "prog.bc"));

  // The executable runs under the full libc, with symbolic arguments: no argument, one not
  // starting with '-', or one that does (its bitcode is unoptimised: `s[1] == 'v' ? 2 : 1`
  // with constant arms is a select, no branch).
  CommandResult run = in(std::string(CAIRN_BIN) + " run --json --quiet --search dfs --sym-args 0 1 2 --output-dir out prog");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("\"paths_completed\": 3,"), std::string::npos) << run.output;
}

// A C99 inline function the optimised native build inlines: its archive member is never linked
// natively, yet the unoptimised bitcode calls it. The executable records its archives' bitcode,
// and the loader takes the member as a linker would.
TEST_F(CompilerWrapper, ArchiveMembersTheNativeLinkLeftOutAreLinkedWhenTheBitcodeNeedsThem) {
  std::ofstream(dir_ / "twice.h") << "inline int twice(int x) { return 2 * x; }\n";
  std::ofstream(dir_ / "twice.c") << "#include \"twice.h\"\nextern inline int twice(int x);\n";
  std::ofstream(dir_ / "use.c") << "#include \"twice.h\"\n"
                                   "int main(int argc, char **argv) { return twice(argc) == 6 ? 1 : 0; }\n";
  ASSERT_EQ(in(cc + " -O2 -c twice.c").status, 0);
  ASSERT_EQ(in("ar rcs libtwice.a twice.o").status, 0);
  ASSERT_EQ(in(cc + " -O2 -c use.c").status, 0);
  CommandResult link = in(cc + " -o use use.o -L. -ltwice");
  ASSERT_EQ(link.status, 0) << link.output;
  EXPECT_EQ(in("nm use").output.find(" twice\n"), std::string::npos) << "inlined natively, member not linked";
  CommandResult run = in(std::string(CAIRN_BIN) + " run --json --quiet --sym-args 0 5 1 --output-dir out use");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("\"paths_completed\": 6,"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("\"errors\": []"), std::string::npos) << "twice() linked: " << run.output;
  EXPECT_NE(run.output.find("\"errors\": []"), std::string::npos) << run.output;
}

// The engine's malloc gives NULL past 2 GiB; the executable, run as built (musl's malloc, no
// AddressSanitizer), gets NULL there too when replayed: `od -S8G`'s "memory exhausted".
TEST_F(CompilerWrapper, ReplayedExecutablesGetNullForHugeAllocationsAsTheEngineDoes) {
  std::ofstream(dir_ / "huge.c") << "#include <stdlib.h>\n"
                                    "int main(int argc, char **argv) {\n"
                                    "  char *p = malloc(argc > 1 && argv[1][0] == 'x' ? (size_t)8 << 30 : 16);\n"
                                    "  if (!p) return 7;\n"
                                    "  p[0] = 1;\n"
                                    "  return 0;\n}\n";
  ASSERT_EQ(in(cc + " -g -o huge huge.c").status, 0);
  CommandResult run = in(std::string(CAIRN_BIN) + " run --json --quiet --all-tests --sym-args 0 1 1 --output-dir out huge");
  ASSERT_EQ(run.status, 0) << run.output;
  CommandResult replay = in(std::string(CAIRN_BIN) + " replay huge out");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("recorded exit status 7"), std::string::npos) << replay.output;
}

TEST_F(CompilerWrapper, CompileAndLinkAtOnceAndPreprocessing) {
  CommandResult both = in(cc + " -g -o prog2 main.c util.c");
  ASSERT_EQ(both.status, 0) << both.output;
  EXPECT_EQ(in("./prog2 x").output, "kind 0\n");
  CommandResult extract = in(std::string(CAIRN_BIN) + " extract prog2");
  EXPECT_NE(extract.output.find("2 bitcode files"), std::string::npos) << extract.output;
  // -E writes to stdout as a compiler does (configure reads it), from musl's headers.
  CommandResult pre = in("echo '#include <stdio.h>' | " + cc + " -E -x c -");
  EXPECT_EQ(pre.status, 0);
  EXPECT_NE(pre.output.find("x86_64-linux-musl"), std::string::npos) << pre.output.substr(0, 300);
  // A failing compile fails with clang's status and message.
  std::ofstream(dir_ / "bad.c") << "int main(void) { return undeclared; }\n";
  CommandResult bad = in(cc + " -c bad.c");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("undeclared"), std::string::npos) << bad.output;
  // A native program without recorded bitcode is refused with a reason.
  ASSERT_EQ(in("gcc -o plain main.c util.c").status, 0);
  CommandResult plain = in(std::string(CAIRN_BIN) + " run plain");
  EXPECT_EQ(plain.status, 1);
  EXPECT_NE(plain.output.find("no bitcode recorded"), std::string::npos) << plain.output;
  // A configure script's probe (Autoconf names each one conftest.c) is built natively only:
  // it runs, and no bitcode is compiled or recorded for it.
  std::ofstream(dir_ / "conftest.c") << "int main(void) { return 3; }\n";
  ASSERT_EQ(in(cc + " -c conftest.c").status, 0);
  EXPECT_TRUE(fs::exists(dir_ / "conftest.o"));
  EXPECT_FALSE(fs::exists(dir_ / ".conftest.o.bc"));
  ASSERT_EQ(in(cc + " -o conftest conftest.c").status, 0);
  EXPECT_EQ(in("./conftest").status, 3);
  CommandResult probe = in(std::string(CAIRN_BIN) + " run conftest");
  EXPECT_EQ(probe.status, 1);
  EXPECT_NE(probe.output.find("no bitcode recorded"), std::string::npos) << probe.output;
}

} // namespace
