#include "cairn/service/ServiceMessages.h"

#include "cairn/engine/EngineFlags.h"
#include "cairn/engine/PathPrefix.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace cairn::service {

namespace {

// Flags of `cairn run` that have no meaning for a job: what it says instead, or "".
std::string notForJobs(const std::string &flag) {
  static const std::map<std::string, std::string, std::less<>> refused = {
      {"--output-dir", "a job's results are written where `cairn results --output-dir DIR` is told"},
      {"--json", "`cairn status --json` and `cairn wait --json` print a job's summary"},
      {"--quiet", "a job prints nothing; `cairn wait` follows it"},
      {"--solver-pool", "the workers solve through the pool they were started with (cairn-worker --solver-pool)"},
      {"--solver-pool-token-file", "the workers send the token they were started with (cairn-worker "
                                   "--solver-pool-token-file)"},
      {"--cflag", "C source is compiled by the client, with its --cflag (cairn submit --cflag)"},
      {"--entry", "a job's entry is the request's entry (cairn submit --entry)"},
      {"--file", "the coordinator and the workers read no file of the client's machine; send the file's "
                 "contents in RunOptions.files (cairn submit --file NAME=PATH does)"},
      {"--no-transform", "the coordinator reads no file of the client's machine; send its locations as "
                         "--no-transform-at FILE:LINE flags (cairn submit --no-transform FILE does)"},
  };
  auto it = refused.find(std::string_view(flag).substr(0, flag.find('=')));
  if (it == refused.end())
    return "";
  return it->first + " does not apply to a job: " + it->second;
}

} // namespace

std::string toExecutorOptions(const v1::RunOptions &in, engine::ExecutorOptions &out) {
  using engine::SearchStrategy;
  switch (in.search()) {
  case v1::SEARCH_DEFAULT: out.search = SearchStrategy::Default; break;
  case v1::SEARCH_DFS: out.search = SearchStrategy::Dfs; break;
  case v1::SEARCH_BFS: out.search = SearchStrategy::Bfs; break;
  case v1::SEARCH_RANDOM_STATE: out.search = SearchStrategy::RandomState; break;
  case v1::SEARCH_RANDOM_PATH: out.search = SearchStrategy::RandomPath; break;
  case v1::SEARCH_COVNEW: out.search = SearchStrategy::CovNew; break;
  default: return "unknown search strategy " + std::to_string(in.search());
  }
  switch (in.solver()) {
  case v1::SOLVER_DEFAULT:
  case v1::SOLVER_Z3: out.solver.core = CoreSolverKind::Z3; break;
  case v1::SOLVER_CVC5: out.solver.core = CoreSolverKind::Cvc5; break;
  case v1::SOLVER_PORTFOLIO: out.solver.core = CoreSolverKind::Portfolio; break;
  default: return "unknown solver " + std::to_string(in.solver());
  }
  switch (in.memory_model()) {
  case v1::MEMORY_DEFAULT:
  case v1::MEMORY_STANDARD: out.memory.kind = engine::MemoryModelKind::Standard; break;
  case v1::MEMORY_RELOCATABLE: out.memory.kind = engine::MemoryModelKind::Relocatable; break;
  default: return "unknown memory model " + std::to_string(in.memory_model());
  }
  if (in.max_time_s() < 0 || in.max_solver_time_s() < 0)
    return "time limits must not be negative";
  out.seed = in.seed() ? in.seed() : 1;
  out.maxTimeSeconds = in.max_time_s();
  out.maxInstructions = in.max_instructions();
  out.maxForks = in.max_forks();
  out.maxDepth = in.max_depth();
  if (in.max_memory_mb())
    out.maxMemoryMB = in.max_memory_mb(); // else the engine's default
  out.solver.timeoutSeconds = in.max_solver_time_s() > 0 ? in.max_solver_time_s() : 30;
  out.checkOverflow = in.check_overflow();
  out.checkOvershift = in.check_overshift();
  out.checkLeaks = in.check_leaks();
  out.checkMemcleanup = in.check_memcleanup();
  engine::EngineFlags flags(out);
  for (const std::string &flag : in.extra_flags()) {
    if (std::string why = notForJobs(flag); !why.empty())
      return why;
    if (std::string error = flags.setText(flag); !error.empty())
      return error;
  }
  for (const v1::MappedFile &f : in.files())
    if (std::string error = engine::addMappedFile({f.name(), "", f.bytes()}, out.posix); !error.empty())
      return error;
  flags.settleDefaults();
  return flags.check();
}

