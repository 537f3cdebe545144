// The targeted control-flow transformation on small programs: which values the symbolic
// variable analysis marks, which branches are melded and which are left (symbolic indices,
// calls, excluded lines), the shape of the extra code (a division by one), and the guards the
// translator reads back.
#include "cairn/engine/BranchTransform.h"
#include "cairn/engine/EngineFlags.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"
#include "transform/SymbolicValues.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace cairn::engine;
namespace fs = std::filesystem;

namespace {

const char *kDeclarations = "void klee_make_symbolic(void *, unsigned long, const char *);\n"
                            "void klee_assume(unsigned long);\n";

class BranchTransformTest : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() /
                 ("cairn-transform-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  std::unique_ptr<LoadedModule> compile(const std::string &source) {
    std::string path = (dir / "program.c").string();
    std::ofstream(path) << kDeclarations << source;
    LoadOptions o;
    o.linkRuntime = false;
    return loadProgram(path, o);
  }
  static BranchTransformOptions mode(TransformMode m) {
    BranchTransformOptions o;
    o.mode = m;
    return o;
  }
  static size_t conditionalBranches(llvm::Function &f) {
    size_t n = 0;
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *br = llvm::dyn_cast<llvm::BranchInst>(&i); br && br->isConditional())
        ++n;
    return n;
  }
};

const char *kToUpper = "void to_upper(char *text) {\n"
                       "  for (int i = 0; i < 10; i++)\n"
                       "    if ((unsigned char)(text[i] - 'a') < 26)\n"
                       "      text[i] = text[i] - ('a' - 'A');\n"
                       "}\n"
                       "int main(void) { char t[10]; klee_make_symbolic(t, 10, \"t\"); to_upper(t); return t[0]; }\n";

TEST_F(BranchTransformTest, TheSymbolicBranchOfToUpperIsMeldedAndTheLoopStays) {
  auto m = compile(kToUpper);
  llvm::Function &f = *m->module().getFunction("to_upper");
  EXPECT_EQ(conditionalBranches(f), 2u); // the loop's and the character's
  BranchTransformStats s = transformBranches(*m, "main", mode(TransformMode::Symbolic));
  EXPECT_EQ(s.branchesMelded, 1u);
  EXPECT_EQ(s.oneSided, 1u);
  EXPECT_EQ(s.selectsAdded, 1u); // the stored value: the new character or the one read back
  EXPECT_EQ(s.functionsTransformed, 1u);
  EXPECT_EQ(conditionalBranches(f), 1u);
  // The character's store is original only where the branch went its way; the other stores
  // (the parameter's spill: pointers stay in memory) are everywhere.
  size_t melded = 0;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (auto *st = llvm::dyn_cast<llvm::StoreInst>(&i); st && st->getMetadata("cairn.meld.guard")) {
      ++melded;
      EXPECT_TRUE(llvm::isa<llvm::SelectInst>(st->getValueOperand()));
    }
  EXPECT_EQ(melded, 1u);
}

TEST_F(BranchTransformTest, ConcreteBranchesAreLeftUnlessAllAreAsked) {
  const char *source = "int main(void) { int s = 0; for (int i = 0; i < 10; i++) if (i & 1) s += i; return s; }\n";
  auto m = compile(source);
  EXPECT_EQ(transformBranches(*m, "main", mode(TransformMode::Symbolic)).branchesMelded, 0u);
  auto all = compile(source);
  EXPECT_EQ(transformBranches(*all, "main", mode(TransformMode::All)).branchesMelded, 1u);
  auto off = compile(source);
  EXPECT_EQ(transformBranches(*off, "main", mode(TransformMode::Off)).branchesMelded, 0u);
  EXPECT_EQ(conditionalBranches(*off->module().getFunction("main")), 2u);
}

// The paper's interprocedural example: foo's first parameter is symbolic at one call, its second
// at the other, so both of its branches are; bar only ever gets a constant.
TEST_F(BranchTransformTest, SymbolicValuesFollowEveryCallSiteOfAFunction) {
  auto m = compile("int foo(int x, int y) { int r = x * 2; if (y > 10) r += y; if (x < 0) r = -r; return r; }\n"
                   "int bar(int z) { if (z > 3) return 1; return 0; }\n"
                   "int main(void) { int a, c = 5; klee_make_symbolic(&a, sizeof a, \"a\");\n"
                   "  return foo(a, c) + foo(c, a) + bar(c); }\n");
  llvm::Module &mod = m->module();
  transform::SymbolicValues symbolic(
      mod, [](const llvm::Function &f) { return !f.isDeclaration(); }, mod.getFunction("main"));
  auto branchConditions = [&](const char *name) {
    std::vector<bool> out;
    for (llvm::Instruction &i : llvm::instructions(*mod.getFunction(name)))
      if (auto *br = llvm::dyn_cast<llvm::BranchInst>(&i); br && br->isConditional())
        out.push_back(symbolic.isSymbolic(br->getCondition()));
    return out;
  };
  EXPECT_EQ(branchConditions("foo"), (std::vector<bool>{true, true}));
  EXPECT_EQ(branchConditions("bar"), (std::vector<bool>{false}));
}

