#include "cairn/engine/FindingsReports.h"

#include "reports/JsonText.h"
#include "reports/StackFrames.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string_view>

namespace fs = std::filesystem;

namespace cairn::engine {

namespace {

// A file name as a URI reference: absolute paths as file:// URIs, relative ones as they are,
// either with the characters a URI may not hold percent-encoded.
std::string fileUri(const std::string &path) {
  std::string out = path.rfind('/', 0) == 0 ? "file://" : "";
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view("-._~/!$&'()*+,;=:@").find(char(c)) != std::string_view::npos) {
      out.push_back(char(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string physicalLocation(const std::string &file, uint32_t line) {
  std::string j = "{\"artifactLocation\": {\"uri\": " + jsonString(fileUri(file)) + "}";
  if (line)
    j += ", \"region\": {\"startLine\": " + std::to_string(line) + "}";
  return j + "}";
}

// What each kind of error is, for the rules' descriptions.
std::string describeKind(const std::string &type, const std::string &kind) {
  static const std::map<std::string, std::string> types = {
      {"ptr", "invalid memory access"},   {"free", "invalid free"},
      {"div", "division by zero"},        {"assert", "assertion failure"},
      {"abort", "abort"},                 {"overflow", "arithmetic overflow"},
      {"exec", "execution error"},        {"model", "beyond what the engine can run"},
      {"user", "misuse of the klee_* API"}, {"leak", "memory leak"},
      {"external", "call to a function nothing defines"},
  };
  auto it = types.find(type);
  return (it == types.end() ? type : it->second) + ": " + kind;
}

} // namespace

std::string sarifReport(const ReportContext &context, const RecordedErrors &errors) {
  std::map<std::string, size_t> ruleIndex; // by id, in the order first met
  std::vector<std::pair<std::string, std::string>> rules;
  for (const auto &[e, test] : errors) {
    const std::string id = e.type + "/" + e.kind;
    if (ruleIndex.emplace(id, rules.size()).second)
      rules.emplace_back(id, describeKind(e.type, e.kind));
  }
  std::string j = "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", "
                  "\"runs\": [{\"tool\": {\"driver\": {\"name\": \"Cairn\", \"version\": " +
                  jsonString(context.toolVersion) + ", \"rules\": [";
  for (size_t i = 0; i < rules.size(); ++i)
    j += (i ? ", " : "") + std::string("{\"id\": ") + jsonString(rules[i].first) +
         ", \"shortDescription\": {\"text\": " + jsonString(rules[i].second) + "}}";
  // A base without a base of its own must be an absolute URI, or have none (SARIF 2.1.0
  // §3.14.14): a relative directory (a dashboard download's, whose tests are wherever the
  // reader keeps them) is named in words only.
  const std::string dir = context.outputDir + (context.outputDir.ends_with('/') ? "" : "/");
  j += "]}}, \"originalUriBaseIds\": {\"OUTPUT_DIR\": " +
       (dir.starts_with('/') ? "{\"uri\": " + jsonString(fileUri(dir)) + "}"
                             : "{\"description\": {\"text\": " + jsonString("the directory of the tests: " + dir) + "}}") +
       "}";
  j += ", \"results\": [";
  for (size_t i = 0; i < errors.size(); ++i) {
    const auto &[e, test] = errors[i];
    const std::string id = e.type + "/" + e.kind;
    j += (i ? ", " : "") + std::string("{\"ruleId\": ") + jsonString(id) +
         ", \"ruleIndex\": " + std::to_string(ruleIndex.at(id)) +
         ", \"level\": " + (e.type == "model" ? "\"warning\"" : "\"error\"") +
         ", \"message\": {\"text\": " + jsonString(e.message.empty() ? id : e.message) + "}";
    if (!e.file.empty())
      j += ", \"locations\": [{\"physicalLocation\": " + physicalLocation(e.file, e.line) + "}]";
    std::vector<StackFrame> frames = parseStack(e.stack);
    if (!frames.empty()) {
      j += ", \"codeFlows\": [{\"threadFlows\": [{\"locations\": [";
      for (size_t f = frames.size(), n = 0; f-- > 0; ++n) { // outermost first: the order they ran in
        j += (n ? ", " : "") + std::string("{\"nestingLevel\": ") + std::to_string(n) + ", \"location\": {";
        if (!frames[f].file.empty())
          j += "\"physicalLocation\": " + physicalLocation(frames[f].file, frames[f].line) + ", ";
        j += "\"message\": {\"text\": " + jsonString(frames[f].function) + "}}}";
      }
      j += "]}]}]";
    }
    if (!test.empty())
      j += ", \"attachments\": [{\"description\": {\"text\": " +
           jsonString("the test that reproduces it: cairn replay " + context.program + " " +
                      (fs::path(context.outputDir) / test).string()) +
           "}, \"artifactLocation\": {\"uri\": " + jsonString(fileUri(test)) +
           ", \"uriBaseId\": \"OUTPUT_DIR\"}}], \"properties\": {\"test\": " + jsonString(test) + "}";
    j += "}";
  }
  return j + "]}]}";
}

} // namespace cairn::engine