uint64_t askedMemoryMB(const v1::RunOptions &in) {
  engine::ExecutorOptions options;
  engine::EngineFlags flags(options);
  for (const std::string &flag : in.extra_flags())
    if (flag.rfind("--max-memory", 0) == 0)
      flags.setText(flag);
  if (flags.given("--max-memory"))
    return options.maxMemoryMB;
  return in.max_memory_mb();
}

v1::ErrorReport toMessage(const engine::ErrorReport &e) {
  v1::ErrorReport m;
  m.set_type(e.type);
  m.set_kind(e.kind);
  m.set_message(e.message);
  m.set_file(e.file);
  m.set_line(e.line);
  for (const std::string &frame : e.stack)
    m.add_stack(frame);
  return m;
}

engine::ErrorReport fromMessage(const v1::ErrorReport &m) {
  engine::ErrorReport e;
  e.type = m.type();
  e.kind = m.kind();
  e.message = m.message();
  e.file = m.file();
  e.line = m.line();
  e.stack.assign(m.stack().begin(), m.stack().end());
  return e;
}

v1::TestResult toMessage(const engine::TestCase &t) {
  v1::TestResult m;
  m.set_path_id(engine::pathId(t.path));
  m.set_path(std::string(t.path.begin(), t.path.end()));
  for (const auto &[name, bytes] : t.objects) {
    v1::TestObject *o = m.add_objects();
    o->set_name(name);
    o->set_bytes(std::string(bytes.begin(), bytes.end()));
  }
  if (t.error)
    *m.mutable_error() = toMessage(*t.error);
  m.set_partial(t.partial);
  m.set_end_reason(t.endReason);
  m.set_output(t.output);
  m.set_error_output(t.errorOutput);
  if (t.exitStatus)
    m.set_exit_status(*t.exitStatus);
  m.set_records_output(t.recordsOutput);
  return m;
}

engine::TestCase fromMessage(const v1::TestResult &m) {
  engine::TestCase t;
  for (const v1::TestObject &o : m.objects())
    t.objects.emplace_back(o.name(), std::vector<uint8_t>(o.bytes().begin(), o.bytes().end()));
  if (m.has_error())
    t.error = fromMessage(m.error());
  t.partial = m.partial();
  t.endReason = m.end_reason();
  t.path.assign(m.path().begin(), m.path().end());
  t.output = m.output();
  t.errorOutput = m.error_output();
  if (m.has_exit_status())
    t.exitStatus = m.exit_status();
  t.recordsOutput = m.records_output();
  return t;
}