// Merge sort's merge step: i and j advance by the symbolic comparison, so L[i] is a read at a
// symbolic index; melding would make both reads' addresses symbolic. Left alone.
TEST_F(BranchTransformTest, SidesReadingAtSymbolicIndicesAreLeftAlone) {
  auto m = compile("int main(void) { int L[4], R[4], out[8]; klee_make_symbolic(L, sizeof L, \"L\");\n"
                   "  klee_make_symbolic(R, sizeof R, \"R\"); int i = 0, j = 0;\n"
                   "  for (int k = 0; k < 4; k++) { if (L[i] <= R[j]) out[k] = L[i++]; else out[k] = R[j++]; }\n"
                   "  return out[0]; }\n");
  BranchTransformStats s = transformBranches(*m, "main", mode(TransformMode::Symbolic));
  EXPECT_EQ(s.branchesMelded, 0u);
  EXPECT_GE(s.skippedSymbolicAddress, 1u);
}

// libyaml's reader: a character's width chosen by its first byte, and the buffer's pointer
// advanced by it. Melded, the pointer kept in the struct would be symbolic from then on, one
// more if-then-else each character (the cost model, transform/MeldCost.h): left to fork, unless
// asked.
const char *kAdvancingReader =
    "struct buffer { unsigned char *pointer; int unread; };\n"
    "int widths(struct buffer *b) { int n = 0;\n"
    "  while (b->unread > 0) { unsigned char octet = b->pointer[0];\n"
    "    int width; if ((octet & 0x80) == 0) width = 1; else width = 2;\n"
    "    b->pointer += width; b->unread -= width; n++; }\n"
    "  return n; }\n"
    "int main(void) { unsigned char text[4]; klee_make_symbolic(text, sizeof text, \"text\");\n"
    "  struct buffer b = {text, 4}; return widths(&b); }\n";

TEST_F(BranchTransformTest, BranchesWhoseValuesBecomeAStoredPointerAreLeft) {
  auto m = compile(kAdvancingReader);
  BranchTransformStats s = transformBranches(*m, "main", mode(TransformMode::Symbolic));
  EXPECT_EQ(s.branchesMelded, 0u);
  EXPECT_EQ(s.skippedStoredPointer, 1u);
  EXPECT_EQ(conditionalBranches(*m->module().getFunction("widths")), 2u);

  auto asked = compile(kAdvancingReader);
  BranchTransformOptions o = mode(TransformMode::Symbolic);
  o.meldStoredPointers = true;
  s = transformBranches(*asked, "main", o);
  EXPECT_EQ(s.branchesMelded, 1u);
  EXPECT_EQ(s.skippedStoredPointer, 0u);
}

// Prim's choice of the cheapest vertex: the index chosen becomes an if-then-else and the array
// is then written at it, but no pointer is kept in memory: melded.
TEST_F(BranchTransformTest, AnIndexChosenByTheBranchIsStillMelded) {
  auto m = compile("int main(void) { unsigned key[4]; int seen[4] = {0};\n"
                   "  klee_make_symbolic(key, sizeof key, \"key\"); int u = 0; unsigned best = ~0u;\n"
                   "  for (int v = 0; v < 4; v++) if (key[v] < best) { best = key[v]; u = v; }\n"
                   "  seen[u] = 1; return seen[1]; }\n");
  BranchTransformStats s = transformBranches(*m, "main", mode(TransformMode::Symbolic));
  EXPECT_EQ(s.branchesMelded, 1u);
  EXPECT_EQ(s.skippedStoredPointer, 0u);
}

TEST_F(BranchTransformTest, SidesWithCallsAreNeverMelded) {
  auto m = compile("int puts(const char *);\n"
                   "int main(void) { int c, y = 0; klee_make_symbolic(&c, sizeof c, \"c\");\n"
                   "  if (c) { puts(\"x\"); y++; } return y; }\n");
  EXPECT_EQ(transformBranches(*m, "main", mode(TransformMode::All)).branchesMelded, 0u);
}

// An extra division must not divide by zero where the original program does not divide: its
// divisor is the original one on its side and 1 on the other.
TEST_F(BranchTransformTest, AnExtraDivisionDividesByOne) {
  auto m = compile("int main(void) { int a, b, c; klee_make_symbolic(&a, 4, \"a\"); klee_make_symbolic(&b, 4, \"b\");\n"
                   "  klee_make_symbolic(&c, 4, \"c\"); int x; if (c) x = a / b; else x = a; return x; }\n");
  BranchTransformStats s = transformBranches(*m, "main", mode(TransformMode::Symbolic));
  ASSERT_EQ(s.branchesMelded, 1u);
  size_t divisions = 0;
  for (llvm::Instruction &i : llvm::instructions(*m->module().getFunction("main")))
    if (i.getOpcode() == llvm::Instruction::SDiv) {
      ++divisions;
      auto *divisor = llvm::dyn_cast<llvm::SelectInst>(i.getOperand(1));
      ASSERT_TRUE(divisor);
      auto *one = llvm::dyn_cast<llvm::ConstantInt>(divisor->getFalseValue());
      ASSERT_TRUE(one);
      EXPECT_TRUE(one->isOne());
    }
  EXPECT_EQ(divisions, 1u);
}

