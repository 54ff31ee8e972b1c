// The timeline as SVG: a lane per worker (its lease as a bar, its steps as
// letters), a lane for the user's cancels, one for the job table and one
// per remote target. Each step's outcome sits on the lane of the resource
// it reached: ✓ took effect, ✗ rejected, ↺ duplicate, · nothing, ⌛ waiting,
// ‼ a violation, ? hidden. Symbols carry every meaning; colour repeats it.
//
// Everything is computed by the simulator (the `timeline` object of the
// wasm crate); this file only lays it out. Stepping moves a cursor: it
// changes a few attributes, never rebuilds the drawing.

import { h, s, clear, inline } from './dom.js';
import { t } from './strings.js';

const COL = 40;
const LANE = 48;
const LABEL = 96;
const AXIS = 26;
const MAX_EMPTY_RUN = 3;
const LEASE_END_SLACK = 4;

const GLYPH = {
  claim: 'C', claim_next: 'C', update_claim: 'U', renew: 'R', write: 'W', finish: 'F', fail: 'E',
  cancel: 'K', register: 'G', check: '?', crash: 'X', pause: 'Z', resume: '>', begin: 'B',
  select: 'S', select_for_update: 'L', select_skip_locked: 'Q', commit: 'M', rollback: '<',
};

const SYMBOL = { ok: '✓', rejected: '✗', duplicate: '↺', noop: '·', waiting: '⌛' };

/** The symbol of a step's outcome (‼ for a revealed violation, ? hidden). */
export function outcomeSymbol(step) {
  if (step.violation === true) return '‼';
  if (step.outcome === null || step.outcome === undefined) return '?';
  return SYMBOL[step.outcome] ?? '·';
}

function outcomeClass(step) {
  if (step.violation === true) return 'violation';
  if (step.outcome === null || step.outcome === undefined) return 'hidden';
  return step.outcome;
}

/** Columns: one per step, one per quiet tick, one `⋯` per long quiet run. */
function layoutColumns(data) {
  const steps = data.run.steps;
  const last = steps.length ? steps[steps.length - 1].at : 0;
  const ticks = new Set([0, last + 1]);
  for (const step of steps) ticks.add(step.at);
  for (const lease of data.leases) {
    if (lease.expiry >= 0 && lease.expiry <= last + LEASE_END_SLACK) ticks.add(lease.expiry);
  }
  const sorted = [...ticks].sort((a, b) => a - b);
  const columns = [];
  const stepColumn = new Array(steps.length).fill(0);
  let next = 0;
  sorted.forEach((tick, position) => {
    const before = columns.length;
    while (next < steps.length && steps[next].at === tick) {
      stepColumn[next] = columns.length;
      columns.push({ tick, step: next });
      next += 1;
    }
    if (columns.length === before) columns.push({ tick, step: null });
    const following = sorted[position + 1];
    if (following !== undefined) {
      const quiet = following - tick - 1;
      if (quiet > MAX_EMPTY_RUN) columns.push({ tick: tick + 1, to: following - 1, step: null, gap: true });
      else for (let empty = tick + 1; empty < following; empty += 1) columns.push({ tick: empty, step: null });
    }
  });
  return { columns, stepColumn };
}

function lanesOf(data, extraRows) {
  const lanes = [];
  const worker = new Map();
  for (const id of data.workers) {
    worker.set(id, lanes.length);
    lanes.push({ label: id, kind: 'worker' });
  }
  let user = null;
  if (data.run.steps.some((step) => step.worker === null)) {
    user = lanes.length;
    lanes.push({ label: t('user'), kind: 'user' });
  }
  const jobs = lanes.length;
  lanes.push({ label: data.jobs.length === 1 ? `${t('jobs')} ${data.jobs[0]}` : t('jobs'), kind: 'jobs' });
  const target = new Map();
  for (const tg of data.targets) {
    target.set(tg.id, lanes.length);
    lanes.push({ label: tg.id, sub: tg.protect, kind: 'target' });
  }
  const extra = extraRows.map((row) => {
    lanes.push({ label: row.label, kind: 'extra' });
    return lanes.length - 1;
  });
  return { lanes, worker, user, jobs, target, extra };
}

function resourceLane(step, lanes) {
  if (step.do === 'pause' || step.do === 'resume' || step.do === 'crash') return null;
  if (step.do === 'write' || step.do === 'register') return step.target === null ? null : lanes.target.get(step.target);
  return lanes.jobs;
}