v1::Counters countersOf(const engine::RunStatistics &s) {
  v1::Counters c;
  c.set_paths_completed(s.pathsCompleted);
  c.set_paths_partial(s.pathsPartial);
  c.set_tests(s.tests);
  c.set_instructions(s.instructions);
  c.set_forks(s.forks);
  c.set_states_merged(s.merging.statesMerged);
  c.set_queries(s.queries);
  c.set_solver_queries(s.solverQueries);
  c.set_solver_time_s(s.solverSeconds);
  c.set_replay_instructions(s.replayInstructions);
  c.set_replay_time_s(s.replaySeconds);
  c.set_run_time_s(s.wallSeconds);
  c.set_address_cache_mismatches(s.addressCacheMismatches());
  c.set_float_library_calls(s.floats.libraryCalls);
  c.set_float_concretised_calls(s.floats.concretisedCalls);
  if (s.memoryLimit.limitMB) {
    v1::MemoryLimitCounters &m = *c.mutable_memory_limit();
    m.set_limit_mb(s.memoryLimit.limitMB);
    m.set_ceiling_mb(s.memoryLimit.ceilingMB);
    m.set_states_ended(s.memoryLimit.statesEnded);
    m.set_runs_stopped(s.memoryLimit.runsStopped);
  }
  if (const std::optional<engine::BranchTransformStats> &t = s.transform) {
    v1::TransformCounters &m = *c.mutable_transform();
    m.set_branches_melded(t->branchesMelded);
    m.set_one_sided(t->oneSided);
    m.set_selects_added(t->selectsAdded);
    m.set_extra_instructions(t->extraInstructions);
    m.set_skipped_symbolic_index(t->skippedSymbolicAddress);
    m.set_skipped_excluded(t->skippedExcluded);
    m.set_skipped_stored_pointer(t->skippedStoredPointer);
    m.set_functions(t->functionsTransformed);
    m.set_pass_time_s(t->seconds);
    m.set_spurious_errors_filtered(t->spuriousErrorsFiltered);
    m.mutable_spurious_locations()->Add(t->spuriousLocations.begin(), t->spuriousLocations.end());
  }
  if (s.merging.qceFunctions || s.merging.patterns || s.merging.mismatches || s.merging.incrementalMerges) { // a merging strategy or quantified merging ran
    v1::MergingCounters &m = *c.mutable_merging();
    m.set_merges(s.merging.merges);
    m.set_refused(s.merging.refused);
    m.set_multiplicity(s.merging.multiplicity);
    m.set_fast_forwarded(s.merging.fastForwarded);
    m.set_fast_forwarded_merged(s.merging.fastForwardedMerged);
    m.set_stops(s.merging.stops);
    m.set_exit_holds(s.merging.exitHolds);
    m.set_qce_functions(s.merging.qceFunctions);
    m.set_qce_time_s(s.merging.qceSeconds);
    m.set_patterns(s.merging.patterns);
    m.set_quantified_merges(s.merging.quantifiedMerges);
    m.set_quantified_fallbacks(s.merging.quantifiedFallbacks);
    m.set_merges_validated(s.merging.mergesValidated);
    m.set_merge_mismatches(s.merging.mismatches);
    m.set_incremental_merges(s.merging.incrementalMerges);
    m.set_snapshot_merges(s.merging.snapshotMerges);
    m.set_states_discarded(s.merging.statesDiscarded);
  }
  if (s.sizeBound) {
    v1::SizeBound &b = *c.mutable_size_bound();
    b.set_capacity(s.sizeBound->capacity);
    b.set_max_capacity(s.sizeBound->maxCapacity);
    b.set_paths_cut(s.sizeBound->pathsCut);
  }
  return c;
}

