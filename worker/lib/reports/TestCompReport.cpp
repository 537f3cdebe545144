#include "cairn/engine/TestCompReport.h"

#include "reports/Sha256.h"
#include "reports/StackFrames.h"
#include "reports/XmlText.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cairn::engine {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNondetPrefix = "__VERIFIER_nondet_";

// The full libc's POSIX model marks its version as an object of every test (always 1, as KLEE's
// model does): no input of the program.
constexpr std::string_view kModelVersion = "model_version";

enum class Representation { Signed, Unsigned, Boolean, Float };

struct NondetType {
  std::string_view suffix; // of __VERIFIER_nondet_
  std::string_view cType;
  Representation representation;
};

// The runtime's __VERIFIER_nondet_* functions (runtime/lib/svcomp.c) and the C type each
// returns; plain char is signed, as on the x86-64 targets the engine runs. A value's width
// is its object's size, so `long` is right for a 32-bit program too.
constexpr NondetType kNondetTypes[] = {
    {"int", "int", Representation::Signed},
    {"uint", "unsigned int", Representation::Unsigned},
    {"char", "char", Representation::Signed},
    {"uchar", "unsigned char", Representation::Unsigned},
    {"short", "short", Representation::Signed},
    {"ushort", "unsigned short", Representation::Unsigned},
    {"long", "long", Representation::Signed},
    {"ulong", "unsigned long", Representation::Unsigned},
    {"pointer", "void *", Representation::Unsigned},
    {"size_t", "size_t", Representation::Unsigned},
    {"float", "float", Representation::Float},
    {"double", "double", Representation::Float},
    {"bool", "_Bool", Representation::Boolean},
    {"_Bool", "_Bool", Representation::Boolean},
};

// Two's complement: the object's bytes are the value little-endian, at most 8 of them.
std::string integerLiteral(const std::vector<uint8_t> &bytes, bool isSigned) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    v |= uint64_t(bytes[i]) << (8 * i);
  if (!isSigned)
    return std::to_string(v);
  const unsigned bits = unsigned(bytes.size() * 8);
  if (bits < 64 && (v >> (bits - 1)) & 1)
    v |= ~uint64_t(0) << bits; // sign-extended
  return std::to_string(int64_t(v));
}

// The shortest decimal digits that read back as the same value (9 for float, 17 for double);
// infinities and NaN as printf spells them, which scanf and strtod read back.
std::string floatLiteral(const std::vector<uint8_t> &bytes) {
  char buf[64];
  if (bytes.size() == sizeof(float)) {
    float f;
    std::memcpy(&f, bytes.data(), sizeof f);
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
  } else {
    double d;
    std::memcpy(&d, bytes.data(), sizeof d);
    std::snprintf(buf, sizeof buf, "%.17g", d);
  }
  return buf;
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string element(const char *name, const std::string &text) {
  return std::string("  <") + name + ">" + xmlText(text) + "</" + name + ">\n";
}

constexpr const char *kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";

std::string metadataXml(const TestCompMetadata &m) {
  std::string x = kXmlDeclaration;
  x += "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" "
       "\"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n<test-metadata>\n";
  x += element("sourcecodelang", "C");
  x += element("producer", m.producer);
  x += element("specification", m.specification);
  x += element("programfile", m.programFile);
  x += element("programhash", m.programHash);
  x += element("entryfunction", m.entryFunction);
  x += element("architecture", std::to_string(m.pointerBits) + "bit");
  x += element("creationtime", m.creationTime);
  return x + "</test-metadata>\n";
}

std::string testCaseXml(const std::vector<TestCompInput> &inputs, bool coversError) {
  std::string x = kXmlDeclaration;
  x += "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" "
       "\"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n";
  x += coversError ? "<testcase coversError=\"true\">\n" : "<testcase>\n";
  for (const TestCompInput &in : inputs)
    x += "  <input type=\"" + xmlText(in.type) + "\">" + xmlText(in.value) + "</input>\n";
  return x + "</testcase>\n";
}

} // namespace

TestCompMetadata testCompMetadata(const std::string &programFile, const std::string &entryFunction,
                                  unsigned pointerBits, const std::string &specification,
                                  const std::string &toolVersion) {
  std::ifstream in(programFile, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + programFile + " to hash it");
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  return testCompMetadata(programFile, bytes, entryFunction, pointerBits, specification, toolVersion);
}

