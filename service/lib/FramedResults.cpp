#include "cairn/service/FramedResults.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

namespace cairn::service {

using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
using google::protobuf::internal::WireFormatLite;

void appendFramed(std::string &framed, const v1::TestResult &result) {
  const size_t size = result.ByteSizeLong();
  const size_t at = framed.size();
  framed.resize(at + CodedOutputStream::VarintSize32(uint32_t(size)) + size);
  uint8_t *out = reinterpret_cast<uint8_t *>(framed.data() + at);
  out = CodedOutputStream::WriteVarint32ToArray(uint32_t(size), out);
  result.SerializeWithCachedSizesToArray(out);
}

bool FramedReader::next(std::string_view &whole, std::string_view &body) {
  if (rest_.empty() || failed_)
    return false;
  CodedInputStream in(reinterpret_cast<const uint8_t *>(rest_.data()), int(rest_.size()));
  uint32_t size = 0;
  if (!in.ReadVarint32(&size) || size > rest_.size() - size_t(in.CurrentPosition())) {
    failed_ = true;
    return false;
  }
  const size_t prefix = size_t(in.CurrentPosition());
  whole = rest_.substr(0, prefix + size);
  body = rest_.substr(prefix, size);
  rest_.remove_prefix(prefix + size);
  return true;
}

ResultKey keyOf(const v1::TestResult &result) {
  ResultKey key;
  key.pathId = result.path_id();
  if (result.has_error())
    key.error = result.error();
  key.partial = result.partial();
  return key;
}

std::optional<ResultKey> readKey(std::string_view body) {
  const auto *data = reinterpret_cast<const uint8_t *>(body.data());
  CodedInputStream in(data, int(body.size()));
  ResultKey key;
  // A length-delimited field's bytes, in place.
  auto delimited = [&](std::string_view &out) {
    uint32_t size = 0;
    if (!in.ReadVarint32(&size) || size > body.size() - size_t(in.CurrentPosition()))
      return false;
    out = body.substr(size_t(in.CurrentPosition()), size);
    return in.Skip(int(size));
  };
  while (!in.ExpectAtEnd()) {
    const uint32_t tag = in.ReadTag();
    std::string_view bytes;
    switch (tag) {
    case WireFormatLite::MakeTag(v1::TestResult::kPathIdFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED):
      if (!delimited(key.pathId))
        return std::nullopt;
      break;
    case WireFormatLite::MakeTag(v1::TestResult::kErrorFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED):
      if (!delimited(bytes))
        return std::nullopt;
      if (!key.error)
        key.error.emplace();
      { // a message field given twice merges, as a full parse would
        CodedInputStream error(reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
        if (!key.error->MergePartialFromCodedStream(&error) || !error.ConsumedEntireMessage())
          return std::nullopt;
      }
      break;
    case WireFormatLite::MakeTag(v1::TestResult::kPartialFieldNumber, WireFormatLite::WIRETYPE_VARINT): {
      uint64_t v = 0;
      if (!in.ReadVarint64(&v))
        return std::nullopt;
      key.partial = v != 0;
      break;
    }
    default:
      if (tag == 0 || !WireFormatLite::SkipField(&in, tag))
        return std::nullopt;
    }
  }
  return key;
}

} // namespace cairn::service
