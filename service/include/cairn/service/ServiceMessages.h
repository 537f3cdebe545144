// The engine's types as the service protocols carry them (proto/cairn/v1/common.proto), both
// ways, and the checks every daemon applies to a job's options.
#pragma once

#include "cairn/engine/CoverageReport.h"
#include "cairn/engine/Executor.h"
#include "cairn/v1/common.pb.h"
#include "cairn/v1/dashboard.pb.h"
#include "cairn/v1/jobs.pb.h"

#include <string>

namespace cairn::service {

// Fills `out` from `in`; returns what is wrong with `in` (an unknown extra flag, a bad value),
// or "" when it is usable.
std::string toExecutorOptions(const v1::RunOptions &in, engine::ExecutorOptions &out);
// The memory limit (MB) the options ask for, by max_memory_mb or a --max-memory flag; 0 when they
// ask none, or none at all (--max-memory 0): a worker then runs them under its own.
uint64_t askedMemoryMB(const v1::RunOptions &in);

v1::ErrorReport toMessage(const engine::ErrorReport &e);
engine::ErrorReport fromMessage(const v1::ErrorReport &e);
v1::TestResult toMessage(const engine::TestCase &t);
engine::TestCase fromMessage(const v1::TestResult &t);

v1::Counters countersOf(const engine::RunStatistics &s);
void addCounters(v1::Counters &sum, const v1::Counters &more);
// The counters of a job as the statistics of one run, for its summary.json.
engine::RunStatistics statisticsOf(const v1::Counters &c);
// A job's status as the statistics of one run: its counters, coverage, time and errors (what
// `cairn results` writes as summary.json, and the reports are made from).
engine::RunStatistics statisticsOf(const v1::JobStatus &s);

// The program's line table, which a coordinator keeps per job for its coverage.
v1::ProgramLines toMessage(const engine::CoverageTable &t);
engine::CoverageTable fromMessage(const v1::ProgramLines &l);

// One test per error location, as in one engine: the key of an error's location.
std::string errorLocation(const v1::ErrorReport &e);

v1::PathPrefix toMessage(const engine::PathPrefix &p);
engine::PathPrefix fromMessage(const v1::PathPrefix &p);

} // namespace cairn::service
