#include "Dashboard.h"

#include <google/protobuf/util/json_util.h>

namespace cairn::server {

namespace {

const char *kPage = R"html(<!doctype html>
<html><head><meta charset="utf-8"><title>Cairn</title>
<style>
body{font-family:sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin-bottom:1.5em}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
th{background:#eee} tr.sel{background:#eef5ff} tr{cursor:pointer}
.bar{display:inline-block;width:120px;height:.8em;border:1px solid #888;vertical-align:middle}
.bar span{display:block;height:100%;background:#4a8}
</style></head>
<body><h1>Cairn jobs</h1>
<table id="jobs"><thead><tr><th>job</th><th>name</th><th>state</th><th>items done</th>
<th>paths</th><th>tests</th><th>errors</th><th>coverage</th><th>elapsed</th></tr></thead><tbody></tbody></table>
<div id="job"></div>
<script>
let selected = null;
function esc(s){return String(s ?? '').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));}
function num(x){return Number(x ?? 0);}
function state(s){return String(s ?? '').replace('JOB_','').toLowerCase();}
function cover(j){const t=num(j.linesTotal), c=num(j.linesCovered);
  const p=t?Math.round(100*c/t):0; return `<span class="bar"><span style="width:${p}%"></span></span> ${c}/${t}`;}
async function refresh(){
  try{
    const r = await fetch('/api/jobs'); const d = await r.json();
    const rows = (d.jobs||[]).map(j=>{const c=j.counters||{};
      return `<tr data-id="${esc(j.jobId)}" class="${j.jobId===selected?'sel':''}"><td>${esc(j.jobId)}</td><td>${esc(j.name)}</td>
      <td class="state">${state(j.state)}</td><td>${num(j.itemsDone)}/${num(j.itemsTotal)} (${num(j.itemsRunning)} running)</td>
      <td class="paths">${num(c.pathsCompleted)}</td><td>${num(c.tests)}</td><td>${(j.errors||[]).length}</td>
      <td>${cover(j)}</td><td>${num(j.elapsedS).toFixed(1)} s</td></tr>`;}).join('');
    document.querySelector('#jobs tbody').innerHTML = rows;
    document.querySelectorAll('#jobs tbody tr').forEach(tr=>tr.onclick=()=>{selected=tr.dataset.id;refresh();});
    if(!selected && d.jobs && d.jobs.length) selected = d.jobs[d.jobs.length-1].jobId;
    if(selected){
      const j = await (await fetch('/api/jobs/'+encodeURIComponent(selected))).json(); const c=j.counters||{};
      document.getElementById('job').innerHTML = `<h2>Job ${esc(j.jobId)} ${esc(j.name)}</h2>
      <p id="progress">state <b>${state(j.state)}</b>${j.failure?' ('+esc(j.failure)+')':''};
      paths completed <b>${num(c.pathsCompleted)}</b>, partial ${num(c.pathsPartial)}, tests ${num(c.tests)},
      instructions ${num(c.instructions)}, forks ${num(c.forks)}, solver queries ${num(c.solverQueries)};
      items ${num(j.itemsDone)}/${num(j.itemsTotal)}; coverage ${cover(j)}${c.sizeBound?`;
      sizes above the capacity ${num(c.sizeBound.capacity)} not explored (${num(c.sizeBound.pathsCut)} partial paths cut there)`:''}</p>
      <h3>Errors</h3><table><tr><th>type</th><th>kind</th><th>where</th><th>message</th></tr>
      ${(j.errors||[]).map(e=>`<tr><td>${esc(e.type)}</td><td>${esc(e.kind)}</td><td>${esc(e.file)}:${num(e.line)}</td><td>${esc(e.message)}</td></tr>`).join('')}</table>`;
    }
  }catch(e){document.getElementById('job').textContent='coordinator unreachable: '+e;}
}
refresh(); setInterval(refresh, 1000);
</script></body></html>
)html";

std::string toJson(const google::protobuf::Message &m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return out;
}

} // namespace

HttpResponse serveDashboard(Scheduler &scheduler, const std::string &path) {
  const std::string json = "application/json";
  if (path == "/" || path == "/index.html")
    return {200, "text/html; charset=utf-8", kPage};
  if (path == "/metrics")
    return {200, "text/plain; version=0.0.4; charset=utf-8", scheduler.metrics()};
  if (path == "/healthz")
    return {200, "text/plain; charset=utf-8", "ok\n"};
  if (path == "/api/jobs") {
    v1::ListJobsResponse jobs;
    scheduler.listJobs(jobs);
    return {200, json, toJson(jobs)};
  }
  if (path.rfind("/api/jobs/", 0) == 0) {
    v1::JobStatus status;
    grpc::Status s = scheduler.status(path.substr(10), status);
    if (!s.ok())
      return {404, json, "{\"error\": \"no such job\"}"};
    return {200, json, toJson(status)};
  }
  return {404, "text/plain; charset=utf-8", "not found\n"};
}

} // namespace cairn::server
