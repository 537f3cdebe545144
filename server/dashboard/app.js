// The coordinator's dashboard: hash routes (#/, #/jobs/ID, #/jobs/ID/errors/N,
// #/jobs/ID/files/N, #/workers), each rendered from the coordinator's JSON and refreshed every
// second. Sections are replaced only when their markup changed, so keyboard focus and screen
// readers are not disturbed by a refresh that shows nothing new.
//
// Tokens: with a coordinator started with --token-file the JSON needs `Authorization: Bearer
// TOKEN`. The page asks for the token once (or takes it from the address's fragment,
// `#/...?token=TOKEN`, which never reaches a server) and keeps it in this browser's storage.
'use strict';

const main = document.getElementById('main');
const TOKEN_KEY = 'cairn-dashboard-token';

// ---------- small helpers ----------

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
const num = x => Number(x ?? 0);
const fmt = x => num(x).toLocaleString('en-US');
const state = s => String(s ?? '').replace('JOB_', '').toLowerCase();
const pct = (a, b) => (num(b) ? Math.round(1000 * num(a) / num(b)) / 10 : 0);
const base = p => String(p ?? '').split('/').pop();
const seconds = x => (num(x) < 10 ? num(x).toFixed(2) : num(x).toFixed(1)) + ' s';
const jobHref = id => `#/jobs/${encodeURIComponent(id)}`;

function token() { try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; } }
function setToken(t) { try { t ? localStorage.setItem(TOKEN_KEY, t) : localStorage.removeItem(TOKEN_KEY); } catch { /* private mode */ } }

class NeedsToken extends Error {}

async function api(path) {
  const headers = {};
  if (token()) headers.Authorization = 'Bearer ' + token();
  const r = await fetch(path, { headers, cache: 'no-store' });
  if (r.status === 401) throw new NeedsToken();
  if (!r.ok) {
    let why = r.statusText;
    try { why = (await r.json()).error || why; } catch { /* not JSON */ }
    throw new Error(`${path}: ${why}`);
  }
  return r.json();
}

// Replaces a section's markup only when it changed; the element that had focus inside it gets
// it back (found again by its data-key, href or id).
const rendered = new WeakMap(); // each section's markup as last set
function setSection(id, html) {
  const el = document.getElementById(id);
  if (!el || rendered.get(el) === html) return;
  const active = document.activeElement;
  let key = null;
  if (active && el.contains(active))
    key = active.dataset.key ? `[data-key="${CSS.escape(active.dataset.key)}"]` :
      active.getAttribute('href') ? `[href="${CSS.escape(active.getAttribute('href'))}"]` :
        active.id ? `#${CSS.escape(active.id)}` : null;
  el.innerHTML = html;
  rendered.set(el, html);
  if (key) el.querySelector(key)?.focus();
}

function coverageBar(covered, total) {
  const p = pct(covered, total);
  return `<span class="bar" aria-hidden="true"><span style="width:${p}%"></span></span> ` +
    `<span>${fmt(covered)} of ${fmt(total)} lines (${p}%)</span>`;
}

function stackList(stack) {
  if (!stack || !stack.length) return '<p>No stack was recorded.</p>';
  return `<ol class="stack">${stack.map(f => `<li><code>${esc(f)}</code></li>`).join('')}</ol>`;
}

// The job's findings as CI systems read them, the files `cairn results --sarif/--junit/--test-comp` writes.
function reportLinks(jobId) {
  const base = `/api/jobs/${encodeURIComponent(jobId)}`;
  return `<p>Reports: <a href="${base}/report.sarif" download="${esc(jobId)}.sarif" data-download
    data-key="dl-sarif">SARIF 2.1.0</a> (code scanning) and <a href="${base}/report.junit.xml"
    download="${esc(jobId)}.junit.xml" data-download data-key="dl-junit">JUnit XML</a> (test reports); the
    <a href="${base}/test-suite.zip" download="${esc(jobId)}.test-suite.zip" data-download
    data-key="dl-test-comp">Test-Comp test suite</a> (programs whose inputs are __VERIFIER_nondet_* values).</p>`;
}