void addCounters(v1::Counters &sum, const v1::Counters &more) {
  sum.set_paths_completed(sum.paths_completed() + more.paths_completed());
  sum.set_paths_partial(sum.paths_partial() + more.paths_partial());
  sum.set_tests(sum.tests() + more.tests());
  sum.set_instructions(sum.instructions() + more.instructions());
  sum.set_forks(sum.forks() + more.forks());
  sum.set_states_merged(sum.states_merged() + more.states_merged());
  sum.set_queries(sum.queries() + more.queries());
  sum.set_solver_queries(sum.solver_queries() + more.solver_queries());
  sum.set_solver_time_s(sum.solver_time_s() + more.solver_time_s());
  sum.set_replay_instructions(sum.replay_instructions() + more.replay_instructions());
  sum.set_replay_time_s(sum.replay_time_s() + more.replay_time_s());
  sum.set_run_time_s(sum.run_time_s() + more.run_time_s());
  sum.set_address_cache_mismatches(sum.address_cache_mismatches() + more.address_cache_mismatches());
  sum.set_float_library_calls(sum.float_library_calls() + more.float_library_calls());
  sum.set_float_concretised_calls(sum.float_concretised_calls() + more.float_concretised_calls());
  if (more.has_memory_limit()) { // every item runs under the job's limit
    const v1::MemoryLimitCounters &add = more.memory_limit();
    v1::MemoryLimitCounters &m = *sum.mutable_memory_limit();
    m.set_limit_mb(add.limit_mb());
    m.set_ceiling_mb(std::max(m.ceiling_mb(), add.ceiling_mb()));
    m.set_states_ended(m.states_ended() + add.states_ended());
    m.set_runs_stopped(m.runs_stopped() + add.runs_stopped());
  }
  if (more.has_transform()) { // the pass's counts are the program's; the filtered errors add up
    const v1::TransformCounters &add = more.transform();
    const bool first = !sum.has_transform();
    v1::TransformCounters &t = *sum.mutable_transform();
    const uint64_t filtered = t.spurious_errors_filtered() + add.spurious_errors_filtered();
    std::set<std::string> locations(t.spurious_locations().begin(), t.spurious_locations().end());
    locations.insert(add.spurious_locations().begin(), add.spurious_locations().end());
    if (first)
      t = add;
    t.set_spurious_errors_filtered(filtered);
    t.clear_spurious_locations();
    t.mutable_spurious_locations()->Add(locations.begin(), locations.end());
  }
  if (more.has_merging()) {
    const v1::MergingCounters &add = more.merging();
    v1::MergingCounters &m = *sum.mutable_merging();
    m.set_merges(m.merges() + add.merges());
    m.set_refused(m.refused() + add.refused());
    m.set_multiplicity(m.multiplicity() + add.multiplicity());
    m.set_fast_forwarded(m.fast_forwarded() + add.fast_forwarded());
    m.set_fast_forwarded_merged(m.fast_forwarded_merged() + add.fast_forwarded_merged());
    m.set_stops(m.stops() + add.stops());
    m.set_exit_holds(m.exit_holds() + add.exit_holds());
    m.set_qce_functions(std::max(m.qce_functions(), add.qce_functions()));
    m.set_qce_time_s(m.qce_time_s() + add.qce_time_s());
    m.set_patterns(m.patterns() + add.patterns());
    m.set_quantified_merges(m.quantified_merges() + add.quantified_merges());
    m.set_quantified_fallbacks(m.quantified_fallbacks() + add.quantified_fallbacks());
    m.set_merges_validated(m.merges_validated() + add.merges_validated());
    m.set_merge_mismatches(m.merge_mismatches() + add.merge_mismatches());
    m.set_incremental_merges(m.incremental_merges() + add.incremental_merges());
    m.set_snapshot_merges(m.snapshot_merges() + add.snapshot_merges());
    m.set_states_discarded(m.states_discarded() + add.states_discarded());
  }
  if (more.has_size_bound()) { // every item of a job runs with the same capacity
    const v1::SizeBound &add = more.size_bound();
    v1::SizeBound &b = *sum.mutable_size_bound();
    b.set_capacity(add.capacity());
    b.set_max_capacity(std::max(b.max_capacity(), add.max_capacity()));
    b.set_paths_cut(b.paths_cut() + add.paths_cut());
  }
}

