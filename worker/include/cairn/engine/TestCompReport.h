// Test-Comp's exchange format for test suites (sosy-lab's test-format, version 1.1): a
// directory with metadata.xml and one test-case file per test, each <input> one value a
// __VERIFIER_nondet_* call returned, in the order of the calls. Made from what the output
// directory recorded, so that `cairn run --test-comp` and `cairn results --test-comp` (a job's
// results) write the same suite.
#pragma once

#include "cairn/engine/FindingsReports.h"
#include "cairn/engine/Program.h"
#include "cairn/ktest/KTest.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cairn::engine {

// Test-Comp's branch-coverage property, the specification a suite covers unless told otherwise.
inline constexpr const char *kTestCompCoverBranches = "COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )";

struct TestCompMetadata {
  std::string programFile;   // as the user named it
  std::string programHash;   // SHA-256 of the file's bytes, lowercase hex
  std::string entryFunction; // where the run started
  unsigned pointerBits = 64; // the architecture: 32bit or 64bit
  std::string specification = kTestCompCoverBranches;
  std::string producer;      // Cairn and its version
  std::string creationTime;  // UTC, ISO 8601
};

// The metadata of a suite for `programFile`, read to hash it now (throws std::runtime_error when
// it cannot be read), created now by Cairn `toolVersion`.
TestCompMetadata testCompMetadata(const std::string &programFile, const std::string &entryFunction,
                                  unsigned pointerBits, const std::string &specification,
                                  const std::string &toolVersion);
// The same for a program whose bytes are at hand (a job's attached source).
TestCompMetadata testCompMetadata(const std::string &programFile, std::string_view bytes,
                                  const std::string &entryFunction, unsigned pointerBits,
                                  const std::string &specification, const std::string &toolVersion);

// One input of a test case: its C type and its value as a decimal C literal of that type.
struct TestCompInput {
  std::string type;
  std::string value;
};

// The input an object of a test is when the runtime's __VERIFIER_nondet_<type> made it (the
// object is named after the function); nothing for any other object (klee_make_symbolic's).
std::optional<TestCompInput> testCompInput(const KTestObject &object);

// Whether the program's own code calls a __VERIFIER_nondet_* function: a program that takes
// its inputs otherwise has no test Test-Comp's format can carry.
bool callsVerifierNondet(const Program &program);

struct TestCompSuite {
  // Each file's name and text: metadata.xml first, then testNNNNNN.xml per test written.
  std::vector<std::pair<std::string, std::string>> files;
  // Tests left out: they hold inputs of other origins (klee_make_symbolic, --sym-* of the POSIX
  // model), which a Test-Comp harness would not feed, so the file would not replay the path.
  std::vector<std::string> skipped;
  // How many tests hold at least one __VERIFIER_nondet_* input.
  size_t testsWithInputs = 0;
};

// The suite of the tests (testNNNNNN.ktest) in `outputDir`, in their order. A test is marked
// coversError when the specification asks to reach reach_error() and its error is that call.
TestCompSuite testCompSuite(const TestCompMetadata &metadata, const std::string &outputDir,
                            const RecordedErrors &errors);
// The suite of `tests`, each named as its file would be (testNNNNNN.ktest), in their order.
TestCompSuite testCompSuite(const TestCompMetadata &metadata, const std::vector<std::pair<std::string, KTest>> &tests,
                            const RecordedErrors &errors);

} // namespace cairn::engine
