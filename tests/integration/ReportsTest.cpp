// The reports CI systems read, checked against their formats and against what the run found:
// SARIF 2.1.0 against the schema (fetched by deploy/fetch-sarif-schema.sh) with Debian's
// python3-jsonschema, JUnit XML against junit.xsd with xmllint; one SARIF result and one failed
// test case per error, at its line, naming its test.
#include "Process.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace fs = std::filesystem;
using cairn::testing::CommandResult;
using cairn::testing::readText;
using cairn::testing::runCommand;

namespace {

const std::string kPython = "/usr/bin/python3"; // Debian's, with python3-jsonschema beside it

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

class Reports : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() / ("cairn-reports-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // Runs the corpus program with six kinds of error, writing both reports.
  void run() {
    CommandResult r = runCommand({CAIRN_BIN, "run", "--quiet", "--search", "dfs", "--output-dir",
                                  (dir / "out").string(), "--sarif", (dir / "run.sarif").string(), "--junit",
                                  (dir / "run.xml").string(), std::string(CAIRN_E2E_DIR) + "/err_many_kinds.c"});
    ASSERT_EQ(r.status, 0) << r.output;
  }
};

TEST_F(Reports, SarifHasOneResultPerErrorAndFollowsTheSchema) {
  run();
  // Each error of summary.json is one result: its rule, line and test, the test's file there.
  const std::string check = R"(
import json, os, sys
out, sarif = sys.argv[1], json.load(open(sys.argv[2]))
errors = json.load(open(os.path.join(out, "summary.json")))["errors"]
run = sarif["runs"][0]
results = run["results"]
assert len(results) == len(errors) == 6, (len(results), len(errors))
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
# A base of its own: the output directory's absolute file URI (SARIF 2.1.0 3.14.14).
base = run["originalUriBaseIds"]["OUTPUT_DIR"]["uri"]
assert base == "file://" + os.path.abspath(out) + "/", base
for e, r in zip(errors, results):
    assert r["ruleId"] == e["type"] + "/" + e["kind"] and rules[r["ruleIndex"]] == r["ruleId"], r
    region = r["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == e["line"], (region, e)
    assert r["properties"]["test"] == e["test"] and os.path.exists(os.path.join(out, e["test"])), r
    flow = r["codeFlows"][0]["threadFlows"][0]["locations"]
    assert flow[0]["location"]["message"]["text"] == "main", flow
print("consistent")
)";
  CommandResult consistent = runCommand({kPython, "-c", check, (dir / "out").string(), (dir / "run.sarif").string()});
  EXPECT_EQ(consistent.status, 0) << consistent.output;
  EXPECT_NE(consistent.output.find("consistent"), std::string::npos) << consistent.output;

  const fs::path schema = CAIRN_SARIF_SCHEMA;
  if (!fs::exists(schema))
    GTEST_SKIP() << "no SARIF schema at " << schema << " (deploy/fetch-sarif-schema.sh fetches it)";
  const std::string validate = R"(
import json, sys
try:
    import jsonschema
except ImportError:
    print("no jsonschema"); sys.exit(77)
jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
print("valid")
)";
  CommandResult valid = runCommand({kPython, "-c", validate, schema.string(), (dir / "run.sarif").string()});
  if (valid.status == 77)
    GTEST_SKIP() << "python3-jsonschema is not installed";
  EXPECT_EQ(valid.status, 0) << valid.output;
  // And the validator is one that can fail: a level SARIF does not have.
  std::string broken = readText(dir / "run.sarif");
  broken.replace(broken.find("\"level\": \"error\""), 16, "\"level\": \"fatal\"");
  std::ofstream(dir / "broken.sarif") << broken;
  EXPECT_NE(runCommand({kPython, "-c", validate, schema.string(), (dir / "broken.sarif").string()}).status, 0);
}