// A decision that is klee_assume's argument stays one: klee_assume fails on the paths where the
// argument is false.
TEST_F(BranchTransformTest, AnAssumptionsDecisionIsLeft) {
  auto m = compile("int main(void) { int x; klee_make_symbolic(&x, 4, \"x\"); klee_assume(x > 0 && x < 10);\n"
                   "  return x; }\n");
  EXPECT_EQ(transformBranches(*m, "main", mode(TransformMode::All)).branchesMelded, 0u);
}

// Lines 3-11 of the file (the declarations take two).
const char *kGuardedRead = "int main(void) {\n"
                           "  char buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                           "  unsigned char n; klee_make_symbolic(&n, 1, \"n\");\n"
                           "  int sum = 0;\n"
                           "  for (int i = 0; i < 10; i++)\n"
                           "    if (i < n)\n"
                           "      sum += buf[i];\n"
                           "  return sum;\n"
                           "}\n";

TEST_F(BranchTransformTest, AnExcludedLineKeepsItsBranch) {
  auto m = compile(kGuardedRead);
  BranchTransformOptions o = mode(TransformMode::Symbolic);
  o.excluded = {"program.c:9"};
  BranchTransformStats s = transformBranches(*m, "main", o);
  EXPECT_EQ(s.branchesMelded, 0u);
  EXPECT_EQ(s.skippedExcluded, 1u);
  o.excluded = {"other.c:9", "program.c:8"};
  auto again = compile(kGuardedRead);
  EXPECT_EQ(transformBranches(*again, "main", o).branchesMelded, 1u);
}

// The melded read of buf[i] is the original one where i < n held: one term, one literal (that
// condition, positive), at line 9. The translator carries it to the engine.
TEST_F(BranchTransformTest, TheTranslatorReadsTheGuardsBack) {
  auto m = compile(kGuardedRead);
  ASSERT_EQ(transformBranches(*m, "main", mode(TransformMode::Symbolic)).branchesMelded, 1u);
  std::unique_ptr<Program> p = translateProgram(*m, "main");
  const Function *main = nullptr;
  for (const Function &f : p->functions)
    if (f.name == "main")
      main = &f;
  ASSERT_TRUE(main);
  ASSERT_EQ(main->guardOf.size(), main->instrs.size());
  bool sawRead = false;
  for (size_t i = 0; i < main->instrs.size(); ++i) {
    if (!main->guardOf[i] || main->instrs[i].op != Opcode::Load)
      continue;
    const InstrGuard &g = main->guards[main->guardOf[i] - 1];
    ASSERT_EQ(g.termCount, 1u);
    const GuardTerm &t = main->guardTerms[g.firstTerm];
    EXPECT_EQ(p->locations[t.loc].line, 9u);
    ASSERT_EQ(t.literalCount, 1u);
    EXPECT_TRUE(main->guardLiterals[t.firstLiteral].positive);
    EXPECT_FALSE(main->guardLiterals[t.firstLiteral].cond.constant);
    sawRead = true;
  }
  EXPECT_TRUE(sawRead);
}

TEST_F(BranchTransformTest, TheLocationListIsCheckedLineByLine) {
  std::string path = (dir / "no-transform.txt").string();
  std::ofstream(path) << "# spurious locations\n\n  src/a.c:12 \nb.c:7\n";
  EXPECT_EQ(readLocationList(path), (std::vector<std::string>{"src/a.c:12", "b.c:7"}));
  std::ofstream(path) << "a.c:12\na.c\n";
  try {
    readLocationList(path);
    ADD_FAILURE() << "a line without its number was accepted";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find(":2: expected FILE:LINE"), std::string::npos) << e.what();
  }
  EXPECT_THROW(readLocationList((dir / "missing").string()), std::runtime_error);
}

TEST_F(BranchTransformTest, TheFlagsSayWhatIsWrong) {
  ExecutorOptions o;
  EngineFlags flags(o);
  EXPECT_EQ(flags.setValue("--transform-branches", "some"),
            "unknown --transform-branches mode 'some' (off, symbolic or all)");
  EXPECT_EQ(flags.setSwitch("--transform-in-loops-only"), "");
  EXPECT_EQ(flags.check(), "--transform-in-loops-only, --transform-stored-pointers and --no-transform need "
                           "--transform-branches symbolic or all");
  EXPECT_EQ(flags.setValue("--transform-branches", "symbolic"), "");
  EXPECT_EQ(flags.check(), "");
  EXPECT_EQ(o.transform.mode, TransformMode::Symbolic);
  EXPECT_TRUE(o.transform.loopsOnly);
  EXPECT_NE(flags.setValue("--no-transform", (dir / "missing").string()).find("--no-transform: cannot read"),
            std::string::npos);
}

} // namespace
