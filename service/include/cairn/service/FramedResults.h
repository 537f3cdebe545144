// Test results framed one after another, each a serialized TestResult preceded by its length (a
// varint): how a worker sends a batch and how the coordinator stores it. The coordinator reads of
// each result only what it keeps results by, and stores the bytes as they came.
#pragma once

#include "cairn/v1/common.pb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cairn::service {

void appendFramed(std::string &framed, const v1::TestResult &result);

class FramedReader {
public:
  explicit FramedReader(std::string_view framed) : rest_(framed) {}
  // The next result: `whole` with its length prefix, `body` without. False at the end, and when
  // the framing is broken (then failed() says so).
  bool next(std::string_view &whole, std::string_view &body);
  bool failed() const { return failed_; }

private:
  std::string_view rest_;
  bool failed_ = false;
};

// What the coordinator keeps a result by: its path id, its error's location, whether it is partial.
struct ResultKey {
  std::string_view pathId;
  std::optional<v1::ErrorReport> error;
  bool partial = false;
};

ResultKey keyOf(const v1::TestResult &result);
// Reads the key of a serialized TestResult, skipping its other fields; nullopt when it does not
// parse.
std::optional<ResultKey> readKey(std::string_view body);

} // namespace cairn::service
