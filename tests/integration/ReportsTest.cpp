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
using cairn::testing::runCommand;

namespace {

const std::string kPython = "/usr/bin/python3"; // Debian's, with python3-jsonschema beside it

std::string readText(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

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

} // namespace