function downloadLink(jobId, group) {
  const href = `/api/jobs/${encodeURIComponent(jobId)}/tests/${encodeURIComponent(group.testId)}.ktest`;
  return `<a href="${href}" download="${esc(group.testName)}.ktest" data-download data-key="dl-${esc(group.testId)}">` +
    `${esc(group.testName)}.ktest</a>`;
}

// ---------- routes ----------

function route() {
  let hash = location.hash || '#/';
  // A token given in the fragment is kept, then taken out of the address (and its history).
  const m = hash.match(/[?&#]token=([^&]*)/);
  if (m) {
    setToken(decodeURIComponent(m[1]));
    hash = hash.replace(/[?&]token=[^&]*/, '').replace(/^#token=[^&]*&?/, '#/') || '#/';
    history.replaceState(null, '', hash);
  }
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'workers') return { view: 'workers' };
  if (parts[0] === 'jobs' && parts[1]) {
    if (parts[2] === 'errors' && parts[3] !== undefined) return { view: 'error', job: parts[1], index: num(parts[3]) };
    if (parts[2] === 'files' && parts[3] !== undefined) return { view: 'file', job: parts[1], index: num(parts[3]) };
    return { view: 'job', job: parts[1] };
  }
  return { view: 'jobs' };
}

let current = null, busy = false;

function show(skeleton, title) {
  main.innerHTML = skeleton;
  document.title = title + ' · Cairn';
  document.querySelectorAll('[data-nav]').forEach(a => {
    const here = (a.dataset.nav === 'workers') === (current.view === 'workers');
    here ? a.setAttribute('aria-current', 'page') : a.removeAttribute('aria-current');
  });
}

function navigate(first) {
  current = route();
  const views = { jobs: jobsSkeleton, job: jobSkeleton, error: errorSkeleton, file: fileSkeleton, workers: workersSkeleton };
  views[current.view](current);
  // After a navigation (not the first load), focus goes to the new page's heading, as a screen
  // reader user expects from a link that changes the page.
  if (!first) main.querySelector('h1')?.focus();
  refresh();
}

async function refresh() {
  if (busy) return;
  busy = true;
  const showing = current;
  try {
    const updates = { jobs: updateJobs, job: updateJob, error: updateError, file: updateFile, workers: updateWorkers };
    await updates[showing.view](showing);
    setSection('notice', '');
  } catch (e) {
    if (showing !== current) return;
    if (e instanceof NeedsToken) askForToken();
    else setSection('notice', `<p class="problem" role="alert">The coordinator did not answer: ${esc(e.message)}</p>`);
  } finally {
    busy = false;
  }
}

function askForToken() {
  if (document.getElementById('token-form')) return;
  main.innerHTML = `<h1 tabindex="-1">Sign in to the dashboard</h1>
    <p>This coordinator needs a jobs API token (the one <code>cairn submit --token-file</code> uses).
    It is kept in this browser only and sent as <code>Authorization: Bearer</code>.</p>
    <form id="token-form" class="token-form">
      <label for="token-input">Jobs API token</label>
      <input id="token-input" type="password" autocomplete="off" required>
      <button type="submit">Use this token</button>
    </form>${token() ? '<p class="problem" role="alert">The token given was refused.</p>' : ''}`;
  const form = document.getElementById('token-form');
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    setToken(document.getElementById('token-input').value.trim());
    navigate(false);
  });
  document.getElementById('token-input').focus();
}

// ---------- jobs list ----------

function jobsSkeleton() {
  show(`<h1 tabindex="-1">Cairn jobs</h1><div id="notice"></div>
    <section aria-labelledby="latest-h"><h2 id="latest-h">Latest job</h2>
      <p id="latest" aria-live="polite">No job yet.</p></section>
    <section aria-labelledby="jobs-h"><h2 id="jobs-h">All jobs</h2><div id="jobs-table"></div></section>`, 'Jobs');
}

