#include "CommandLine.h"

namespace cairn::client {

Arguments parseArguments(const std::vector<std::string> &args, const ValuedOptions &valued,
                         const FlagOptions &flags) {
  Arguments out;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    if (a == "--") {
      out.afterDashes.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    const bool inlineValue = a.rfind("--", 0) == 0 && a.find('=') != std::string::npos;
    if (inlineValue) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
    }
    if (auto it = valued.find(a); it != valued.end()) {
      if (!inlineValue) {
        if (i + 1 >= args.size())
          throw UsageError(a + " needs a value");
        value = args[++i];
      }
      it->second(value);
    } else if (auto ft = flags.find(a); ft != flags.end() && !inlineValue) {
      ft->second();
    } else if (a.rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + args[i] + "'");
    } else {
      out.positional.push_back(a);
    }
  }
  return out;
}

uint64_t parseCount(const std::string &flag, const std::string &value) {
  try {
    size_t used = 0;
    unsigned long long n = std::stoull(value, &used);
    if (used == value.size())
      return n;
  } catch (...) {
  }
  throw UsageError(flag + " needs a whole number, got '" + value + "'");
}

double parseSeconds(const std::string &flag, const std::string &value) {
  try {
    size_t used = 0;
    double d = std::stod(value, &used);
    if (used == value.size() && d >= 0)
      return d;
  } catch (...) {
  }
  throw UsageError(flag + " needs a number of seconds, got '" + value + "'");
}

} // namespace cairn::client
