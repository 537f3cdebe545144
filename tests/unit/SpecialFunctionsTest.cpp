// The engine's table of special functions: every kind the translator can put on a call site
// has a handler of its own.
#include "interpreter/SpecialFunctions.h"

#include <gtest/gtest.h>

using namespace cairn::engine;

TEST(SpecialFunctions, EveryKindHasAHandler) {
  const SpecialHandlers &table = specialHandlers();
  for (size_t k = 0; k < table.size(); ++k)
    EXPECT_NE(table[k], &unsupportedSpecial) << "Special " << k << " has no handler";
}

TEST(SpecialFunctions, TheTableIsBuiltOnce) {
  EXPECT_EQ(&specialHandlers(), &specialHandlers());
}
