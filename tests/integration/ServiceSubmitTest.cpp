// Where a job's C source is compiled: on the client, as `cairn run` compiles it (so headers
// beside the program are found), never on the coordinator (which would read the files the
// source names from its own disk and echo them back in its diagnostics).
#include "ServiceCluster.h"

#include "cairn/v1/jobs.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <memory>
#include <set>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

class ServiceSubmit : public ::testing::Test {
protected:
  fs::path dir = fs::path(::testing::TempDir()) / ("cairn-submit-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // A coordinator with one worker and no solver pool: enough for a small job.
  std::unique_ptr<Cluster> smallCluster() {
    ClusterOptions options;
    options.workers = 1;
    options.poolReplicas = 0;
    return std::make_unique<Cluster>(dir / "cluster", options);
  }

  // `cairn run` of the program with the job's options, into dir/`name`: what the job must equal.
  RunOutcome runAlone(const std::string &program, const std::vector<std::string> &options,
                      const std::string &name = "alone") {
    std::vector<std::string> argv = {CAIRN_BIN, "run", "--quiet", "--output-dir", (dir / name).string()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(program);
    CommandResult alone = runCommand(argv);
    EXPECT_EQ(alone.status, 0) << alone.output;
    return outcomeOf(dir / name);
  }

  // The job of `program` with `options` on `cluster`, into dir/`name`, whose outcome must be
  // `expected` (cairn run's). Returns the job's id ("" when it failed) and `cairn status --json`.
  std::pair<std::string, std::string> jobLikeAlone(Cluster &cluster, const std::string &program,
                                                   const std::vector<std::string> &options,
                                                   const RunOutcome &expected, const std::string &name = "job") {
    std::string failure;
    std::string job = cluster.runJob(program, options, dir / name, failure, 60);
    EXPECT_FALSE(job.empty()) << failure;
    if (job.empty())
      return {};
    EXPECT_EQ(describe(outcomeOf(dir / name)), describe(expected));
    return {job, cluster.cairn("status", {"--json", job}).output};
  }

  fs::path write(const fs::path &path, const std::string &bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
};

TEST_F(ServiceSubmit, CSourceIsCompiledOnTheClientWithItsHeadersAndCflags) {
  // The header lives beside the program only: a compile anywhere else does not find it.
  write(dir / "src" / "limits_here.h", "#define LIMIT 7\n");
  const std::string program = write(dir / "src" / "uses_header.c",
                                    "#include \"cairn.h\"\n"
                                    "#include \"limits_here.h\"\n"
                                    "int main(void) {\n"
                                    "  int x;\n"
                                    "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                                    "  if (x > LIMIT)\n"
                                    "    return 1;\n"
                                    "#ifdef CHECK_NEGATIVE\n"
                                    "  if (x == -LIMIT) {\n"
                                    "    int *p = 0;\n"
                                    "    return *p;\n"
                                    "  }\n"
                                    "#endif\n"
                                    "  return 0;\n"
                                    "}\n")
                                  .string();
  const std::vector<std::string> options = {"--search", "dfs", "--cflag", "-DCHECK_NEGATIVE"};
  std::vector<std::string> withLcov = options;
  withLcov.insert(withLcov.end(), {"--lcov", (dir / "alone.lcov").string(), "--sarif", (dir / "alone.sarif").string(),
                                   "--junit", (dir / "alone.xml").string()});
  RunOutcome expected = runAlone(program, withLcov);
  // Counted from the program: x > 7, x == -7 (a null dereference), the rest; the error only
  // with the --cflag.
  EXPECT_EQ(expected.pathsCompleted, "3") << describe(expected);
  EXPECT_EQ(expected.errors.size(), 1u) << describe(expected);

  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  const auto [job, status] = jobLikeAlone(*cluster, program, options, expected);
  ASSERT_FALSE(job.empty());
  // What was uploaded is the client's bitcode; the job keeps the source's name.
  EXPECT_NE(status.find("\"uses_header.bc\""), std::string::npos) << status;
  EXPECT_NE(status.find("\"uses_header.c\""), std::string::npos) << status;
  // The job's reports for CI, as cairn run writes them: the null dereference at line 11.
  CommandResult reported = cluster->cairn("results", {"--output-dir", (dir / "job-reports").string(), "--sarif",
                                                     (dir / "job.sarif").string(), "--junit",
                                                     (dir / "job.xml").string(), "--lcov",
                                                     (dir / "job.lcov").string(), job});
  ASSERT_EQ(reported.status, 0) << reported.output;
  // Its coverage, gathered from the workers' items, is cairn run's to the byte: the same
  // lines and the same branch edges of the program's own file.
  std::ifstream aloneLcov(dir / "alone.lcov"), jobLcov(dir / "job.lcov");
  const std::string expectedLcov((std::istreambuf_iterator<char>(aloneLcov)), {});
  const std::string lcov((std::istreambuf_iterator<char>(jobLcov)), {});
  EXPECT_EQ(lcov, expectedLcov);
  EXPECT_NE(lcov.find("uses_header.c\n"), std::string::npos) << lcov;
  EXPECT_NE(lcov.find("BRDA:6,0,0,1"), std::string::npos) << lcov; // x > LIMIT taken both ways
  EXPECT_NE(lcov.find("DA:11,1"), std::string::npos) << lcov;
  std::ifstream sarifFile(dir / "job.sarif"), junitFile(dir / "job.xml");
  const std::string sarif((std::istreambuf_iterator<char>(sarifFile)), {});
  const std::string junit((std::istreambuf_iterator<char>(junitFile)), {});
  EXPECT_NE(sarif.find("\"ruleId\": \"ptr/null\""), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("\"startLine\": 11"), std::string::npos) << sarif;
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("uses_header.c:11"), std::string::npos) << junit;
  // The coordinator made them (Jobs.GetReport) with cairn run's writers: the SARIF is cairn
  // run's but for where the tests are and what the program is called; the JUnit's failure is
  // the same test case.
  auto replaced = [](std::string text, const std::string &from, const std::string &to) {
    for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
      text.replace(at, from.size(), to);
    return text;
  };
  std::ifstream aloneSarif(dir / "alone.sarif"), aloneJunit(dir / "alone.xml");
  const std::string expectedSarif((std::istreambuf_iterator<char>(aloneSarif)), {});
  const std::string expectedJunit((std::istreambuf_iterator<char>(aloneJunit)), {});
  EXPECT_EQ(replaced(replaced(sarif, (dir / "job-reports").string(), (dir / "alone").string()),
                     "cairn replay uses_header.c ", "cairn replay " + program + " "),
            expectedSarif);
  auto failure = [](const std::string &x) {
    const size_t at = x.find("<failure ");
    return at == std::string::npos ? std::string() : x.substr(at, x.find("</failure>", at) - at);
  };
  EXPECT_FALSE(failure(expectedJunit).empty()) << expectedJunit;
  EXPECT_EQ(replaced(replaced(failure(junit), (dir / "job-reports").string(), (dir / "alone").string()),
                     "cairn replay uses_header.c ", "cairn replay " + program + " "),
            failure(expectedJunit));
}

// A job with --transform-branches: the coordinator melds the program once, the workers run the
// melded bitcode with its guards, so the real error is reported and the extra reads' errors are
// filtered exactly as cairn run does it.
TEST_F(ServiceSubmit, BranchTransformationRunsOnTheWorkersAsLocally) {
  const std::string program = std::string(CAIRN_E2E_DIR) + "/transform_real_oob.c";
  const std::vector<std::string> options = {"--search", "dfs", "--transform-branches", "symbolic"};
  RunOutcome expected = runAlone(program, options);
  EXPECT_EQ(expected.pathsCompleted, "2") << describe(expected); // as the corpus program says
  EXPECT_EQ(expected.errors.size(), 1u) << describe(expected);

  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  const std::string status = jobLikeAlone(*cluster, program, options, expected).second;
  // The pass's counts came with the bitcode; the filtered errors from the work items.
  EXPECT_NE(status.find("\"branchesMelded\":\"1\""), std::string::npos) << status;
  EXPECT_NE(status.find("\"spuriousErrorsFiltered\":\"2\""), std::string::npos) << status;
}

// --no-transform FILE with a job: cairn submit reads the list and sends its locations, so the
// branch it names stays a branch on the workers exactly as under cairn run (ten paths, the
// melded run's two otherwise); the flag itself, sent by another client, is refused.
TEST_F(ServiceSubmit, ALocationListLeavesItsBranchesAloneOnTheWorkersAsLocally) {
  const std::string program = std::string(CAIRN_E2E_DIR) + "/transform_real_oob.c";
  const fs::path list = write(dir / "no-transform.txt", "# the read in the loop's branch\ntransform_real_oob.c:22\n");
  const std::vector<std::string> options = {"--search", "dfs", "--transform-branches", "symbolic", "--no-transform",
                                            list.string()};
  RunOutcome expected = runAlone(program, options);
  EXPECT_EQ(expected.pathsCompleted, "10") << describe(expected); // as without the transformation
  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  const std::string status = jobLikeAlone(*cluster, program, options, expected).second;
  EXPECT_NE(status.find("\"skippedExcluded\":\"1\""), std::string::npos) << status;

  CommandResult raw = cluster->cairn("submit", {"--transform-branches", "symbolic", "--option",
                                                "--no-transform=" + list.string(), program});
  EXPECT_NE(raw.status, 0) << raw.output;
  EXPECT_NE(raw.output.find("--no-transform-at"), std::string::npos) << raw.output;
  CommandResult bad = cluster->cairn("submit", {"--transform-branches", "symbolic", "--no-transform",
                                                write(dir / "bad.txt", "transform_real_oob.c\n").string(), program});
  EXPECT_NE(bad.status, 0) << bad.output;
  EXPECT_NE(bad.output.find("expected FILE:LINE"), std::string::npos) << bad.output;
}

// A job with symbolic floats: --float travels as an engine flag, the workers' float queries go to
// their float core, and the job's counters carry the math functions' calls.
TEST_F(ServiceSubmit, SymbolicFloatsRunOnTheWorkersAsLocally) {
  const std::string program = std::string(CAIRN_E2E_DIR) + "/float_libm_frexp_modf.c";
  const std::vector<std::string> options = {"--search", "dfs", "--float", "symbolic"};
  RunOutcome expected = runAlone(program, options);
  EXPECT_EQ(expected.pathsCompleted, "6") << describe(expected); // as the corpus program says

  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  const std::string status = jobLikeAlone(*cluster, program, options, expected).second;
  EXPECT_NE(status.find("\"floatLibraryCalls\":\"5\""), std::string::npos) << status;

  // Under --float concrete the same program's symbolic floats end their paths: the flag arrived.
  const std::vector<std::string> concrete = {"--search", "dfs", "--float", "concrete"};
  RunOutcome concreteAlone = runAlone(program, concrete, "alone-concrete");
  EXPECT_NE(describe(concreteAlone), describe(expected));
  jobLikeAlone(*cluster, program, concrete, concreteAlone, "concrete");
}

// The first line of the coordinator's /etc/passwd, and its longer fields: none may come back.
std::vector<std::string> secretsOfPasswd() {
  std::ifstream in("/etc/passwd");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> secrets;
  if (line.empty())
    return secrets;
  secrets.push_back(line);
  size_t start = 0;
  for (size_t colon; (colon = line.find(':', start)) != std::string::npos; start = colon + 1)
    if (colon - start >= 4)
      secrets.push_back(line.substr(start, colon - start));
  if (line.size() - start >= 4)
    secrets.push_back(line.substr(start));
  return secrets;
}

TEST_F(ServiceSubmit, RawSourceUploadsAreRefusedWithoutReadingTheCoordinatorsFiles) {
  const std::vector<std::string> secrets = secretsOfPasswd();
  ASSERT_FALSE(secrets.empty()) << "this test needs a readable /etc/passwd";
  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  auto stub = cairn::v1::Jobs::NewStub(grpc::CreateChannel(cluster->server(), grpc::InsecureChannelCredentials()));

  struct Upload {
    std::string fileName, program;
    std::vector<std::string> cflags = {};
  };
  const std::string absolute = "#include \"/etc/passwd\"\nint main(void) { return 0; }\n";
  const std::string relative = "#include \"../../../../../../../../../../etc/passwd\"\nint main(void) { return 0; }\n";
  const std::vector<Upload> uploads = {
      {"evil.c", absolute},
      {"evil.c", relative},
      {"../../evil.c", relative},
      {"/tmp/evil.c", absolute},
      {"evil.i", absolute},
      {"evil.h", absolute},
      // Source disguised as IR or bitcode is parsed as such, never compiled.
      {"evil.ll", absolute},
      {"evil.ll", relative},
      {"evil.bc", absolute},
      // Flags that would make a compiler read the file.
      {"evil.ll", absolute, {"-include", "/etc/passwd"}},
      {"evil.c", "int main(void) { return 0; }\n", {"-include/etc/passwd"}},
      {"passwd", absolute},
  };
  for (const Upload &u : uploads) {
    cairn::v1::SubmitJobRequest request;
    request.set_program(u.program);
    request.set_file_name(u.fileName);
    for (const std::string &f : u.cflags)
      request.add_cflags(f);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    cairn::v1::SubmitJobResponse response;
    grpc::Status s = stub->SubmitJob(&context, request, &response);
    SCOPED_TRACE(u.fileName + (u.cflags.empty() ? "" : " " + u.cflags[0]) + ": " + s.error_message());
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_TRUE(response.job_id().empty());
    for (const std::string &secret : secrets)
      EXPECT_EQ(s.error_message().find(secret), std::string::npos) << "the reply holds '" << secret << "'";
  }
  // C source gets the message that says what to do.
  {
    cairn::v1::SubmitJobRequest request;
    request.set_program(absolute);
    request.set_file_name("evil.c");
    grpc::ClientContext context;
    cairn::v1::SubmitJobResponse response;
    grpc::Status s = stub->SubmitJob(&context, request, &response);
    EXPECT_NE(s.error_message().find("the coordinator accepts bitcode"), std::string::npos) << s.error_message();
    EXPECT_NE(s.error_message().find("compile with cairn submit, which does it for you"), std::string::npos)
        << s.error_message();
  }
  // Still serving: a client-compiled program runs.
  std::string failure;
  EXPECT_FALSE(cluster->runJob(std::string(CAIRN_EXAMPLES_DIR) + "/sign.c", {"--search", "dfs"}, dir / "job", failure, 60)
                   .empty())
      << failure;
}

} // namespace

namespace {

// A program built with `cairn cc` goes up as the bitcode it recorded, and runs as `cairn run`
// runs it: under the full libc, with symbolic arguments; each test keeps what the path printed.
TEST_F(ServiceSubmit, ExecutablesBuiltWithCairnCcRunWithTheFullLibc) {
  write(dir / "main.c", "#include <stdio.h>\n"
                        "int main(int argc, char **argv) {\n"
                        "  int k = 0;\n"
                        "  if (argc > 1) {\n"
                        "    if (argv[1][0] == '-')\n"
                        "      k = 2;\n"
                        "    else\n"
                        "      k = 1;\n"
                        "  }\n"
                        "  printf(\"kind %d\\n\", k);\n"
                        "  return k;\n"
                        "}\n");
  const fs::path prog = dir / "classify";
  CommandResult built = runCommand({CAIRN_BIN, "cc", "-O2", "-o", prog.string(), (dir / "main.c").string()});
  ASSERT_EQ(built.status, 0) << built.output;
  const std::vector<std::string> options = {"--search", "dfs", "--sym-args", "0", "1", "2", "--all-tests"};
  std::vector<std::string> argv = {CAIRN_BIN, "run", "--quiet", "--environ", "/dev/null", "--output-dir",
                                   (dir / "alone").string()};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(prog.string());
  CommandResult alone = runCommand(argv);
  ASSERT_EQ(alone.status, 0) << alone.output;
  RunOutcome expected = outcomeOf(dir / "alone");
  EXPECT_EQ(expected.pathsCompleted, "3") << describe(expected); // no argument, '-', another

  std::unique_ptr<Cluster> cluster = smallCluster();
  ASSERT_TRUE(cluster->ready());
  std::string failure;
  std::string job = cluster->runJob(prog.string(), options, dir / "job", failure, 60);
  ASSERT_FALSE(job.empty()) << failure;
  EXPECT_EQ(describe(outcomeOf(dir / "job")), describe(expected));
  std::set<std::string> printed;
  for (const fs::directory_entry &e : fs::directory_iterator(dir / "job"))
    if (e.path().extension() == ".stdout") {
      std::ifstream in(e.path());
      printed.insert(std::string(std::istreambuf_iterator<char>(in), {}));
    }
  EXPECT_EQ(printed, (std::set<std::string>{"kind 0\n", "kind 1\n", "kind 2\n"}));
  CommandResult status = cluster->cairn("status", {"--json", job});
  EXPECT_NE(status.output.find("\"classify.bc\""), std::string::npos) << status.output;
  CommandResult replay = runCommand({CAIRN_BIN, "replay", prog.string(), (dir / "job").string()});
  EXPECT_EQ(replay.status, 0) << replay.output;
}

} // namespace
