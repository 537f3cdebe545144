#include "cairn/support/Daemon.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace cairn {

std::vector<std::pair<std::string, std::string>> DaemonCommandLine::parse(int argc, char **argv) const {
  std::vector<std::pair<std::string, std::string>> flags;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], value;
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    const bool inlineValue = a.rfind("--", 0) == 0 && a.find('=') != std::string::npos;
    if (inlineValue) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
    }
    if (!inlineValue && std::find(switches.begin(), switches.end(), a) != switches.end()) {
      flags.emplace_back(a, "");
      continue;
    }
    if (std::find(valued.begin(), valued.end(), a) == valued.end())
      fail("unknown option '" + std::string(argv[i]) + "'");
    if (!inlineValue) {
      if (i + 1 == argc)
        fail(a + " needs a value");
      value = argv[++i];
    }
    flags.emplace_back(a, value);
  }
  return flags;
}

void DaemonCommandLine::fail(const std::string &why) const {
  std::fprintf(stderr, "%s: %s\n%s", program.c_str(), why.c_str(), usage);
  std::exit(2);
}

double DaemonCommandLine::number(const std::string &flag, const std::string &value, bool allowZero) const {
  try {
    size_t used = 0;
    double d = std::stod(value, &used);
    if (used == value.size() && (d > 0 || (allowZero && d == 0)))
      return d;
  } catch (...) {
  }
  fail(flag + " needs a " + (allowZero ? "non-negative" : "positive") + " number, got '" + value + "'");
}

bool logToStderr(const std::string &name, const std::string &level) {
  spdlog::set_default_logger(spdlog::stderr_color_mt(name));
  spdlog::level::level_enum l = spdlog::level::from_str(level);
  if (l == spdlog::level::off && level != "off")
    return false;
  spdlog::set_level(l);
  return true;
}

sigset_t blockStopSignals() {
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
  return stopSignals;
}

} // namespace cairn
