// The engine flags shared by `cairn run` and jobs: values, combinations and their messages, and
// a job's options as the workers turn them into ExecutorOptions.
#include "cairn/engine/EngineFlags.h"
#include "cairn/service/ServiceMessages.h"

#include <gtest/gtest.h>

using namespace cairn;
using namespace cairn::engine;

namespace {

TEST(EngineFlags, SetsOptionsFromNamesAndText) {
  ExecutorOptions o;
  EngineFlags flags(o);
  EXPECT_EQ(flags.setValue("--memory-model", "relocatable"), "");
  EXPECT_EQ(flags.setText("--size-model=symbolic"), "");
  EXPECT_EQ(flags.setText("--size-mode=merge-opt"), "");
  EXPECT_EQ(flags.setText("--capacity=7"), "");
  EXPECT_EQ(flags.setSwitch("--split-objects"), "");
  EXPECT_EQ(flags.setText("--partition-size=16"), "");
  EXPECT_EQ(flags.setText("--max-solver-time=2.5"), "");
  EXPECT_EQ(o.maxStackFrames, 8192u); // KLEE's default
  EXPECT_EQ(o.stackSizeBytes, uint64_t(8) << 20);
  EXPECT_EQ(flags.setText("--max-stack-frames=30000"), "");
  EXPECT_EQ(flags.setText("--stack-size=1048576"), "");
  EXPECT_EQ(o.solver.arrays.axiomsBeforeWholeRead, 0u); // reads tied whole
  EXPECT_EQ(flags.setText("--array-refinement=axioms"), "");
  EXPECT_EQ(flags.check(), "");
  EXPECT_EQ(o.solver.arrays.axiomsBeforeWholeRead, ~0u);
  EXPECT_EQ(flags.setText("--merge-strategy=dsm"), "");
  EXPECT_EQ(flags.setText("--qce-alpha=0.5"), "");
  EXPECT_EQ(flags.setText("--qce-beta=0.6"), "");
  EXPECT_EQ(flags.setText("--qce-kappa=1"), "");
  EXPECT_EQ(flags.setText("--qce-zeta=4"), "");
  EXPECT_EQ(flags.setText("--dsm-distance=4"), "");
  EXPECT_TRUE(o.merging.qceAddressesHot);
  EXPECT_TRUE(o.merging.qceFloatsHot);
  EXPECT_EQ(flags.setText("--qce-cold-addresses"), "");
  EXPECT_EQ(flags.setText("--qce-cold-floats"), "");
  EXPECT_EQ(flags.check(), "");
  EXPECT_FALSE(o.merging.qceAddressesHot);
  EXPECT_FALSE(o.merging.qceFloatsHot);
  EXPECT_EQ(o.merging.strategy, MergeStrategy::Dynamic);
  EXPECT_DOUBLE_EQ(o.merging.qceAlpha, 0.5);
  EXPECT_DOUBLE_EQ(o.merging.qceBeta, 0.6);
  EXPECT_EQ(o.merging.qceKappa, 1u);
  EXPECT_DOUBLE_EQ(o.merging.qceZeta, 4);
  EXPECT_EQ(o.merging.dsmDistance, 4u);
  EXPECT_EQ(o.maxStackFrames, 30000u);
  EXPECT_EQ(o.stackSizeBytes, 1048576u);
  EXPECT_TRUE(o.memory.relocatable());
  EXPECT_TRUE(o.sizeModel.symbolic());
  EXPECT_EQ(o.sizeModel.mode, SizeMode::MergeOpt);
  EXPECT_EQ(o.sizeModel.capacity, 7u);
  EXPECT_TRUE(o.memory.splitObjects);
  EXPECT_EQ(o.memory.partitionSize, 16u);
  EXPECT_DOUBLE_EQ(o.solver.timeoutSeconds, 2.5);
  EXPECT_EQ(EngineFlags::kind("--merge-objects"), EngineFlagKind::Switch);
  EXPECT_EQ(EngineFlags::kind("--capacity"), EngineFlagKind::Valued);
  EXPECT_EQ(EngineFlags::kind("--output-dir"), EngineFlagKind::Unknown);
}

TEST(EngineFlags, BadValuesAndCombinationsSayWhat) {
  ExecutorOptions o;
  EngineFlags flags(o);
  EXPECT_EQ(flags.setText("--frobnicate"), "unknown option '--frobnicate'");
  EXPECT_EQ(flags.setText("--merge-objects=1"), "unknown option '--merge-objects=1'");
  EXPECT_EQ(flags.setText("--search"), "--search needs a value");
  EXPECT_EQ(flags.setValue("--search", "sideways"), "unknown search strategy 'sideways'");
  EXPECT_EQ(flags.setValue("--max-forks", "many"), "--max-forks needs a whole number, got 'many'");
  EXPECT_EQ(flags.setValue("--partition-size", "12"), "--partition-size must be a positive multiple of 8, got '12'");
  EXPECT_EQ(flags.setValue("--array-refinement", "lazy"), "unknown array refinement 'lazy' (reads or axioms)");
  EXPECT_EQ(flags.setValue("--merge-strategy", "all"), "unknown merge strategy 'all' (none, ssm or dsm)");
  EXPECT_EQ(flags.setValue("--qce-beta", "1.5"), "--qce-beta needs a number from 0.0 to 1.0, got '1.5'");
  EXPECT_EQ(flags.setValue("--qce-zeta", "0.5"), "--qce-zeta needs a number from 1.0 to any, got '0.5'");
  EXPECT_EQ(flags.setValue("--qce-alpha", "-1"), "--qce-alpha needs a number from 0.0 to any, got '-1'");
  EXPECT_EQ(flags.setValue("--qce-kappa", "0"), "--qce-kappa needs at least 1 iteration");
  auto combination = [](std::initializer_list<const char *> texts) {
    ExecutorOptions o;
    EngineFlags flags(o);
    for (const char *t : texts)
      EXPECT_EQ(flags.setText(t), "") << t;
    return flags.check();
  };
  EXPECT_EQ(combination({"--capacity=4"}), "--size-mode and --capacity need --size-model symbolic");
  const std::string qceWithoutMerging = "--qce-alpha, --qce-beta, --qce-kappa, --qce-zeta, --qce-cold-addresses and "
                                        "--qce-cold-floats need --merge-strategy ssm or dsm";
  EXPECT_EQ(combination({"--qce-alpha=1"}), qceWithoutMerging);
  EXPECT_EQ(combination({"--qce-cold-addresses"}), qceWithoutMerging);
  EXPECT_EQ(combination({"--qce-cold-floats"}), qceWithoutMerging);
  EXPECT_EQ(combination({"--merge-strategy=ssm", "--dsm-distance=3"}), "--dsm-distance needs --merge-strategy dsm");
  EXPECT_EQ(combination({"--merge-strategy=ssm", "--dsm-hold-exits"}), "--dsm-hold-exits needs --merge-strategy dsm");
  EXPECT_EQ(combination({"--merge-strategy=dsm", "--dsm-hold-exits"}), "");
  EXPECT_EQ(combination({"--merge-objects"}),
            "--relocate-stack, --merge-objects and --split-objects need --memory-model relocatable");
  EXPECT_EQ(combination({"--memory-model=relocatable", "--context-resolve=2"}), "--context-resolve needs --merge-objects");
  EXPECT_EQ(combination({"--address-aware-cache"}), "--address-aware-cache needs --memory-model relocatable");
  EXPECT_EQ(combination({"--memory-model=relocatable", "--address-aware-cache", "--split-objects"}),
            "--address-aware-cache does not combine with --merge-objects or --split-objects");
  EXPECT_EQ(combination({"--validate-address-cache"}),
            "--validate-address-cache and --no-address-cache-models need --address-aware-cache");
}

TEST(EngineFlags, HeapChecksAreOffUnlessAskedFor) {
  ExecutorOptions o;
  EXPECT_FALSE(o.checkLeaks || o.checkMemcleanup);
  EngineFlags flags(o);
  EXPECT_EQ(flags.setText("--check-leaks"), "");
  EXPECT_TRUE(o.checkLeaks);
  EXPECT_FALSE(o.checkMemcleanup);
  EXPECT_EQ(flags.setSwitch("--check-memcleanup"), "");
  EXPECT_TRUE(o.checkMemcleanup);
  EXPECT_EQ(EngineFlags::kind("--check-leaks"), EngineFlagKind::Switch);
}

TEST(JobOptions, HeapChecksTravelAsFieldsOrFlags) {
  v1::RunOptions fields;
  fields.set_check_leaks(true);
  fields.set_check_memcleanup(true);
  ExecutorOptions a;
  EXPECT_EQ(service::toExecutorOptions(fields, a), "");
  EXPECT_TRUE(a.checkLeaks && a.checkMemcleanup);
  v1::RunOptions text;
  text.add_extra_flags("--check-leaks");
  ExecutorOptions b;
  EXPECT_EQ(service::toExecutorOptions(text, b), "");
  EXPECT_TRUE(b.checkLeaks);
  EXPECT_FALSE(b.checkMemcleanup);
}

TEST(JobOptions, ExtraFlagsGoThroughTheEngineFlags) {
  v1::RunOptions in;
  in.set_memory_model(v1::MEMORY_RELOCATABLE);
  for (const char *f : {"--address-aware-cache", "--size-model=symbolic", "--size-mode=lazy", "--max-depth=9"})
    in.add_extra_flags(f);
  ExecutorOptions out;
  EXPECT_EQ(service::toExecutorOptions(in, out), "");
  EXPECT_TRUE(out.memory.relocatable());
  EXPECT_TRUE(out.solver.addressCache);
  EXPECT_TRUE(out.sizeModel.symbolic());
  EXPECT_EQ(out.maxDepth, 9u);
  EXPECT_DOUBLE_EQ(out.solver.timeoutSeconds, 30);

  auto refusal = [](std::initializer_list<const char *> flags) {
    v1::RunOptions in;
    for (const char *f : flags)
      in.add_extra_flags(f);
    ExecutorOptions out;
    return service::toExecutorOptions(in, out);
  };
  EXPECT_EQ(refusal({"--capacity=3"}), "--size-mode and --capacity need --size-model symbolic");
  EXPECT_EQ(refusal({"--nonsense"}), "unknown option '--nonsense'");
  EXPECT_EQ(refusal({"--memory-model=relocatable", "--merge-objects", "--context-resolve=1"}), "");
  for (const char *local : {"--output-dir=x", "--json", "--quiet", "--solver-pool=h:1", "--cflag=-DX", "--entry=f"})
    EXPECT_NE(refusal({local}).find("does not apply to a job"), std::string::npos) << local;
  // A job reads no file of the client's machine.
  EXPECT_NE(refusal({"--libc=full", "--file=conf=/etc/hostname"}).find("does not apply to a job"), std::string::npos);
}

// Real programs as jobs: the full libc and its symbolic inputs, with cairn run's default of a
// test only for paths that cover something new, and --all-tests to keep every one.
TEST(JobOptions, RealProgramFlagsSettleAsUnderCairnRun) {
  auto settled = [](std::initializer_list<const char *> flags) {
    v1::RunOptions in;
    for (const char *f : flags)
      in.add_extra_flags(f);
    ExecutorOptions out;
    EXPECT_EQ(service::toExecutorOptions(in, out), "");
    return out;
  };
  ExecutorOptions real = settled({"--libc=full", "--sym-args=0 2 4", "--sym-stdin=8", "--sym-files=1 8", "--max-fail=1"});
  EXPECT_EQ(real.posix.libc, LibcKind::Full);
  EXPECT_EQ(real.posix.maxFail, 1u);
  EXPECT_TRUE(real.onlyNewCoverageTests);
  EXPECT_FALSE(settled({"--libc=full", "--sym-stdin=8", "--all-tests"}).onlyNewCoverageTests);
  EXPECT_FALSE(settled({"--libc=full"}).onlyNewCoverageTests); // no symbolic input: every path's test
  EXPECT_FALSE(settled({"--no-native-strings"}).nativeStringFunctions);
  v1::RunOptions minimal;
  minimal.add_extra_flags("--sym-stdin=8");
  ExecutorOptions out;
  EXPECT_NE(service::toExecutorOptions(minimal, out), ""); // the POSIX model needs --libc full
}

} // namespace
