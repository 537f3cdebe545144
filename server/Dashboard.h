// What the coordinator serves over HTTP: the dashboard's files (embedded at build time from
// server/dashboard/), its JSON (the jobs, a job's status, detail, history, source files and
// tests, the workers, the solver pool), /healthz and the Prometheus /metrics.
//
// Access follows the jobs API: with --token-file, everything that carries job data (/api/...)
// needs `Authorization: Bearer TOKEN` (401 otherwise), and /metrics leaves out the series that
// name jobs unless the request carries a token. The page's files hold no job data and stay open,
// as does /healthz; the page's script sends the token the user gives it.
#pragma once

#include "HttpServer.h"
#include "Scheduler.h"
#include "SolverPoolStats.h"

#include <set>
#include <string>
#include <vector>

namespace cairn::server {

struct DashboardOptions {
  std::set<std::string> tokens;        // the jobs API's; empty: no authentication
  std::vector<std::string> solverPool; // replicas to ask for their statistics
  std::string solverPoolToken;         // what they accept (empty: none sent)
};

class Dashboard {
public:
  Dashboard(Scheduler &scheduler, DashboardOptions options);
  HttpResponse serve(const HttpRequest &request);

private:
  bool authorized(const HttpRequest &request) const;
  HttpResponse job(const std::string &rest);
  Scheduler &scheduler_;
  std::set<std::string> tokens_;
  SolverPoolStats pool_;
};

// The dashboard's embedded files (DashboardAssets.cpp, generated): null when `name` is none.
struct DashboardAsset {
  const char *name; // "index.html", "app.js", ...
  const unsigned char *data;
  size_t size;
};
const DashboardAsset *findDashboardAsset(const std::string &name);

} // namespace cairn::server
