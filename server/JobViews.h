// Pieces of the dashboard's job page made from a job's plain data, apart from the Scheduler so
// that they are tested alone: the `cairn replay` command that reproduces a test, a test's .ktest,
// and the program's coverage per source file.
#pragma once

#include "cairn/ktest/KTest.h"
#include "cairn/v1/dashboard.pb.h"
#include "cairn/v1/jobs.pb.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cairn::server {

// The name `cairn results` gives the job's `index`th kept result (from 0): testNNNNNN.
std::string testName(size_t index);

// The program `cairn replay` takes for the job: the attached main source (the first one, as
// `cairn submit` sends it), else the job's name when it is the .c the bitcode was compiled
// from, else the uploaded file's name.
std::string replayProgram(const v1::SubmitJobRequest &request);

// `cairn replay [--entry NAME] [the checks the job ran with] PROGRAM TEST.ktest`, each word
// quoted for a POSIX shell where it needs to be.
std::string replayCommand(const v1::SubmitJobRequest &request, const std::string &testName);

// A result of the job as the test `cairn results` writes for it: its objects, and the program's
// name and arguments as the run's argv.
KTest ktestOf(const v1::SubmitJobRequest &request, const v1::TestResult &result);

// One entry per file of `lines` that holds coverable lines, in file order: its coverable and
// covered lines, and the attached source that matches it (without its text).
std::vector<v1::FileCoverage> fileCoverage(const v1::ProgramLines &lines, const std::set<uint64_t> &covered,
                                           const google::protobuf::RepeatedPtrField<v1::SourceFile> &sources);

} // namespace cairn::server
