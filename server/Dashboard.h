// What the coordinator serves over HTTP: the dashboard page (jobs list, each job's live
// progress, coverage and errors, polling the JSON endpoints), the JSON status endpoints
// (/api/jobs, /api/jobs/ID) and the Prometheus metrics (/metrics).
#pragma once

#include "HttpServer.h"
#include "Scheduler.h"

namespace cairn::server {

HttpResponse serveDashboard(Scheduler &scheduler, const std::string &path);

} // namespace cairn::server
