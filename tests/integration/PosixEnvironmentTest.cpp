// The full libc's POSIX environment model as a user meets it: `cairn run --libc full` with
// symbolic arguments, stdin and a file; each test keeps what its path printed and its exit
// status, and `cairn replay` recreates the arguments, stdin and file natively and compares.
#include "Process.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

using cairn::testing::CommandResult;
using cairn::testing::readText;
using cairn::testing::shell;

class PosixEnvironment : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cairn-posix-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string &name, const std::string &text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  std::string cairn(const std::string &args) { return std::string(CAIRN_BIN) + " " + args; }

  fs::path dir_;
};

// Arguments, stdin and a file decide what the program prints (symbolic bytes among it) and how
// it exits; every test's recorded output and status are what the native run gives.
const char *kEcho = R"(#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char in[4] = {0}, file[3] = {0};
  ssize_t n = read(0, in, 3);
  int fd = open("A", O_RDONLY);
  if (fd < 0 || read(fd, file, 2) != 2)
    return 9;
  printf("args %d [%s] stdin %zd\n", argc, argc > 1 ? argv[1] : "-", n);
  fprintf(stderr, "to stderr\n");
  if (argc > 1 && strcmp(argv[1], "go") == 0) {
    printf("go %c\n", in[0] == 'x' ? in[0] : '?');
    return 3;
  }
  if (file[0] == 'Q')
    return 4;
  return 0;
}
)";

TEST_F(PosixEnvironment, TestsKeepOutputAndStatusAndReplayNatively) {
  fs::path prog = write("echo.c", kEcho);
  fs::path out = dir_ / "out";
  CommandResult run = shell(cairn("run --quiet --libc full --all-tests --sym-args 0 1 2 --sym-stdin 3 --sym-files 1 2 --lcov " +
                           (dir_ / "echo.info").string() + " --output-dir " +
                           out.string() + " " + prog.string()));
  ASSERT_EQ(run.status, 0) << run.output;
  size_t tests = 0, exits = 0;
  bool sawGo = false, sawFour = false;
  for (const auto &e : fs::directory_iterator(out)) {
    if (e.path().extension() == ".ktest")
      ++tests;
    if (e.path().extension() != ".exit")
      continue;
    ++exits;
    std::string status = readText(e.path());
    fs::path stem = e.path().parent_path() / e.path().stem();
    std::string printed = readText(stem.string() + ".stdout");
    if (status == "3\n" && printed == "args 2 [go] stdin 3\ngo x\n")
      sawGo = true;
    if (status == "4\n")
      sawFour = true;
    EXPECT_EQ(readText(stem.string() + ".stderr"), "to stderr\n") << stem;
  }
  EXPECT_GE(tests, 6u);
  EXPECT_EQ(exits, tests) << "every path exits";
  EXPECT_TRUE(sawGo) << "no test prints the symbolic argument and stdin byte as they are";
  EXPECT_TRUE(sawFour);
  // Coverage per file: the program's own file only (musl and the model are runtime code), every
  // line with code run on some path but `return 9` (file A always opens and holds two bytes).
  std::string summary = readText(out / "summary.json");
  EXPECT_NE(summary.find("\"files\": [{\"file\": \"" + prog.string() + "\", \"lines_covered\": 13, \"lines_total\": 14}]"),
            std::string::npos)
      << summary;
  std::string lcov = readText(dir_ / "echo.info");
  EXPECT_EQ(lcov.rfind("TN:cairn\nSF:" + prog.string() + "\n", 0), 0u) << lcov;
  EXPECT_NE(lcov.find("DA:10,1\nDA:11,0\nDA:12,1\n"), std::string::npos) << lcov;
  EXPECT_NE(lcov.find("LF:14\nLH:13\nend_of_record\n"), std::string::npos) << lcov;
  // Every edge of every decision taken but the two into `return 9` (each operand of the `||`).
  EXPECT_NE(lcov.find("SF:" + prog.string() + "\nBRDA:10,0,0,0\nBRDA:10,0,1,1\nBRDA:10,1,0,0\nBRDA:10,1,1,1\n"
                      "BRDA:12,0,0,1\nBRDA:12,0,1,1\nBRDA:14,0,0,1\nBRDA:14,0,1,1\nBRDA:14,1,0,1\nBRDA:14,1,1,1\n"
                      "BRDA:15,0,0,1\nBRDA:15,0,1,1\nBRDA:18,0,0,1\nBRDA:18,0,1,1\nBRF:14\nBRH:12\nDA:"),
            std::string::npos)
      << lcov;

  CommandResult replay = shell(cairn("replay " + prog.string() + " " + out.string()));
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find(std::to_string(tests) + " of " + std::to_string(tests) + " tests reproduced"),
            std::string::npos)
      << replay.output;

  // A recorded output the native run does not print is a failed replay.
  for (const auto &e : fs::directory_iterator(out))
    if (e.path().extension() == ".stdout") {
      std::ofstream(e.path(), std::ios::app) << "more";
      break;
    }
  CommandResult changed = shell(cairn("replay " + prog.string() + " " + out.string()));
  EXPECT_EQ(changed.status, 1) << changed.output;
  EXPECT_NE(changed.output.find("NOT reproduced"), std::string::npos) << changed.output;
}