/**
 * Draws `data` (a timeline object) into a new element and returns
 * `{ element, select(index), setExtra(rows) }`.
 *
 * options.extra: rows under the lanes, `{ label, cells: Map(step → {text, cls}) }`
 * options.onActivate(index): a step was clicked or chosen with Space/Enter
 * options.onSelect(index): the cursor moved
 */
export function renderTimeline(data, options = {}) {
  const steps = data.run.steps;
  const { columns, stepColumn } = layoutColumns(data);
  let extraRows = options.extra ?? [];
  const lanes = lanesOf(data, extraRows);
  const width = LABEL + columns.length * COL + 8;
  const height = AXIS + lanes.lanes.length * LANE + 4;
  const laneY = (lane) => AXIS + lane * LANE;
  const colX = (column) => LABEL + column * COL;
  const stepX = (index) => colX(stepColumn[index] ?? 0);
  const xOfTick = (tick) => {
    const found = columns.findIndex((c) => (c.gap ? c.to >= tick : c.tick >= tick));
    return found < 0 ? width - 8 : colX(found);
  };

  const svg = s('svg', {
    class: 'timeline-svg', width, height, viewBox: `0 0 ${width} ${height}`,
    role: 'img', 'aria-label': `${t('timeline')}: ${data.title}`,
  });
  const cursor = s('rect', { class: 'cursor', x: 0, y: AXIS - 4, width: COL, height: height - AXIS + 2, rx: 4 });
  svg.append(cursor);

  // Lanes and their labels.
  lanes.lanes.forEach((lane, index) => {
    const y = laneY(index);
    svg.append(s('rect', { class: `lane lane-${lane.kind}`, x: 0, y, width, height: LANE }));
    const label = s('text', { class: 'lane-label', x: 6, y: y + LANE / 2 + 4 }, lane.label);
    svg.append(label);
    if (lane.sub) svg.append(s('text', { class: 'lane-sub', x: 6, y: y + LANE - 5 }, lane.sub));
  });

  // The tick axis.
  let lastTick = null;
  columns.forEach((column, index) => {
    const x = colX(index) + COL / 2;
    if (column.gap) {
      svg.append(s('text', { class: 'tick', x, y: AXIS - 10, 'text-anchor': 'middle' }, '⋯'));
    } else if (column.tick !== lastTick) {
      svg.append(s('text', { class: 'tick', x, y: AXIS - 10, 'text-anchor': 'middle' }, String(column.tick)));
      svg.append(s('line', { class: 'tick-line', x1: colX(index), x2: colX(index), y1: AXIS - 4, y2: height }));
    }
    lastTick = column.tick;
  });

  // Paused and crashed stretches.
  const idleSince = new Map();
  const idle = [];
  steps.forEach((step, index) => {
    if (step.worker === null) return;
    const x = stepX(index);
    if (step.do === 'pause' && !idleSince.has(step.worker)) idleSince.set(step.worker, { x: x + COL, crashed: false });
    else if (step.do === 'crash') {
      const open = idleSince.get(step.worker);
      if (open) idle.push({ worker: step.worker, from: open.x, to: x, crashed: open.crashed });
      idleSince.set(step.worker, { x: x + COL, crashed: true });
    } else if (step.do === 'resume' && idleSince.has(step.worker)) {
      const open = idleSince.get(step.worker);
      idle.push({ worker: step.worker, from: open.x, to: x, crashed: open.crashed });
      idleSince.delete(step.worker);
    }
  });
  for (const [worker, open] of idleSince) idle.push({ worker, from: open.x, to: width - 8, crashed: open.crashed });
  for (const run of idle) {
    const lane = lanes.worker.get(run.worker);
    if (lane === undefined || run.to <= run.from) continue;
    const y = laneY(lane) + LANE / 2 - 6;
    svg.append(s('line', { class: run.crashed ? 'idle crashed' : 'idle', x1: run.from, x2: run.to, y1: y, y2: y },
      s('title', {}, `${run.worker}: ${run.crashed ? 'crashed' : 'paused'}`)));
  }

  // Leases: a bar from the claim to its expiry, or to the step that ended it.
  for (const lease of data.leases) {
    const lane = lanes.worker.get(lease.worker);
    if (lane === undefined) continue;
    const start = stepX(lease.start_step) + COL / 2;
    const expiryX = Math.max(xOfTick(lease.expiry), start + 4);
    let end = expiryX;
    let how = 'expired';
    if (lease.closed) {
      const closedX = lease.closed.end === 'ended' ? stepX(lease.closed.step) + COL / 2 : stepX(lease.closed.step);
      if (closedX < expiryX) { end = closedX; how = lease.closed.end; }
    }
    if (how === 'expired' && lease.expiry > (steps.length ? steps[steps.length - 1].at : 0) + LEASE_END_SLACK) how = 'beyond';
    const y = laneY(lane) + LANE - 10;
    const g = s('g', { class: `lease lease-${how}` },
      s('title', {}, `${lease.worker}: lease on ${lease.job}, generation ${lease.generation}, until ${lease.until} — ${how}`),
      s('rect', { x: start, y, width: Math.max(end - start, 3), height: 6, rx: 2 }),
      s('line', { class: 'lease-cap', x1: end, x2: end, y1: y - 3, y2: y + 9 }),
      s('text', { class: 'lease-label', x: start + 4, y: y - 2 }, `g${lease.generation} ≤${lease.until}`));
    svg.append(g);
  }

  // Steps: a letter on the actor's lane, the outcome on the resource's lane.
  const stepNodes = [];
  steps.forEach((step, index) => {
    const x = stepX(index) + COL / 2;
    const actor = step.worker === null ? lanes.user : lanes.worker.get(step.worker);
    const resource = resourceLane(step, lanes);
    const g = s('g', { class: `step outcome-${outcomeClass(step)}`, 'data-step': index });
    const ay = actor === null || actor === undefined ? null : laneY(actor) + LANE / 2 - 6;
    if (resource !== null && resource !== undefined && ay !== null) {
      const ry = laneY(resource) + LANE / 2 - 4;
      g.append(s('line', { class: 'link', x1: x, x2: x, y1: ay + 9, y2: ry - 9 }));
    }
    if (ay !== null) {
      g.append(s('rect', { class: 'glyph-box', x: x - 9, y: ay - 9, width: 18, height: 18, rx: 4 }));
      g.append(s('text', { class: 'glyph', x, y: ay + 4, 'text-anchor': 'middle' }, GLYPH[step.do] ?? '•'));
    }
    if (resource !== null && resource !== undefined) {
      const ry = laneY(resource) + LANE / 2 - 4;
      g.append(s('text', { class: 'symbol', x, y: ry + 6, 'text-anchor': 'middle' }, outcomeSymbol(step)));
    }
    g.append(s('title', {}, data.narration[index] ?? ''));
    svg.append(g);
    stepNodes.push(g);
  });

  // Extra rows (marks, grades).
  const extraLayer = s('g', { class: 'extra' });
  svg.append(extraLayer);
  function drawExtra() {
    clear(extraLayer);
    extraRows.forEach((row, r) => {
      const lane = lanes.extra[r];
      if (lane === undefined) return;
      for (const [index, cell] of row.cells) {
        const x = stepX(index) + COL / 2;
        extraLayer.append(s('text', { class: `extra-cell ${cell.cls ?? ''}`, x, y: laneY(lane) + LANE / 2 + 5, 'text-anchor': 'middle' }, cell.text));
      }
    });
  }
  drawExtra();

  // Hit areas over every step column, on top.
  steps.forEach((_, index) => {
    svg.append(s('rect', {
      class: 'hit', x: stepX(index), y: AXIS - 4, width: COL, height: height - AXIS + 2, 'data-step': index,
      onclick: () => { select(index); options.onActivate?.(index); },
    }));
  });

  // Around the drawing: controls, the current step in words, the job table.
  const scroller = h('div', { class: 'timeline-scroll' }, svg);
  const live = h('p', { class: 'current-step', 'aria-live': 'polite' });
  const note = h('p', { class: 'step-note' });
  const table = h('div', { class: 'job-table' });
  const position = h('span', { class: 'position' });
  const button = (label, go) => h('button', { type: 'button', onclick: go }, label);
  let current = Math.min(options.initial ?? 0, Math.max(steps.length - 1, 0));
  const controls = h('div', { class: 'timeline-controls' },
    button(t('first'), () => select(0)),
    button(t('prev'), () => select(current - 1)),
    position,
    button(t('next'), () => select(current + 1)),
    button(t('last'), () => select(steps.length - 1)));

  const narrationList = h('ol', { class: 'narration', start: 0 });
  steps.forEach((step, index) => {
    narrationList.append(h('li', {
      'data-step': index,
      onclick: () => select(index),
    }, h('span', { class: `sym outcome-${outcomeClass(step)}`, 'aria-hidden': 'true' }, outcomeSymbol(step)), ' ', inline(data.narration[index] ?? '')));
  });
  const violations = data.run.violations ?? [];
  const verdictLine = data.revealed
    ? h('p', { class: violations.length ? 'verdict bad' : 'verdict good' },
      violations.length ? `‼ ${violations.length} ${t(violations.length === 1 ? 'violation' : 'violations')}: ${violations.map((v) => `#${v.step} ${v.kind}`).join(', ')}` : `✓ ${t('noViolations')}`)
    : null;

  const frame = h('div', {
    class: 'timeline', tabindex: 0, role: 'group',
    'aria-label': `${t('timeline')}: ${data.title}. ${t('timelineHelp')}`,
    onkeydown: (event) => {
      const keys = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: steps.length - 1 };
      if (event.key in keys) { event.preventDefault(); select(keys[event.key]); }
      else if ((event.key === ' ' || event.key === 'Enter') && options.onActivate) { event.preventDefault(); options.onActivate(current); }
    },
  }, scroller);

  const legend = h('details', { class: 'legend' }, h('summary', {}, t('legend')),
    h('ul', {}, t('legendItems').map(([sym, words]) => h('li', {}, h('span', { class: 'sym' }, sym), ' ', words)),
      h('li', {}, Object.entries(GLYPH).filter(([name]) => steps.some((st) => st.do === name))
        .map(([name, glyph]) => `${glyph} ${name}`).join(' · '))));

  const element = h('section', { class: 'timeline-block', 'aria-label': data.title },
    h('h4', { class: 'timeline-title' }, data.title),
    data.description ? h('p', { class: 'timeline-description' }, inline(data.description)) : null,
    frame, h('p', { class: 'help' }, t('timelineHelp')), controls, live, note, table, verdictLine, legend,
    h('details', { class: 'narration-block', open: options.openNarration ? true : null },
      h('summary', {}, t('narration')), narrationList));

  function jobTable(index) {
    const rows = new Map(data.jobs.map((job) => [job, { owner: null, lease_until: null, fence: 0, state: 'ready' }]));
    for (let k = 0; k <= index && k < data.rows.length; k += 1) {
      const row = data.rows[k];
      if (row) rows.set(row.job, row);
    }
    const head = h('tr', {}, h('th', { scope: 'col' }, 'job'), h('th', { scope: 'col' }, t('owner')),
      h('th', { scope: 'col' }, t('leaseUntil')), h('th', { scope: 'col' }, t('fence')), h('th', { scope: 'col' }, t('state')));
    const body = [...rows].map(([job, row]) => h('tr', {}, h('th', { scope: 'row' }, job), h('td', {}, row.owner ?? '—'),
      h('td', {}, row.lease_until ?? 'NULL'), h('td', {}, row.fence), h('td', {}, row.state)));
    return h('table', {}, h('caption', {}, t('jobTable')), h('thead', {}, head), h('tbody', {}, body));
  }

  function select(index) {
    if (!steps.length) { position.textContent = '—'; return; }
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    cursor.setAttribute('x', String(stepX(current)));
    for (const node of stepNodes) node.classList.remove('current');
    stepNodes[current].classList.add('current');
    for (const item of narrationList.children) item.removeAttribute('aria-current');
    narrationList.children[current]?.setAttribute('aria-current', 'step');
    position.textContent = `${t('step')} ${current} / ${steps.length - 1} · ${t('tick')} ${step.at}`;
    clear(live).append(`${outcomeSymbol(step)} `, ...inline(data.narration[current] ?? ''));
    note.textContent = data.notes[current] ? `“${data.notes[current]}”` : '';
    clear(table).append(jobTable(current));
    const left = stepX(current) - scroller.clientWidth / 2;
    if (scroller.scrollWidth > scroller.clientWidth) scroller.scrollLeft = Math.max(0, left);
    options.onSelect?.(current);
  }

  select(current);
  return {
    element,
    select,
    current: () => current,
    setExtra(rows) { extraRows = rows; drawExtra(); },
  };
}
