#include "CommandLine.h"

#include "cairn/engine/EngineFlags.h"

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
        // --sym-args MIN MAX LEN: several words, handed on as one value.
        const size_t words = engine::EngineFlags::valueCount(a);
        if (i + words >= args.size())
          throw UsageError(a + (words == 1 ? " needs a value" : " needs " + std::to_string(words) + " values"));
        value = args[++i];
        for (size_t w = 1; w < words; ++w)
          value += " " + args[++i];
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

void addEngineFlags(engine::EngineFlags &engine, ValuedOptions &valued, FlagOptions &flags) {
  for (const std::string &name : engine::EngineFlags::names(engine::EngineFlagKind::Valued))
    valued[name] = [&engine, name](const std::string &v) {
      if (std::string error = engine.setValue(name, v); !error.empty())
        throw UsageError(error);
    };
  for (const std::string &name : engine::EngineFlags::names(engine::EngineFlagKind::Switch))
    flags[name] = [&engine, name] {
      if (std::string error = engine.setSwitch(name); !error.empty())
        throw UsageError(error);
    };
}

void forwardEngineFlags(const std::function<void(const std::string &)> &forward, ValuedOptions &valued,
                        FlagOptions &flags) {
  for (const std::string &name : engine::EngineFlags::names(engine::EngineFlagKind::Valued))
    valued[name] = [forward, name](const std::string &v) { forward(name + "=" + v); };
  for (const std::string &name : engine::EngineFlags::names(engine::EngineFlagKind::Switch))
    flags[name] = [forward, name] { forward(name); };
}

uint64_t parseCount(const std::string &flag, const std::string &value) {
  std::string error;
  if (std::optional<uint64_t> n = engine::parseCountFlag(flag, value, error))
    return *n;
  throw UsageError(error);
}

double parseSeconds(const std::string &flag, const std::string &value) {
  std::string error;
  if (std::optional<double> s = engine::parseSecondsFlag(flag, value, error))
    return *s;
  throw UsageError(error);
}

} // namespace cairn::client