engine::RunStatistics statisticsOf(const v1::Counters &c) {
  engine::RunStatistics s;
  s.pathsCompleted = c.paths_completed();
  s.pathsPartial = c.paths_partial();
  s.tests = c.tests();
  s.instructions = c.instructions();
  s.replayInstructions = c.replay_instructions();
  s.replaySeconds = c.replay_time_s();
  s.forks = c.forks();
  s.merging.statesMerged = c.states_merged();
  s.queries = c.queries();
  s.solverQueries = c.solver_queries();
  s.solverSeconds = c.solver_time_s();
  s.floats.libraryCalls = c.float_library_calls();
  s.floats.concretisedCalls = c.float_concretised_calls();
  s.memoryLimit.limitMB = c.memory_limit().limit_mb();
  s.memoryLimit.ceilingMB = c.memory_limit().ceiling_mb();
  s.memoryLimit.statesEnded = c.memory_limit().states_ended();
  s.memoryLimit.runsStopped = c.memory_limit().runs_stopped();
  if (c.has_merging()) {
    const v1::MergingCounters &m = c.merging();
    s.merging.merges = m.merges();
    s.merging.refused = m.refused();
    s.merging.multiplicity = m.multiplicity();
    s.merging.fastForwarded = m.fast_forwarded();
    s.merging.fastForwardedMerged = m.fast_forwarded_merged();
    s.merging.stops = m.stops();
    s.merging.exitHolds = m.exit_holds();
    s.merging.qceFunctions = m.qce_functions();
    s.merging.qceSeconds = m.qce_time_s();
    s.merging.patterns = m.patterns();
    s.merging.quantifiedMerges = m.quantified_merges();
    s.merging.quantifiedFallbacks = m.quantified_fallbacks();
    s.merging.mergesValidated = m.merges_validated();
    s.merging.mismatches = m.merge_mismatches();
    s.merging.incrementalMerges = m.incremental_merges();
    s.merging.snapshotMerges = m.snapshot_merges();
    s.merging.statesDiscarded = m.states_discarded();
  }
  if (c.has_size_bound())
    s.sizeBound = engine::SizeBoundStats{c.size_bound().capacity(), c.size_bound().max_capacity(),
                                         c.size_bound().paths_cut()};
  if (c.has_transform()) {
    const v1::TransformCounters &m = c.transform();
    engine::BranchTransformStats &t = s.transform.emplace();
    t.branchesMelded = m.branches_melded();
    t.oneSided = m.one_sided();
    t.selectsAdded = m.selects_added();
    t.extraInstructions = m.extra_instructions();
    t.skippedSymbolicAddress = m.skipped_symbolic_index();
    t.skippedExcluded = m.skipped_excluded();
    t.skippedStoredPointer = m.skipped_stored_pointer();
    t.functionsTransformed = m.functions();
    t.seconds = m.pass_time_s();
    t.spuriousErrorsFiltered = m.spurious_errors_filtered();
    t.spuriousLocations.assign(m.spurious_locations().begin(), m.spurious_locations().end());
  }
  if (c.address_cache_mismatches()) // a job's layers are not summed; this one counter is
    s.solverLayers.push_back({"address-cache", 0, 0, 0, 0, {{"mismatches", c.address_cache_mismatches()}}});
  return s;
}

std::string errorLocation(const v1::ErrorReport &e) {
  return e.file() + ":" + std::to_string(e.line()) + ":" + e.type() + ":" + e.kind();
}

v1::PathPrefix toMessage(const engine::PathPrefix &p) {
  v1::PathPrefix m;
  m.mutable_choices()->Add(p.choices.begin(), p.choices.end());
  m.set_instructions(p.instructions);
  return m;
}

engine::PathPrefix fromMessage(const v1::PathPrefix &m) {
  return engine::PathPrefix{{m.choices().begin(), m.choices().end()}, m.instructions()};
}

engine::RunStatistics statisticsOf(const v1::JobStatus &s) {
  engine::RunStatistics stats = statisticsOf(s.counters());
  stats.wallSeconds = s.elapsed_s();
  stats.linesCovered = s.lines_covered();
  stats.linesTotal = s.lines_total();
  for (const v1::ErrorReport &e : s.errors())
    stats.errors.push_back(fromMessage(e));
  return stats;
}

v1::ProgramLines toMessage(const engine::CoverageTable &t) {
  v1::ProgramLines l;
  l.mutable_files()->Add(t.files.begin(), t.files.end());
  l.mutable_coverable()->Add(t.coverable.begin(), t.coverable.end());
  for (const engine::CoverageTable::Decision &d : t.decisions) {
    v1::BranchDecision &out = *l.add_decisions();
    out.set_line(d.line);
    out.set_first(d.first);
    out.set_count(d.count);
  }
  return l;
}

engine::CoverageTable fromMessage(const v1::ProgramLines &l) {
  engine::CoverageTable t;
  t.files.assign(l.files().begin(), l.files().end());
  t.coverable.assign(l.coverable().begin(), l.coverable().end());
  for (const v1::BranchDecision &d : l.decisions())
    t.decisions.push_back({d.line(), d.first(), d.count()});
  return t;
}

} // namespace cairn::service
