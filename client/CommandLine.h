// The command line of the `cairn` subcommands: options from two tables (with a value, or flags),
// `--option=value` or `--option value`, positional arguments, and everything after `--`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cairn::engine {
class EngineFlags;
}

namespace cairn::client {

// A mistake on the command line: reported with the usage text, exit status 2.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

using ValuedOptions = std::map<std::string, std::function<void(const std::string &)>>;
using FlagOptions = std::map<std::string, std::function<void()>>;

struct Arguments {
  std::vector<std::string> positional; // before `--`, in order
  std::vector<std::string> afterDashes;
};

// Runs each option's handler as it is met; unknown options are usage errors.
Arguments parseArguments(const std::vector<std::string> &args, const ValuedOptions &valued,
                         const FlagOptions &flags);

// Every engine flag (cairn/engine/EngineFlags.h) into the tables, setting `engine`; a bad value
// is a usage error.
void addEngineFlags(engine::EngineFlags &engine, ValuedOptions &valued, FlagOptions &flags);
// Every engine flag into the tables, handed on unparsed as `--name` or `--name=value`.
void forwardEngineFlags(const std::function<void(const std::string &)> &forward, ValuedOptions &valued,
                        FlagOptions &flags);

uint64_t parseCount(const std::string &flag, const std::string &value);
double parseSeconds(const std::string &flag, const std::string &value);

} // namespace cairn::client
