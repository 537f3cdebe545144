// Test-Comp's test-suite format from `cairn run --test-comp` and `cairn results --test-comp`:
// every file valid against the format's DTDs (our copies in testcomp/, checked with xmllint),
// the metadata naming the program by its SHA-256, and each test case's inputs exactly the
// values `cairn ktest` shows for the test it comes from, in call order.
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace cairn::testing;

namespace {

const std::string kDtdDir = std::string(CAIRN_INTEGRATION_DIR) + "/testcomp";
const std::string kProgram = kDtdDir + "/nondet.c";

// The values of a test's objects as `cairn ktest` prints them: the signed reading for int,
// the unsigned one for unsigned char and _Bool.
std::vector<std::string> ktestValues(const fs::path &ktest) {
  CommandResult shown = runCommand({CAIRN_BIN, "ktest", ktest.string()});
  EXPECT_EQ(shown.status, 0) << shown.output;
  std::map<std::string, std::string> names, ints, uints;
  std::regex line(R"(object (\d+): (name|int |uint): (.*))");
  for (std::sregex_iterator it(shown.output.begin(), shown.output.end(), line), end; it != end; ++it) {
    const std::string index = (*it)[1], field = (*it)[2], value = (*it)[3];
    (field == "name" ? names : field == "int " ? ints : uints)[index] = value;
  }
  std::vector<std::string> values;
  for (size_t i = 0; names.count(std::to_string(i)); ++i) {
    const std::string k = std::to_string(i), name = names[k];
    EXPECT_TRUE(name == "'__VERIFIER_nondet_int'" || name == "'__VERIFIER_nondet_uchar'" ||
                name == "'__VERIFIER_nondet_bool'")
        << ktest << ": " << name;
    values.push_back(name == "'__VERIFIER_nondet_int'" ? ints[k] : uints[k]);
  }
  return values;
}

std::vector<std::string> testCaseValues(const std::string &xml) {
  std::vector<std::string> values;
  std::regex input(R"(<input[^>]*>([^<]*)</input>)");
  for (std::sregex_iterator it(xml.begin(), xml.end(), input), end; it != end; ++it)
    values.push_back((*it)[1]);
  return values;
}

class TestComp : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() / ("cairn-testcomp-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // xmllint's path, or "" (the test is skipped then).
  std::string xmllint() {
    CommandResult found = runCommand({"/bin/sh", "-c", "command -v xmllint"});
    return found.status == 0 ? found.output.substr(0, found.output.find('\n')) : "";
  }
  bool valid(const std::string &tool, const std::string &dtd, const fs::path &file) {
    CommandResult r = runWithStderr({tool, "--nonet", "--noout", "--dtdvalid", kDtdDir + "/" + dtd, file.string()});
    if (r.status != 0)
      ADD_FAILURE() << file << " against " << dtd << ":\n" << r.output;
    return r.status == 0;
  }

  // The suite in `suite` for the tests in `out`: one test case per test, holding its values; its
  // metadata names the program `programFile` (kProgram's text).
  void checkSuite(const fs::path &out, const fs::path &suite, const std::string &programFile = kProgram) {
    size_t tests = 0, withThree = 0;
    bool sawUchar255 = false;
    for (const fs::directory_entry &e : fs::directory_iterator(out)) {
      if (e.path().extension() != ".ktest")
        continue;
      ++tests;
      const fs::path testCase = suite / (e.path().stem().string() + ".xml");
      ASSERT_TRUE(fs::exists(testCase)) << testCase;
      const std::string xml = readText(testCase);
      EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                          "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" "
                          "\"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n<testcase>\n",
                          0),
                0u)
          << xml;
      const std::vector<std::string> values = testCaseValues(xml);
      EXPECT_EQ(values, ktestValues(e.path())) << testCase << "\n" << xml;
      withThree += values.size() == 3;
      sawUchar255 |= values.size() == 2 && values[1] == "255" && std::stoi(values[0]) < -4;
    }
    // The paths: x < -4 with c == 255 or not, then b with x > 100, !b with c == 7, the rest.
    EXPECT_EQ(tests, 6u);
    EXPECT_EQ(withThree, 4u);
    EXPECT_TRUE(sawUchar255) << "no test reaches `return 1` with c == 255";
    EXPECT_EQ(size_t(std::distance(fs::directory_iterator(suite), fs::directory_iterator())), tests + 1);

