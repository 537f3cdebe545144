// The relocatable model's per-object information: absent on objects the model never moved,
// copied on change so objects that share it keep theirs.
#include "memory/Relocation.h"

#include <gtest/gtest.h>

using namespace cairn::engine;

TEST(RelocationInfo, AnObjectWithoutItReadsAsNeverMoved) {
  MemoryObject mo;
  EXPECT_FALSE(isSegment(mo));
  EXPECT_EQ(splitOf(mo), nullptr);
  EXPECT_EQ(allocContextOf(mo), 0u);
}

TEST(RelocationInfo, EditingACopyLeavesTheOriginalAsItWas) {
  MemoryObject segment;
  editRelocation(segment).members.push_back({{}, 0, 8, false, "a"});
  MemoryObject copy = segment; // shares the information
  SegmentMember &member = editRelocation(copy).members.at(0);
  member.freed = true;
  EXPECT_TRUE(membersOf(copy).at(0).freed);
  EXPECT_FALSE(membersOf(segment).at(0).freed);
  EXPECT_TRUE(isSegment(segment));
}