// The working directory's parent is a directory a path can open (the model's "/"); natively,
// run as nobody by root, the replay's parent directory must let it do the same.
TEST_F(PosixEnvironment, TheParentDirectoryOpensInTheReplayAsInTheModel) {
  fs::path prog = write("parent.c", "#include <errno.h>\n#include <fcntl.h>\n#include <unistd.h>\n"
                                    "int main(int argc, char **argv) {\n"
                                    "  if (argc < 2 || argv[1][0] != '.')\n"
                                    "    return 0;\n"
                                    "  char c;\n"
                                    "  int fd = open(\"..\", O_RDONLY);\n"
                                    "  return fd >= 0 && read(fd, &c, 1) < 0 && errno == EISDIR ? 5 : 6;\n}\n");
  fs::path out = dir_ / "out";
  CommandResult run = shell(cairn("run --quiet --libc full --all-tests --sym-args 0 1 1 --output-dir " + out.string() +
                                  " " + prog.string()));
  ASSERT_EQ(run.status, 0) << run.output;
  bool sawFive = false;
  for (const auto &e : fs::directory_iterator(out))
    sawFive |= e.path().extension() == ".exit" && readText(e.path()) == "5\n";
  EXPECT_TRUE(sawFive);
  CommandResult replay = shell(cairn("replay " + prog.string() + " " + out.string()));
  EXPECT_EQ(replay.status, 0) << replay.output;
}

TEST_F(PosixEnvironment, SymbolicInputOptionsAreChecked) {
  fs::path prog = write("p.c", "int main(void) { return 0; }\n");
  CommandResult alone = shell(cairn("run --sym-stdin 4 --output-dir " + (dir_ / "a").string() + " " + prog.string()));
  EXPECT_EQ(alone.status, 2);
  EXPECT_NE(alone.output.find("need --libc full"), std::string::npos) << alone.output;
  CommandResult few = shell(cairn("run --libc full --sym-args 0 2 " + prog.string()));
  EXPECT_EQ(few.status, 2) << few.output;
  CommandResult order = shell(cairn("run --libc full --sym-args 3 1 2 " + prog.string()));
  EXPECT_EQ(order.status, 2);
  EXPECT_NE(order.output.find("MIN 3 is above MAX 1"), std::string::npos) << order.output;
  CommandResult files = shell(cairn("run --libc full --sym-files 27 1 " + prog.string()));
  EXPECT_EQ(files.status, 2);
  EXPECT_NE(files.output.find("at most 26 files"), std::string::npos) << files.output;
  CommandResult libc = shell(cairn("run --libc glibc " + prog.string()));
  EXPECT_EQ(libc.status, 2);
  EXPECT_NE(libc.output.find("unknown libc 'glibc'"), std::string::npos) << libc.output;
  CommandResult both = shell(cairn("run --libc full --all-tests --only-new-coverage-tests " + prog.string()));
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.output.find("contradict"), std::string::npos) << both.output;
  // --file: NAME=PATH, a name of the working directory, a readable file, not a symbolic one's name.
  const std::string conf = write("settings.conf", "x=1\n").string();
  for (const auto &[flags, message] : std::vector<std::pair<std::string, std::string>>{
           {"--file settings " , "needs NAME=PATH"},
           {"--file etc/settings=" + conf, "must be a file name of the working directory"},
           {"--file settings=" + (dir_ / "missing").string(), "cannot read"},
           {"--file settings=" + dir_.string(), "cannot read"},
           {"--file a=" + conf + " --file a=" + conf, "mapped twice"},
           {"--sym-files 2 1 --file B=" + conf, "one of the symbolic files"},
           {"--sym-files 26 1 --file x=" + conf + " --file y=" + conf + " --file z=" + conf, "at most 28 files in all"}}) {
    CommandResult r = shell(cairn("run --libc full " + flags + " " + prog.string()));
    EXPECT_EQ(r.status, 2) << flags;
    EXPECT_NE(r.output.find(message), std::string::npos) << flags << ": " << r.output;
  }
  CommandResult minimal = shell(cairn("run --file settings=" + conf + " " + prog.string()));
  EXPECT_EQ(minimal.status, 2);
  EXPECT_NE(minimal.output.find("need --libc full"), std::string::npos) << minimal.output;
}

// With symbolic inputs under the full libc, a test is written only for a path that covered
// something new (and for each error): the same paths, far fewer tests than --all-tests writes.
TEST_F(PosixEnvironment, RealProgramRunsKeepTheTestsThatCoverSomethingNew) {
  fs::path prog = write("count.c", "#include <stdio.h>\n"
                                   "int main(int argc, char **argv) {\n"
                                   "  int n = 0;\n"
                                   "  for (int i = 1; i < argc; ++i)\n"
                                   "    for (const char *p = argv[i]; *p; ++p)\n"
                                   "      n += *p == 'a';\n"
                                   "  printf(\"%d\\n\", n);\n"
                                   "  return 0;\n}\n");
  auto tests = [](const fs::path &out) {
    size_t n = 0;
    for (const auto &e : fs::directory_iterator(out))
      n += e.path().extension() == ".ktest";
    return n;
  };
  const std::string common = "run --quiet --json --libc full --search dfs --sym-args 0 2 3 ";
  CommandResult fewer = shell(cairn(common + "--output-dir " + (dir_ / "new").string() + " " + prog.string()));
  CommandResult all = shell(cairn(common + "--all-tests --output-dir " + (dir_ / "all").string() + " " + prog.string()));
  ASSERT_EQ(fewer.status, 0) << fewer.output;
  ASSERT_EQ(all.status, 0) << all.output;
  auto paths = [](const std::string &json) { return json.substr(0, json.find(", \"tests\"")); };
  EXPECT_EQ(paths(fewer.output), paths(all.output)); // the same paths explored
  EXPECT_GE(tests(dir_ / "new"), 1u);
  EXPECT_GT(tests(dir_ / "all"), 30u);
  EXPECT_LT(4 * tests(dir_ / "new"), tests(dir_ / "all"));
}

} // namespace
