// `cairn submit|status|wait|results|cancel`: the command line client of the jobs API.
#pragma once

#include <string>
#include <vector>

namespace cairn::client {

bool isJobsCommand(const std::string &command);
// Runs one of them; returns the exit status. Throws std::invalid_argument for a usage error.
int jobsCommand(const std::string &command, std::vector<std::string> args);

extern const char *kJobsUsage;

} // namespace cairn::client