    const std::string metadata = readText(suite / "metadata.xml");
    EXPECT_EQ(metadata.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                             "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata "
                             "1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n",
                             0),
              0u)
        << metadata;
    CommandResult hash = runCommand({"/usr/bin/sha256sum", kProgram});
    ASSERT_EQ(hash.status, 0);
    for (const std::string &field :
         {std::string("<sourcecodelang>C</sourcecodelang>"), "<programfile>" + programFile + "</programfile>",
          "<programhash>" + hash.output.substr(0, 64) + "</programhash>", std::string("<entryfunction>main</entryfunction>"),
          std::string("<architecture>64bit</architecture>"),
          std::string("<specification>COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )</specification>")})
      EXPECT_NE(metadata.find(field), std::string::npos) << field << "\n" << metadata;
    EXPECT_TRUE(std::regex_search(metadata, std::regex("<creationtime>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ</creationtime>")))
        << metadata;
    EXPECT_TRUE(std::regex_search(metadata, std::regex("<producer>Cairn [^<]+</producer>"))) << metadata;

    const std::string tool = xmllint();
    if (tool.empty())
      GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
    EXPECT_TRUE(valid(tool, "test-metadata.dtd", suite / "metadata.xml"));
    for (const fs::directory_entry &e : fs::directory_iterator(suite)) {
      if (e.path().filename() != "metadata.xml") {
        EXPECT_TRUE(valid(tool, "testcase.dtd", e.path()));
      }
    }
    // And the DTDs can reject: metadata without its hash, an input that is no element of it,
    // and a coversError that is neither true nor false.
    std::string broken = metadata;
    broken.erase(broken.find("  <programhash>"), broken.find("<entryfunction>") - broken.find("  <programhash>") - 2);
    std::ofstream(dir / "broken-metadata.xml") << broken;
    CommandResult rejected =
        runWithStderr({tool, "--nonet", "--noout", "--dtdvalid", kDtdDir + "/test-metadata.dtd", (dir / "broken-metadata.xml").string()});
    EXPECT_NE(rejected.status, 0) << broken;
    const std::string testCase = readText(suite / "test000001.xml");
    ASSERT_FALSE(testCase.empty());
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"<input ", "<value "},
                                   {"<testcase>", "<testcase coversError=\"maybe\">"}}) {
      std::string bad = testCase;
      bad.replace(bad.find(from), from.size(), to);
      if (from == "<input ")
        bad.replace(bad.find("</input>"), 8, "</value>");
      std::ofstream(dir / "broken-testcase.xml") << bad;
      EXPECT_NE(runWithStderr({tool, "--nonet", "--noout", "--dtdvalid", kDtdDir + "/testcase.dtd", (dir / "broken-testcase.xml").string()})
                    .status,
                0)
          << bad;
    }
  }
};

TEST_F(TestComp, RunWritesAValidSuiteWithTheTestsValues) {
  CommandResult r = runWithStderr({CAIRN_BIN, "run", "--quiet", "--search", "dfs", "--output-dir", (dir / "out").string(),
                                   "--test-comp", (dir / "suite").string(), kProgram});
  ASSERT_EQ(r.status, 0) << r.output;
  checkSuite(dir / "out", dir / "suite");
}

