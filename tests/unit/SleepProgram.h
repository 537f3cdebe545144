// The paper's `sleep` over ten arguments of up to three digits (tests/bench/merging/sleep-sum.c
// at N=10), for the estimate's and the merging's tests of the digit index. `fill` is line 3,
// which gives `char arg[10][4]` its contents; the digit loop's header is on line 8.
#pragma once

#include <string>

namespace cairn::engine::unit {

inline std::string sleepOverTenArguments(const std::string &fill) {
  return "int main(int argc, char **argv) {\n"
         "  char arg[10][4];\n"
         "  " + fill + "\n"
         "  long seconds = 0;\n"
         "  for (int a = 0; a < 10; ++a) {\n"
         "    arg[a][3] = 0;\n"
         "    long value = 0;\n"
         "    for (int i = 0; arg[a][i] >= '0' && arg[a][i] <= '9'; ++i)\n"
         "      value = value * 10 + (arg[a][i] - '0');\n"
         "    seconds += value;\n"
         "  }\n"
         "  return (int)(seconds & 0x7f);\n"
         "}\n";
}

} // namespace cairn::engine::unit
