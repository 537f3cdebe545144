// Line charts of a job's progress over time, drawn as inline SVG: no library, nothing fetched.
// Each chart is one series on its own scale (paths, tests, covered lines and instructions/s
// differ by orders of magnitude), with a text alternative for screen readers.
'use strict';

window.CairnChart = (() => {
  const W = 520, H = 150, PAD_L = 58, PAD_R = 12, PAD_T = 12, PAD_B = 28;

  // Round numbers for the axis: 1, 2 or 5 times a power of ten, at least `max`.
  function niceCeiling(max) {
    if (!(max > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(max)));
    for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
    return 10 * p;
  }

  function compact(n) {
    if (n !== 0 && Math.abs(n) < 0.1) return n.toPrecision(2).replace(/0+$/, '');
    if (Math.abs(n) >= 1e9) return (n / 1e9).toFixed(1).replace(/\.0$/, '') + 'G';
    if (Math.abs(n) >= 1e6) return (n / 1e6).toFixed(1).replace(/\.0$/, '') + 'M';
    if (Math.abs(n) >= 1e4) return (n / 1e3).toFixed(1).replace(/\.0$/, '') + 'k';
    return String(Math.round(n * 100) / 100);
  }

  // samples: [{t, v}], at least one. Returns the SVG's markup.
  function line(samples, { label, color, unit }) {
    const tMax = Math.max(...samples.map(s => s.t)) || 1;
    const vMax = niceCeiling(Math.max(...samples.map(s => s.v)));
    const x = t => PAD_L + (W - PAD_L - PAD_R) * (t / tMax);
    const y = v => PAD_T + (H - PAD_T - PAD_B) * (1 - v / vMax);
    const points = samples.map(s => `${x(s.t).toFixed(1)},${y(s.v).toFixed(1)}`);
    if (samples.length === 1) points.push(`${x(tMax).toFixed(1)},${y(samples[0].v).toFixed(1)}`);
    const last = samples[samples.length - 1];
    const summary = `${label}: ${compact(last.v)}${unit ? ' ' + unit : ''} at ${compact(last.t)} s` +
      ` (${samples.length} samples, highest ${compact(Math.max(...samples.map(s => s.v)))})`;
    const grid = [0, 0.5, 1].map(f => {
      const v = vMax * f, yy = y(v).toFixed(1);
      return `<line x1="${PAD_L}" x2="${W - PAD_R}" y1="${yy}" y2="${yy}" class="grid"/>` +
        `<text x="${PAD_L - 6}" y="${yy}" class="axis" text-anchor="end" dominant-baseline="middle">${compact(v)}</text>`;
    }).join('');
    const ticks = [0, 0.5, 1].map(f => {
      const t = tMax * f, xx = x(t).toFixed(1), anchor = f === 0 ? 'start' : f === 1 ? 'end' : 'middle';
      return `<text x="${xx}" y="${H - 8}" class="axis" text-anchor="${anchor}">${compact(t)} s</text>`;
    }).join('');
    const area = `${x(0).toFixed(1)},${y(0).toFixed(1)} ${points.join(' ')} ${points[points.length - 1].split(',')[0]},${y(0).toFixed(1)}`;
    return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}" class="chart" preserveAspectRatio="xMidYMid meet">` +
      `<title>${summary}</title>${grid}${ticks}` +
      `<polygon points="${area}" fill="${color}" fill-opacity="0.12"/>` +
      `<polyline points="${points.join(' ')}" fill="none" stroke="${color}" stroke-width="2.5" stroke-linejoin="round"/>` +
      `<circle cx="${x(last.t).toFixed(1)}" cy="${y(last.v).toFixed(1)}" r="3.5" fill="${color}"/></svg>`;
  }

  return { line, compact };
})();