TestCompMetadata testCompMetadata(const std::string &programFile, std::string_view bytes,
                                  const std::string &entryFunction, unsigned pointerBits,
                                  const std::string &specification, const std::string &toolVersion) {
  TestCompMetadata m;
  m.programFile = programFile;
  m.programHash = sha256Hex(bytes);
  m.entryFunction = entryFunction;
  m.pointerBits = pointerBits;
  m.specification = specification;
  m.producer = "Cairn " + toolVersion;
  m.creationTime = utcNow();
  return m;
}

std::optional<TestCompInput> testCompInput(const KTestObject &object) {
  const std::string_view name = object.name;
  if (name.substr(0, kNondetPrefix.size()) != kNondetPrefix)
    return std::nullopt;
  const std::string_view suffix = name.substr(kNondetPrefix.size());
  const size_t size = object.bytes.size();
  for (const NondetType &t : kNondetTypes) {
    if (t.suffix != suffix)
      continue;
    switch (t.representation) {
    case Representation::Float:
      if (size != sizeof(float) && size != sizeof(double))
        return std::nullopt;
      return TestCompInput{std::string(t.cType), floatLiteral(object.bytes)};
    case Representation::Boolean: // one byte the runtime holds to 0 or 1
      if (size != 1)
        return std::nullopt;
      return TestCompInput{std::string(t.cType), object.bytes[0] ? "1" : "0"};
    default:
      if (size == 0 || size > 8)
        return std::nullopt;
      return TestCompInput{std::string(t.cType),
                           integerLiteral(object.bytes, t.representation == Representation::Signed)};
    }
  }
  return std::nullopt; // a name the runtime does not make: someone's klee_make_symbolic
}

bool callsVerifierNondet(const Program &program) {
  for (const Function &fn : program.functions) {
    if (fn.isRuntime)
      continue;
    for (const CallSite &site : fn.callSites)
      if (std::string_view(site.calleeName).substr(0, kNondetPrefix.size()) == kNondetPrefix)
        return true;
  }
  return false;
}

TestCompSuite testCompSuite(const TestCompMetadata &metadata, const std::string &outputDir,
                            const RecordedErrors &errors) {
  std::vector<fs::path> files;
  for (const fs::directory_entry &e : fs::directory_iterator(outputDir))
    if (e.path().extension() == ".ktest")
      files.push_back(e.path());
  std::sort(files.begin(), files.end()); // testNNNNNN: the order they were found in
  std::vector<std::pair<std::string, KTest>> tests;
  for (const fs::path &path : files)
    tests.emplace_back(path.filename().string(), readKTestFile(path.string()));
  return testCompSuite(metadata, tests, errors);
}

TestCompSuite testCompSuite(const TestCompMetadata &metadata, const std::vector<std::pair<std::string, KTest>> &tests,
                            const RecordedErrors &errors) {
  TestCompSuite suite;
  suite.files.emplace_back("metadata.xml", metadataXml(metadata));
  // The tests that reached reach_error(): the error the specification may ask to cover. The
  // runtime's reach_error reports itself by name; a task's own (sv-benchmarks define it with
  // __assert_fail) is a frame of the error's stack.
  const bool wantsError = metadata.specification.find("reach_error") != std::string::npos;
  std::vector<std::string> reachingError;
  for (const auto &[e, test] : errors) {
    const std::vector<StackFrame> frames = parseStack(e.stack);
    if (e.message == "reach_error" ||
        std::any_of(frames.begin(), frames.end(), [](const StackFrame &f) { return f.function == "reach_error"; }))
      reachingError.push_back(test);
  }
  for (const auto &[name, test] : tests) {
    std::vector<TestCompInput> inputs;
    bool foreign = false;
    for (const KTestObject &o : test.objects) {
      if (std::optional<TestCompInput> in = testCompInput(o))
        inputs.push_back(std::move(*in));
      else if (o.name != kModelVersion)
        foreign = true;
    }
    if (foreign) {
      suite.skipped.push_back(name);
      continue;
    }
    suite.testsWithInputs += !inputs.empty();
    const bool covers =
        wantsError && std::find(reachingError.begin(), reachingError.end(), name) != reachingError.end();
    suite.files.emplace_back(fs::path(name).stem().string() + ".xml", testCaseXml(inputs, covers));
  }
  return suite;
}

} // namespace cairn::engine
