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

TEST(RelocationInfo, SegmentMembersKeepTheirAlignment) {
  MemoryObject small, page, wide, plain;
  small.size = 3;
  page.size = 10;
  page.alignment = 4096;
  wide.size = 1;
  wide.alignment = 256;
  plain.size = 5; // the default: malloc's 16
  SegmentShape shape;
  std::vector<uint64_t> offsets = segmentLayout({&small, &page, &wide, &plain}, shape);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 4096, 4352, 4368}));
  EXPECT_EQ(shape.total, 4373u);
  EXPECT_EQ(shape.alignment, 4096u); // the segment's own address must be a multiple of it
}
