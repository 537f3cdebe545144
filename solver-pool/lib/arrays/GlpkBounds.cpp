#include "GlpkBounds.h"

#include "RoundedProgram.h"

#include <glpk.h>

#include <cmath>
#include <mutex>

namespace cairn::arrays {

namespace {

using Ranges = IntegerProgramSolver::Ranges;
using Status = IntegerProgramSolver::Status;

// GLPK keeps its environment per thread only when built for it; the lanes share one lock.
std::mutex glpkLock;

struct Problem {
  glp_prob *lp = glp_create_prob();
  ~Problem() { glp_delete_prob(lp); }
};

void load(glp_prob *lp, const RoundedProgram &program) {
  const int columns = int(program.columnLo.size());
  if (columns > 0) // (GLPK stops the process on adding none)
    glp_add_cols(lp, columns);
  for (int v = 0; v < columns; ++v) {
    const double lo = program.columnLo[v], hi = program.columnHi[v];
    glp_set_col_bnds(lp, v + 1, lo == hi ? GLP_FX : GLP_DB, lo, hi);
  }
  std::vector<int> rows{0}, cols{0};
  std::vector<double> values{0};
  for (const RoundedProgram::Row &r : program.rows) {
    const int row = glp_add_rows(lp, 1);
    if (std::isinf(r.lo))
      glp_set_row_bnds(lp, row, GLP_UP, 0, r.hi);
    else
      glp_set_row_bnds(lp, row, r.lo == r.hi ? GLP_FX : GLP_DB, r.lo, r.hi);
    for (size_t i = 0; i < r.columns.size(); ++i) {
      rows.push_back(row);
      cols.push_back(r.columns[i] + 1);
      values.push_back(r.coefficients[i]);
    }
  }
  if (rows.size() > 1)
    glp_load_matrix(lp, int(rows.size() - 1), rows.data(), cols.data(), values.data());
}

// Optimises the objective's terms; the optimum widened by the rounding of each term, then
// rounded inwards. nullopt where the simplex gave no optimum to trust.
std::optional<Int> optimum(glp_prob *lp, const LinearExpr &objective, bool maximise, unsigned timeoutMs,
                           Status &status) {
  glp_set_obj_dir(lp, maximise ? GLP_MAX : GLP_MIN);
  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  parameters.tm_lim = timeoutMs ? int(timeoutMs) : INT32_MAX;
  if (glp_exact(lp, &parameters) != 0)
    return std::nullopt;
  const int state = glp_get_status(lp);
  if (state == GLP_NOFEAS) {
    status = Status::Infeasible;
    return std::nullopt;
  }
  if (state != GLP_OPT)
    return std::nullopt;
  const double value = glp_get_obj_val(lp);
  double magnitude = std::fabs(value);
  for (const auto &[v, k] : objective.terms)
    magnitude += std::fabs(double(k) * glp_get_col_prim(lp, int(v) + 1));
  return inwardBound(value, magnitude * 0x1p-40 + 0x1p-30, maximise);
}

} // namespace

Ranges glpkRelaxedRanges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                         const std::vector<LinearExpr> &objectives, unsigned timeoutMs) {
  std::lock_guard<std::mutex> lock(glpkLock);
  glp_term_out(GLP_OFF);
  const RoundedProgram rounded = roundOutwards(program, subset);
  if (std::optional<Ranges> settled = settledWithoutSolver(program, rounded, objectives))
    return *settled;
  Problem p;
  load(p.lp, rounded);
  return rangesFromOptima(objectives, [&](const std::vector<std::pair<int, double>> &coefficients,
                                          const LinearExpr &o, bool maximise, Status &status) {
    if (!maximise) {
      for (int v = 1; v <= int(program.numVariables()); ++v)
        glp_set_obj_coef(p.lp, v, 0);
      for (const auto &[v, k] : coefficients)
        glp_set_obj_coef(p.lp, v + 1, k);
    }
    return optimum(p.lp, o, maximise, timeoutMs, status);
  });
}

} // namespace cairn::arrays