TEST_F(TestComp, AProgramWithoutNondetCallsIsRefusedBeforeItRuns) {
  std::ofstream(dir / "klee.c") << "#include \"cairn.h\"\nint main(void) {\n  int x;\n"
                                   "  klee_make_symbolic(&x, sizeof x, \"x\");\n  return x > 3;\n}\n";
  CommandResult r = runWithStderr({CAIRN_BIN, "run", "--quiet", "--output-dir", (dir / "out").string(), "--test-comp",
                                   (dir / "suite").string(), (dir / "klee.c").string()});
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("calls no __VERIFIER_nondet_"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  EXPECT_FALSE(fs::exists(dir / "suite"));
}

TEST_F(TestComp, TestsWithInputsOfOtherOriginsAreLeftOutWithAWarning) {
  std::ofstream(dir / "mixed.c") << "#include \"cairn.h\"\nint main(void) {\n  int y;\n"
                                    "  klee_make_symbolic(&y, sizeof y, \"y\");\n"
                                    "  if (__VERIFIER_nondet_int() > y)\n    return 1;\n  return 0;\n}\n";
  CommandResult r = runWithStderr({CAIRN_BIN, "run", "--output-dir", (dir / "out").string(), "--test-comp",
                                   (dir / "suite").string(), (dir / "mixed.c").string()});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 tests not written"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "suite" / "metadata.xml"));
  EXPECT_FALSE(fs::exists(dir / "suite" / "test000001.xml"));
}

// Under the error-coverage property the test that calls reach_error covers it: the task's own
// reach_error, an assertion failing inside it, as sv-benchmarks write them.
TEST_F(TestComp, TheTestReachingReachErrorCoversTheError) {
  const std::string spec = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";
  CommandResult r = runWithStderr({CAIRN_BIN, "run", "--quiet", "--search", "dfs", "--output-dir", (dir / "out").string(),
                                   "--test-comp", (dir / "suite").string(), "--test-comp-spec", spec,
                                   kDtdDir + "/reach.c"});
  ASSERT_EQ(r.status, 0) << r.output;
  size_t covering = 0, tests = 0;
  for (const fs::directory_entry &e : fs::directory_iterator(dir / "out")) {
    if (e.path().extension() != ".ktest")
      continue;
    ++tests;
    const std::string xml = readText(dir / "suite" / (e.path().stem().string() + ".xml"));
    const bool covers = xml.find("<testcase coversError=\"true\">") != std::string::npos;
    covering += covers;
    EXPECT_EQ(covers, testCaseValues(xml) == std::vector<std::string>{"42"}) << xml;
    EXPECT_EQ(covers, fs::exists(dir / "out" / (e.path().stem().string() + ".assert.err"))) << xml;
  }
  EXPECT_EQ(tests, 2u);
  EXPECT_EQ(covering, 1u);
  EXPECT_NE(readText(dir / "suite" / "metadata.xml").find("<specification>" + spec + "</specification>"),
            std::string::npos);
  const std::string tool = xmllint();
  if (tool.empty())
    GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
  for (const fs::directory_entry &e : fs::directory_iterator(dir / "suite"))
    EXPECT_TRUE(valid(tool, e.path().filename() == "metadata.xml" ? "test-metadata.dtd" : "testcase.dtd", e.path()));
}

TEST_F(TestComp, ResultsOfAJobWriteTheSameSuite) {
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  std::string failure;
  const std::string job = cluster.runJob(kProgram, {"--search", "dfs"}, dir / "job", failure, 60);
  ASSERT_FALSE(job.empty()) << failure;
  CommandResult reported = cluster.cairn("results", {"--output-dir", (dir / "out").string(), "--test-comp",
                                                     (dir / "suite").string(), "--program", kProgram, job});
  ASSERT_EQ(reported.status, 0) << reported.output;
  checkSuite(dir / "out", dir / "suite");
  // Without --program the coordinator makes the suite from the source cairn submit attached: the
  // same test cases, the metadata naming the attached file by its name, with the file's hash.
  CommandResult fromJob = cluster.cairn("results", {"--output-dir", (dir / "out2").string(), "--test-comp",
                                                    (dir / "suite2").string(), job});
  ASSERT_EQ(fromJob.status, 0) << fromJob.output;
  checkSuite(dir / "out2", dir / "suite2", "nondet.c");
  auto without = [](std::string xml, const std::string &element) {
    const size_t at = xml.find("<" + element + ">"), end = xml.find("</" + element + ">");
    return at == std::string::npos || end == std::string::npos ? xml : xml.erase(at, end - at);
  };
  size_t files = 0;
  for (const fs::directory_entry &e : fs::directory_iterator(dir / "suite")) {
    const std::string name = e.path().filename().string();
    ASSERT_TRUE(fs::exists(dir / "suite2" / name)) << name;
    std::string mine = readText(e.path()), theirs = readText(dir / "suite2" / name);
    if (name == "metadata.xml") {
      mine = without(without(mine, "programfile"), "creationtime");
      theirs = without(without(theirs, "programfile"), "creationtime");
    }
    EXPECT_EQ(theirs, mine) << name;
    ++files;
  }
  EXPECT_EQ(size_t(std::distance(fs::directory_iterator(dir / "suite2"), fs::directory_iterator())), files);
  // And as the dashboard's download: the same files in a zip, under test-suite/.
  HttpReply zip = httpFetch(cluster.dashboard(), "/api/jobs/" + job + "/test-suite.zip");
  ASSERT_EQ(zip.status, 200) << zip.body;
  EXPECT_NE(zip.head.find("application/zip"), std::string::npos) << zip.head;
  std::ofstream(dir / "suite.zip", std::ios::binary) << zip.body;
  const std::string list = "import sys, zipfile\n"
                           "z = zipfile.ZipFile(sys.argv[1])\n"
                           "assert z.testzip() is None\n"
                           "for n in z.namelist(): print(n, len(z.read(n)))\n";
  CommandResult listed = runCommand({"/usr/bin/python3", "-c", list, (dir / "suite.zip").string()});
  ASSERT_EQ(listed.status, 0) << listed.output;
  for (const fs::directory_entry &e : fs::directory_iterator(dir / "suite2")) {
    const std::string line = "test-suite/" + e.path().filename().string() + " " + std::to_string(fs::file_size(e.path()));
    EXPECT_NE(listed.output.find(line + "\n"), std::string::npos) << line << " not in " << listed.output;
  }
}

} // namespace