async function updateJobs() {
  const d = await api('/api/jobs');
  const jobs = d.jobs || [];
  const rows = jobs.slice().reverse().map(j => {
    const c = j.counters || {};
    return `<tr data-id="${esc(j.jobId)}"><th scope="row"><a href="${jobHref(j.jobId)}">${esc(j.jobId)}</a></th>
      <td>${esc(j.name)}</td><td><span class="state state-${state(j.state)}">${state(j.state)}</span></td>
      <td class="n">${num(j.itemsDone)}/${num(j.itemsTotal)} (${num(j.itemsRunning)} running)</td>
      <td class="n">${fmt(c.pathsCompleted)}</td><td class="n">${fmt(c.tests)}</td>
      <td class="n">${(j.errors || []).length}</td><td>${coverageBar(j.linesCovered, j.linesTotal)}</td>
      <td class="n">${seconds(j.elapsedS)}</td></tr>`;
  }).join('');
  setSection('jobs-table', jobs.length ? `<table><caption>Jobs, newest first (${jobs.length})</caption>
    <thead><tr><th scope="col">Job</th><th scope="col">Name</th><th scope="col">State</th><th scope="col" class="n">Items done</th>
    <th scope="col" class="n">Paths</th><th scope="col" class="n">Tests</th><th scope="col" class="n">Errors</th><th scope="col">Coverage</th>
    <th scope="col" class="n">Elapsed</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No job has been submitted.</p>');
  const j = jobs[jobs.length - 1];
  if (j) {
    const c = j.counters || {};
    setSection('latest', `<a href="${jobHref(j.jobId)}">Job ${esc(j.jobId)}</a> (${esc(j.name)}):
      state <b>${state(j.state)}</b>${j.failure ? ' (' + esc(j.failure) + ')' : ''};
      paths completed <b>${fmt(c.pathsCompleted).replace(/,/g, '')}</b>, tests ${fmt(c.tests)},
      errors ${(j.errors || []).length}, ${fmt(j.linesCovered)} of ${fmt(j.linesTotal)} lines covered.`);
  }
}

// ---------- job page ----------

function jobSkeleton(r) {
  show(`<p class="crumbs"><a href="#/">All jobs</a></p>
    <h1 tabindex="-1" id="job-title">Job ${esc(r.job)}</h1><div id="notice"></div>
    <section aria-labelledby="progress-h"><h2 id="progress-h">Progress</h2>
      <div id="progress-text" class="sr-summary" aria-live="polite"></div>
      <div id="progress"></div></section>
    <section aria-labelledby="chart-h"><h2 id="chart-h">Over time</h2><div id="charts"></div></section>
    <section aria-labelledby="errors-h"><h2 id="errors-h">Errors by location</h2><div id="errors"></div></section>
    <section aria-labelledby="coverage-h"><h2 id="coverage-h">Coverage by source file</h2><div id="coverage"></div></section>
    <section aria-labelledby="options-h"><h2 id="options-h">Options</h2><div id="options"></div></section>
    <section aria-labelledby="items-h"><h2 id="items-h">Work items</h2><div id="items"></div></section>`, `Job ${r.job}`);
}

function stat(field, label, value, note) {
  return `<div class="stat"><dt>${label}</dt><dd data-field="${field}">${value}</dd>${note ? `<dd class="note">${note}</dd>` : ''}</div>`;
}

async function updateJob(r) {
  const [d, h] = await Promise.all([api(`/api/jobs/${encodeURIComponent(r.job)}/detail`),
    api(`/api/jobs/${encodeURIComponent(r.job)}/history`)]);
  const s = d.status || {}, c = s.counters || {};
  const samples = h.samples || [];
  const rate = samples.length ? num(samples[samples.length - 1].instructionsPerS) : 0;
  const errors = d.errors || [];
  setSection('job-title', `Job ${esc(s.jobId)}: ${esc(s.name)}`);
  document.title = `Job ${s.jobId} (${s.name}) · Cairn`;
  setSection('progress-text', `<p>Job ${esc(state(s.state))}: ${fmt(c.pathsCompleted)} paths, ${fmt(c.tests)} tests,
    ${errors.length} error locations, ${fmt(s.linesCovered)} of ${fmt(s.linesTotal)} lines covered.</p>`);
  setSection('progress', `<dl class="stats">
    ${stat('state', 'State', `<span class="state state-${state(s.state)}">${state(s.state)}</span>`, s.failure ? esc(s.failure) : (s.waiting ? esc(s.waiting) : ''))}
    ${stat('paths', 'Paths completed', fmt(c.pathsCompleted), `${fmt(c.pathsPartial)} partial`)}
    ${stat('tests', 'Tests', fmt(c.tests))}
    ${stat('errors', 'Error locations', errors.length)}
    ${stat('covered', 'Lines covered', fmt(s.linesCovered), `of ${fmt(s.linesTotal)} (${pct(s.linesCovered, s.linesTotal)}%)`)}
    ${stat('instructions', 'Instructions', fmt(c.instructions))}
    ${stat('rate', 'Instructions/s', fmt(Math.round(rate)), state(s.state) === 'running' ? 'now' : 'at the end')}
    ${stat('items', 'Items done', `${num(s.itemsDone)}/${num(s.itemsTotal)}`, `${num(s.itemsRunning)} running`)}
    ${stat('elapsed', 'Elapsed', seconds(s.elapsedS))}
    ${stat('cache', 'Solver caches', pct(d.cacheHitRate, 1) + '%', `of ${fmt(c.queries)} queries answered without the core solver`)}
    </dl>`);

  if (samples.length) {
    const series = [
      ['pathsCompleted', 'Paths completed', '#1d4ed8', ''],
      ['tests', 'Tests', '#047857', ''],
      ['linesCovered', 'Lines covered', '#7c3aed', 'lines'],
      ['instructionsPerS', 'Instructions per second', '#b45309', 'per s'],
    ];
    const figures = series.map(([key, label, color, unit]) => `<figure class="chart-box">
      <figcaption>${label}</figcaption>
      ${CairnChart.line(samples.map(x => ({ t: num(x.tS), v: num(x[key]) })), { label, color, unit })}</figure>`).join('');
    const recent = samples.slice(-8).map(x => `<tr><th scope="row">${num(x.tS).toFixed(1)} s</th>
      <td class="n">${fmt(x.pathsCompleted)}</td><td class="n">${fmt(x.tests)}</td><td class="n">${fmt(x.linesCovered)}</td>
      <td class="n">${fmt(Math.round(num(x.instructionsPerS)))}</td></tr>`).join('');
    setSection('charts', `<div class="charts">${figures}</div>
      <details><summary>The latest samples as a table</summary><table><caption>Progress samples
      (one every ${num(h.intervalS)} s; older ones thinned)</caption><thead><tr><th scope="col">Time</th>
      <th scope="col" class="n">Paths</th><th scope="col" class="n">Tests</th><th scope="col" class="n">Lines covered</th>
      <th scope="col" class="n">Instructions/s</th></tr></thead><tbody>${recent}</tbody></table></details>`);
  } else {
    setSection('charts', '<p>The job has not started: no progress to chart yet.</p>');
  }

  setSection('errors', errors.length ? `<table><caption>${errors.length} error locations, one test kept for each.
    Reports: the distinct paths the workers reported there (each work item reports the first it meets).</caption>
    <thead><tr><th scope="col">Location</th><th scope="col">Error</th><th scope="col">Message</th>
    <th scope="col" class="n">Reports</th><th scope="col">Test</th><th scope="col">Reproduce</th></tr></thead><tbody>
    ${errors.map(g => `<tr><th scope="row"><a href="${jobHref(s.jobId)}/errors/${g.index}" data-field="error-location">${esc(base(g.error.file))}:${num(g.error.line)}</a></th>
      <td>${esc(g.error.type)} / ${esc(g.error.kind)}</td><td>${esc(g.error.message)}</td>
      <td class="n">${fmt(g.reports)}</td><td>${downloadLink(s.jobId, g)}</td>
      <td><code class="cmd">${esc(g.replayCommand)}</code></td></tr>`).join('')}</tbody></table>
    ${reportLinks(s.jobId)}`
    : `<p>No error found so far.</p>${reportLinks(s.jobId)}`);

  const files = d.files || [];
  setSection('coverage', files.length ? `<table><caption>Coverage of the program's own files
    ${num(d.sourcesAttached) ? '' : '(no sources were attached to this job: lines only, no text)'}</caption>
    <thead><tr><th scope="col">File</th><th scope="col">Covered</th><th scope="col">Source</th></tr></thead><tbody>
    ${files.map((f, i) => `<tr><th scope="row"><a href="${jobHref(s.jobId)}/files/${i}">${esc(base(f.path))}</a>
      <span class="path">${esc(f.path)}</span></th><td>${coverageBar(f.linesCovered, f.linesTotal)}</td>
      <td>${f.sourceName ? 'attached' : 'not available'}</td></tr>`).join('')}</tbody></table>
    <p><a href="/api/jobs/${encodeURIComponent(s.jobId)}/coverage.lcov" download="${esc(s.jobId)}.lcov" data-download
      data-key="dl-lcov">Line and branch coverage in lcov's format</a> (genhtml, Codecov, GitLab)</p>`
    : '<p>The program has no coverable line of its own (no debug information).</p>');

  const o = d.options || {}, limits = d.limits || {};
  const rows = [['Program', esc(s.fileName)], ['Replay with', esc(d.program)], ['Entry', esc(d.entry)],
    ['Arguments', (s.programArgs || []).map(a => `<code>${esc(a)}</code>`).join(' ') || 'none'],
    ['Engine flags', (o.extraFlags || []).map(f => `<code>${esc(f)}</code>`).join(' ') || 'none (the defaults of cairn run)'],
    ['Job time limit', num(limits.maxTimeS) ? `${num(limits.maxTimeS)} s` : 'none'],
    ['Workers at once', num(limits.maxWorkers) || 'no limit'],
    ['Submitted', new Date(num(s.submittedAt) * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')]];
  // Typed options (other clients of the jobs API set these rather than flags).
  for (const [k, label, prefix] of [['search', 'Search', 'SEARCH_'], ['solver', 'Solver', 'SOLVER_'], ['memoryModel', 'Memory model', 'MEMORY_']])
    if (o[k] && !String(o[k]).endsWith('_DEFAULT')) rows.push([label, esc(String(o[k]).replace(prefix, '').toLowerCase())]);
  for (const [k, label] of [['maxTimeS', 'Time per item'], ['maxInstructions', 'Instructions per item'],
    ['maxForks', 'Forks per item'], ['maxDepth', 'Depth'], ['seed', 'Seed']])
    if (num(o[k])) rows.push([label, fmt(o[k])]);
  for (const [k, label] of [['checkOverflow', '--check-overflow'], ['checkOvershift', '--check-overshift'],
    ['checkLeaks', '--check-leaks'], ['checkMemcleanup', '--check-memcleanup']])
    if (o[k]) rows.push(['Check', `<code>${label}</code>`]);
  setSection('options', `<dl class="pairs">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`);

  // A long job has thousands of items: those running and the latest 100 others are listed.
  const all = d.items || [];
  const others = all.filter(it => it.state !== 'running');
  const items = all.filter(it => it.state === 'running').concat(others.slice(-100));
  const left = all.length - items.length;
  setSection('items', `<table><caption>${all.length} work items${left ? ` (the ${left} oldest finished ones not listed)` : ''}</caption><thead><tr><th scope="col">Item</th>
    <th scope="col">State</th><th scope="col">Worker</th><th scope="col" class="n">Start states</th><th scope="col">Split from</th>
    <th scope="col" class="n">Paths</th><th scope="col" class="n">Tests</th><th scope="col" class="n">Instructions</th></tr></thead><tbody>
    ${items.map(it => {
      const ic = it.counters || {};
      return `<tr><th scope="row">${esc(it.itemId)}</th><td>${esc(it.state)}</td><td>${esc(it.worker) || '–'}</td>
        <td class="n">${num(it.startStates)}</td><td>${esc(it.parentId) || '–'}</td><td class="n">${fmt(ic.pathsCompleted)}</td>
        <td class="n">${fmt(ic.tests)}</td><td class="n">${fmt(ic.instructions)}</td></tr>`;
    }).join('')}</tbody></table>`);
}

// ---------- error detail ----------

function errorSkeleton(r) {
  show(`<p class="crumbs"><a href="#/">All jobs</a> › <a href="${jobHref(r.job)}">Job ${esc(r.job)}</a></p>
    <h1 tabindex="-1" id="error-title">Error</h1><div id="notice"></div><div id="error"></div>`, `Error of job ${r.job}`);
}

function snippet(text, line, context) {
  const lines = text.split('\n');
  const from = Math.max(1, line - context), to = Math.min(lines.length, line + context);
  let rows = '';
  for (let n = from; n <= to; ++n)
    rows += `<tr class="${n === line ? 'hit' : ''}"><th scope="row" class="ln">${n}</th>` +
      `<td>${n === line ? '<span class="sr-only">error here: </span>' : ''}<code>${esc(lines[n - 1])}</code></td></tr>`;
  return `<table class="source"><caption>Lines ${from} to ${to}</caption><tbody>${rows}</tbody></table>`;
}

async function updateError(r) {
  const d = await api(`/api/jobs/${encodeURIComponent(r.job)}/detail`);
  const g = (d.errors || []).find(x => num(x.index) === r.index);
  if (!g) {
    setSection('error', '<p>This job has no such error.</p>');
    return;
  }
  const e = g.error;
  let source = '<p>No source is available for this file: the job was submitted without its sources.</p>';
  if (g.fileIndex >= 0) {
    const f = await api(`/api/jobs/${encodeURIComponent(r.job)}/files/${g.fileIndex}`);
    if (f.text) source = snippet(f.text, num(e.line), 5);
    source += `<p><a href="${jobHref(r.job)}/files/${g.fileIndex}">The whole of ${esc(base(e.file))} with its coverage</a></p>`;
  }
  setSection('error-title', `${esc(e.kind)} at <span data-field="error-location">${esc(base(e.file))}:${num(e.line)}</span>`);
  setSection('error', `<dl class="pairs"><dt>Type</dt><dd>${esc(e.type)} / ${esc(e.kind)}</dd>
      <dt>Message</dt><dd>${esc(e.message)}</dd><dt>File</dt><dd><code>${esc(e.file)}</code>, line ${num(e.line)}</dd>
      <dt>Reports</dt><dd data-field="error-reports">${fmt(g.reports)} (distinct paths reported here: each work
      item that meets the location reports its first path)</dd></dl>
    <section aria-labelledby="snippet-h"><h2 id="snippet-h">Source</h2>${source}</section>
    <section aria-labelledby="stack-h"><h2 id="stack-h">Stack, innermost first</h2>${stackList(e.stack)}</section>
    <section aria-labelledby="test-h"><h2 id="test-h">Reproducing it</h2>
      <p>The test kept for this location: ${downloadLink(r.job, g)}. Beside the program, run:</p>
      <pre class="cmd"><code>${esc(g.replayCommand)}</code></pre>
      <p>(<code>cairn results ${esc(r.job)}</code> writes every test of the job.)</p></section>`);
}

// ---------- one file's coverage ----------

function fileSkeleton(r) {
  show(`<p class="crumbs"><a href="#/">All jobs</a> › <a href="${jobHref(r.job)}">Job ${esc(r.job)}</a></p>
    <h1 tabindex="-1" id="file-title">Source file</h1><div id="notice"></div><div id="file"></div>`, `File of job ${r.job}`);
}

async function updateFile(r) {
  const f = await api(`/api/jobs/${encodeURIComponent(r.job)}/files/${r.index}`);
  setSection('file-title', `${esc(base(f.path))}: ${fmt(f.linesCovered)} of ${fmt(f.linesTotal)} lines covered`);
  const covered = new Set((f.coveredLines || []).map(num)), coverable = new Set((f.coverableLines || []).map(num));
  if (!f.text) {
    setSection('file', `<p>No source is available for <code>${esc(f.path)}</code>. Covered lines:
      ${[...covered].sort((a, b) => a - b).join(', ') || 'none'}; not run:
      ${[...coverable].filter(n => !covered.has(n)).sort((a, b) => a - b).join(', ') || 'none'}.</p>`);
    return;
  }
  const rows = f.text.split('\n').map((text, i) => {
    const n = i + 1, mark = covered.has(n) ? 'covered' : coverable.has(n) ? 'missed' : '';
    return `<tr class="${mark}"><th scope="row" class="ln">${n}</th><td class="mark">${mark === 'covered' ? 'run' : mark === 'missed' ? 'not run' : ''}</td>` +
      `<td><code>${esc(text)}</code></td></tr>`;
  }).join('');
  setSection('file', `<p class="legend"><span class="swatch covered"></span> run by some path
    <span class="swatch missed"></span> holds code no path ran. <code>${esc(f.path)}</code></p>
    <table class="source"><caption>${esc(f.sourceName)}, as attached to the job</caption>
    <thead><tr><th scope="col">Line</th><th scope="col">Coverage</th><th scope="col">Code</th></tr></thead>
    <tbody>${rows}</tbody></table>`);
}

// ---------- workers and the solver pool ----------

function workersSkeleton() {
  show(`<h1 tabindex="-1">Workers</h1><div id="notice"></div>
    <section aria-labelledby="workers-h"><h2 id="workers-h">Registered workers</h2>
      <div id="workers-text" class="sr-summary" aria-live="polite"></div><div id="workers"></div></section>
    <section aria-labelledby="pool-h"><h2 id="pool-h">Solver pool</h2><div id="pool"></div></section>`, 'Workers');
}

async function updateWorkers() {
  const [w, p] = await Promise.all([api('/api/workers'), api('/api/solver-pool')]);
  const workers = w.workers || [];
  // What a screen reader hears when it changes (the table's heartbeat ages change every second).
  const busy = workers.filter(x => (x.items || []).length).length;
  setSection('workers-text', `<p>${workers.length} workers registered, ${busy} running items.</p>`);
  setSection('workers', workers.length ? `<table><caption>Workers: ${workers.length}; rates between their last two heartbeats</caption>
    <thead><tr><th scope="col">Worker</th><th scope="col">Name</th><th scope="col">Items running</th>
    <th scope="col" class="n">Live states</th><th scope="col" class="n">Instructions/s</th><th scope="col" class="n">Paths/s</th>
    <th scope="col" class="n">Items done</th><th scope="col" class="n">Last heartbeat</th></tr></thead><tbody>
    ${workers.map(x => `<tr data-worker="${esc(x.workerId)}"><th scope="row">${esc(x.workerId)}</th><td>${esc(x.name)}</td>
      <td>${(x.items || []).map(i => `<a href="${jobHref(i.split('.')[0])}">${esc(i)}</a>`).join(', ') || 'idle'}</td>
      <td class="n">${fmt(x.queueLength)}</td><td class="n">${fmt(Math.round(num(x.instructionsPerS)))}</td>
      <td class="n">${num(x.pathsPerS).toFixed(1)}</td><td class="n" data-field="items-done">${fmt(x.itemsDone)}</td>
      <td class="n">${num(x.heartbeatAgeS).toFixed(1)} s ago</td></tr>`).join('')}</tbody></table>`
    : '<p>No worker is registered.</p>');
  if (!p.configured) {
    setSection('pool', `<p>The coordinator was started without <code>--solver-pool</code>, so it cannot ask the pool.
      Each job's page shows the share of its queries the workers' own caches answered.</p>`);
    return;
  }
  const replicas = p.replicas || [];
  const layers = replicas.filter(r => r.reachable).map(r => {
    const rows = (r.stats.layers || []).map(l => `<tr><th scope="row">${esc(l.layer)}</th>
      <td class="n">${fmt(l.queries)}</td><td class="n">${fmt(l.answered)}</td>
      <td class="n">${pct(l.answered, l.queries)}%</td><td class="n">${fmt(l.unknown)}</td>
      <td class="n">${num(l.seconds).toFixed(3)} s</td></tr>`).join('');
    return rows ? `<table><caption>Layers of ${esc(r.address)}: the shared cache first, then each lane's solver chain</caption>
      <thead><tr><th scope="col">Layer</th><th scope="col" class="n">Queries</th><th scope="col" class="n">Answered there</th>
      <th scope="col" class="n">Share</th><th scope="col" class="n">Unknown</th><th scope="col" class="n">Time</th></tr></thead>
      <tbody>${rows}</tbody></table>` : '';
  }).join('');
  setSection('pool', `<table><caption>Replicas of the solver pool, asked now</caption><thead><tr>
    <th scope="col">Replica</th><th scope="col" class="n">Cache hit rate</th><th scope="col" class="n">Lookups</th>
    <th scope="col" class="n">Entries</th><th scope="col" class="n">Solved by a lane</th><th scope="col" class="n">Lanes</th>
    <th scope="col" class="n">Solving / queued</th><th scope="col" class="n">Up</th></tr></thead><tbody>
    ${replicas.map(r => {
      if (!r.reachable) return `<tr><th scope="row">${esc(r.address)}</th><td colspan="7" class="problem">unreachable: ${esc(r.error)}</td></tr>`;
      const s = r.stats || {}, cache = s.cache || {};
      return `<tr><th scope="row">${esc(r.address)}</th><td class="n" data-field="pool-hit-rate">${pct(cache.hitRate, 1)}%</td>
        <td class="n">${fmt(cache.lookups)}</td><td class="n">${fmt(cache.entries)}</td><td class="n">${fmt(s.solved)}</td>
        <td class="n">${num(s.lanes)} (${esc(s.solver)})</td><td class="n">${num(s.solving)} / ${num(s.queued)}</td>
        <td class="n">${num(s.uptimeS).toFixed(0)} s</td></tr>`;
    }).join('')}</tbody></table>${layers}`);
}

// ---------- wiring ----------

// Downloads carry the token too: fetched with the header and saved from memory.
document.addEventListener('click', async ev => {
  const a = ev.target.closest('a[data-download]');
  if (a && token()) {
    ev.preventDefault();
    const r = await fetch(a.getAttribute('href'), { headers: { Authorization: 'Bearer ' + token() } });
    if (!r.ok) return;
    const url = URL.createObjectURL(await r.blob());
    const save = document.createElement('a');
    save.href = url;
    save.download = a.getAttribute('download');
    document.body.appendChild(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    return;
  }
  if (ev.target.closest('a[data-skip]')) { // the skip link moves focus without changing the route
    ev.preventDefault();
    main.focus();
  }
});

window.addEventListener('hashchange', () => navigate(false));
navigate(true);
setInterval(refresh, 1000);