TEST_F(Reports, JunitHasAFailedCasePerErrorAndFollowsTheSchema) {
  run();
  const std::string xml = readText(dir / "run.xml");
  EXPECT_EQ(count(xml, "<testcase "), 7u) << xml; // six errors and the completed paths
  EXPECT_EQ(count(xml, "<failure "), 6u) << xml;
  EXPECT_NE(xml.find("failures=\"6\""), std::string::npos) << xml;
  for (const char *at : {"err_many_kinds.c:24", "err_many_kinds.c:26", "err_many_kinds.c:37"})
    EXPECT_NE(xml.find(at), std::string::npos) << at;
  EXPECT_NE(xml.find("name=\"7 paths explored to their end\""), std::string::npos) << xml;

  CommandResult found = runCommand({"/bin/sh", "-c", "command -v xmllint"});
  if (found.status != 0)
    GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
  const std::string xmllint = found.output.substr(0, found.output.find('\n'));
  const std::string xsd = std::string(CAIRN_INTEGRATION_DIR) + "/junit.xsd";
  CommandResult valid = runCommand({xmllint, "--noout", "--schema", xsd, (dir / "run.xml").string()});
  EXPECT_EQ(valid.status, 0) << valid.output;
  std::string broken = xml;
  broken.replace(broken.find("<failure "), 9, "<failed ");
  broken.replace(broken.find("</failure>"), 10, "</failed>");
  std::ofstream(dir / "broken.xml") << broken;
  EXPECT_NE(runCommand({xmllint, "--noout", "--schema", xsd, (dir / "broken.xml").string()}).status, 0);
}

// Branch coverage in the lcov report: a BRDA record per edge of each `if`, `&&` operand, `?:`
// and switch (its cases that share a block are one edge), taken or not, and "-" for a decision
// no path reached; genhtml reads it as branch coverage.
TEST_F(Reports, LcovHasBranchRecordsThatGenhtmlRenders) {
  const fs::path program = dir / "branches.c";
  std::ofstream(program) << R"c(#include "cairn.h"
int classify(int x) {
  switch (x) {
  case 1:
  case 2:
    return 10;
  case 7:
    return 70;
  default:
    return 0;
  }
}
int never(int x) {
  if (x > 0)
    return 1;
  return 2;
}
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 5 && x < 3)
    return never(x);
  return x > 100 ? classify(x) : classify(x + 1);
}
)c";
  CommandResult r = runCommand({CAIRN_BIN, "run", "--quiet", "--search", "dfs", "--output-dir", (dir / "out").string(),
                                "--lcov", (dir / "run.info").string(), program.string()});
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string lcov = readText(dir / "run.info");
  // Line 21's second decision (x < 3 once x > 5) can only be false; never() is never called.
  EXPECT_NE(lcov.find("SF:" + program.string() + "\n"
                      "BRDA:3,0,0,1\nBRDA:3,0,1,1\nBRDA:3,0,2,1\n"
                      "BRDA:14,0,0,-\nBRDA:14,0,1,-\n"
                      "BRDA:21,0,0,1\nBRDA:21,0,1,1\nBRDA:21,1,0,0\nBRDA:21,1,1,1\n"
                      "BRDA:23,0,0,1\nBRDA:23,0,1,1\n"
                      "BRF:11\nBRH:8\nDA:3,1\n"),
            std::string::npos)
      << lcov;
  EXPECT_NE(lcov.find("DA:22,0\nDA:23,1\nDA:24,1\nLF:14\nLH:9\nend_of_record\n"), std::string::npos) << lcov;

  CommandResult found = runCommand({"/bin/sh", "-c", "command -v genhtml"});
  if (found.status != 0)
    GTEST_SKIP() << "genhtml (lcov) is not installed";
  const std::string genhtml = found.output.substr(0, found.output.find('\n'));
  CommandResult html = runCommand({"/bin/sh", "-c",
                                   genhtml + " --branch-coverage -o '" + (dir / "html").string() + "' '" +
                                       (dir / "run.info").string() + "' 2>&1"});
  EXPECT_EQ(html.status, 0) << html.output;
  EXPECT_NE(html.output.find("branches...: 72.7% (8 of 11 branches)"), std::string::npos) << html.output;
  EXPECT_NE(readText(dir / "html" / "index.html").find("Branches"), std::string::npos);
  // And what genhtml counts comes from the records: one whose count is no number drops out.
  std::string broken = lcov;
  broken.replace(broken.find("BRDA:21,1,0,0"), 13, "BRDA:21,1,0,x");
  std::ofstream(dir / "broken.info") << broken;
  CommandResult counted = runCommand({"/bin/sh", "-c",
                                      genhtml + " --branch-coverage -o '" + (dir / "broken-html").string() + "' '" +
                                          (dir / "broken.info").string() + "' 2>&1"});
  EXPECT_NE(counted.output.find("(8 of 10 branches)"), std::string::npos) << counted.output;
}

} // namespace
