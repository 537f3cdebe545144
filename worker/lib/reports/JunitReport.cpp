#include "cairn/engine/FindingsReports.h"

#include "reports/StackFrames.h"
#include "reports/XmlText.h"

#include <cstdio>

namespace cairn::engine {

namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

} // namespace

std::string junitReport(const ReportContext &context, const RunStatistics &stats, const RecordedErrors &errors) {
  const std::string program = xmlText(context.program);
  const bool partial = stats.pathsPartial > 0;
  const size_t cases = errors.size() + 1 + (partial ? 1 : 0);
  const std::string counts = "tests=\"" + std::to_string(cases) + "\" failures=\"" + std::to_string(errors.size()) +
                             "\" errors=\"0\" skipped=\"" + (partial ? "1" : "0") + "\" time=\"" +
                             seconds(stats.wallSeconds) + "\"";
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cairn\" " + counts + ">\n";
  x += "  <testsuite name=\"" + program + "\" " + counts + ">\n    <properties>\n";
  for (const auto &[name, value] : {std::pair<const char *, uint64_t>{"paths_completed", stats.pathsCompleted},
                                    {"paths_partial", stats.pathsPartial},
                                    {"tests", stats.tests},
                                    {"lines_covered", stats.linesCovered},
                                    {"lines_total", stats.linesTotal}})
    x += "      <property name=\"" + std::string(name) + "\" value=\"" + std::to_string(value) + "\"/>\n";
  x += "      <property name=\"output_dir\" value=\"" + xmlText(context.outputDir) + "\"/>\n    </properties>\n";
  for (const auto &[e, test] : errors) {
    const std::string id = e.type + "/" + e.kind;
    const std::string where = e.file.empty() ? "an unknown location" : e.file + ":" + std::to_string(e.line);
    x += "    <testcase classname=\"" + program + "\" name=\"" + xmlText(id + " at " + where) + "\"";
    if (!e.file.empty())
      x += " file=\"" + xmlText(e.file) + "\" line=\"" + std::to_string(e.line) + "\"";
    std::string detail = e.message + "\n";
    for (const StackFrame &f : parseStack(e.stack))
      detail += "  at " + f.function + (f.file.empty() ? "" : " (" + f.file + ":" + std::to_string(f.line) + ")") + "\n";
    if (!test.empty())
      detail += "test: " + context.outputDir + "/" + test + " (cairn replay " + context.program + " " +
                context.outputDir + "/" + test + ")\n";
    x += ">\n      <failure type=\"" + xmlText(id) + "\" message=\"" + xmlText(e.message) + "\">" + xmlText(detail) +
         "</failure>\n    </testcase>\n";
  }
  x += "    <testcase classname=\"" + program + "\" name=\"" + std::to_string(stats.pathsCompleted) +
       " paths explored to their end\" time=\"" + seconds(stats.wallSeconds) + "\"/>\n";
  if (partial)
    x += "    <testcase classname=\"" + program + "\" name=\"" + std::to_string(stats.pathsPartial) +
         " paths cut short\">\n      <skipped message=\"a limit or the solver ended them before the program did\"/>\n"
         "    </testcase>\n";
  return x + "  </testsuite>\n</testsuites>\n";
}

} // namespace cairn::engine
