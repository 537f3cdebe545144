// The `cairn` command line as a user meets it first: --help on every command exits 0 with its
// usage on stdout, --version names the build, and what is unknown exits 2.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace {

struct Result {
  int status = -1;
  std::string out; // stdout only: usage asked for goes there, errors do not
};

Result cairn(const std::string &args) {
  Result r;
  FILE *p = ::popen((std::string(CAIRN_BIN) + " " + args + " 2>/dev/null").c_str(), "r");
  if (!p)
    return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    r.out.append(buf, n);
  int raw = ::pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

TEST(CommandLine, HelpOnEveryCommandExitsZeroWithItsUsage) {
  for (const char *command : {"run", "ktest", "replay"}) {
    for (const char *flag : {"--help", "-h"}) {
      Result r = cairn(std::string(command) + " " + flag);
      EXPECT_EQ(r.status, 0) << command << " " << flag;
      EXPECT_NE(r.out.find("cairn run [options] PROGRAM"), std::string::npos) << command << ": " << r.out;
      EXPECT_NE(r.out.find("--max-stack-frames"), std::string::npos) << command;
    }
  }
  for (const char *command : {"submit", "status", "wait", "results", "cancel"}) {
    Result r = cairn(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_NE(r.out.find("cairn submit [job options]"), std::string::npos) << command << ": " << r.out;
  }
  // Among options and operands too, but not among the program's own arguments.
  EXPECT_EQ(cairn("run --search dfs --help prog.c").status, 0);
  Result forProgram = cairn("run /nonexistent/prog.c -- --help");
  EXPECT_NE(forProgram.status, 0);
  EXPECT_EQ(forProgram.out.find("usage:"), std::string::npos) << forProgram.out;
}

TEST(CommandLine, VersionNamesTheBuild) {
  for (const char *flag : {"--version", "version"}) {
    Result r = cairn(flag);
    EXPECT_EQ(r.status, 0) << flag;
    EXPECT_EQ(r.out.rfind("cairn 0.", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("LLVM 15."), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Z3 4."), std::string::npos) << r.out;
  }
}

TEST(CommandLine, UnknownCommandsAndOptionsExitTwo) {
  EXPECT_EQ(cairn("frobnicate").status, 2);
  EXPECT_EQ(cairn("frobnicate --help").status, 2);
  EXPECT_EQ(cairn("run --frobnicate prog.c").status, 2);
  EXPECT_EQ(cairn("").status, 2);
}

} // namespace
