// The text the reports are made of: JSON strings stay valid whatever bytes a message or a path
// holds, and an error's stack comes apart into function, file and line.
#include "reports/JsonText.h"
#include "reports/StackFrames.h"

#include <gtest/gtest.h>

using namespace cairn::engine;

namespace {

TEST(ReportText, JsonStringsEscapeMarkupAndReplaceBytesThatAreNotUtf8) {
  EXPECT_EQ(jsonString("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
  EXPECT_EQ(jsonString(std::string("x\x01y", 3)), "\"x\\u0001y\"");
  EXPECT_EQ(jsonString("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  EXPECT_EQ(jsonString("bad \xFF end"), "\"bad \\ufffd end\"");          // not a lead byte
  EXPECT_EQ(jsonString("cut \xC3"), "\"cut \\ufffd\"");                  // sequence cut short
  EXPECT_EQ(jsonString("long \xC0\xAF"), "\"long \\ufffd\\ufffd\"");     // overlong encoding
  EXPECT_EQ(jsonString("mid \xE2\x28\xA1"), "\"mid \\ufffd(\\ufffd\"");  // bad continuation
}

TEST(ReportText, StackEntriesComeApartIntoFunctionFileAndLine) {
  std::vector<StackFrame> frames =
      parseStack({"strlen at /src/runtime/lib/libc-string.c:62", "main at dir with spaces/p.c:7",
                  "helper at unknown location", "odd at name:with:colons"});
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].function, "strlen");
  EXPECT_EQ(frames[0].file, "/src/runtime/lib/libc-string.c");
  EXPECT_EQ(frames[0].line, 62u);
  EXPECT_EQ(frames[1].file, "dir with spaces/p.c");
  EXPECT_EQ(frames[1].line, 7u);
  EXPECT_EQ(frames[2].function, "helper");
  EXPECT_EQ(frames[2].file, "");
  EXPECT_EQ(frames[3].function, "odd");
  EXPECT_EQ(frames[3].file, ""); // no line number after the last colon
}

} // namespace
