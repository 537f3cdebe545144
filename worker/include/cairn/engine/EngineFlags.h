// The command-line flags that set ExecutorOptions (`--memory-model relocatable`,
// `--size-mode lazy`, ...), parsed in one place: `cairn run` reads them from its command line, a
// job carries them as text, and the coordinator and the workers parse that text with the same
// names, values, checks and error messages.
#pragma once

#include "cairn/engine/Executor.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cairn::engine {

enum class EngineFlagKind : uint8_t { Unknown, Switch, Valued };

// Sets flags on `options` one at a time, then checks how they combine. Every method returns
// what is wrong ("" when nothing is), in the words `cairn run` prints.
class EngineFlags {
public:
  explicit EngineFlags(ExecutorOptions &options) : options_(options) {}

  // Whether `name` (with its dashes, without a value) is an engine flag, and whether it takes a value.
  static EngineFlagKind kind(std::string_view name);
  static std::vector<std::string> names(EngineFlagKind kind);
  // How many words of the command line a valued flag takes (--sym-args MIN MAX LEN: 3); its
  // value is them joined by spaces.
  static size_t valueCount(std::string_view name);

  std::string setSwitch(const std::string &name);
  std::string setValue(const std::string &name, const std::string &value);
  // One flag as one piece of text: `--name` or `--name=value`.
  std::string setText(const std::string &text);
  // The defaults that depend on other flags, once all are set: under the full libc with
  // symbolic inputs, a test only for paths that cover something new, unless --all-tests.
  void settleDefaults();
  // The combination of everything set so far (e.g. --address-aware-cache needs
  // --memory-model relocatable).
  std::string check() const;
  // Whether the flag `name` was set.
  bool given(const std::string &name) const { return given_.count(name) != 0; }

private:
  ExecutorOptions &options_;
  std::set<std::string> given_; // names of the flags set
};

// --file's checks of a file to map by its contents (its name, a name mapped twice, how many, its
// size): adds it to `env` and returns "", or says what is wrong. `--file NAME=PATH` reads PATH
// and calls it; a job's files arrive as contents (cairn submit reads them on the client).
std::string addMappedFile(MappedFile file, EnvironmentOptions &env);

// The numbers flags take; nullopt with `error` set when `value` is not one.
std::optional<uint64_t> parseCountFlag(const std::string &flag, const std::string &value, std::string &error);
std::optional<double> parseSecondsFlag(const std::string &flag, const std::string &value, std::string &error);

} // namespace cairn::engine
