// The timeline as SVG. The layout — lanes, columns, tick labels, lease
// bars, paused stretches, each step's glyph, word, outcome symbol (✓ took
// effect, ✗ rejected, ↺ duplicate, · nothing, ◷ waiting, ‼ a violation,
// ? hidden: text glyphs with no emoji presentation), narration and
// job-table row, and each request in flight from its send to its arrival —
// is sim-core's `Diagram`, the one the terminal draws too, received from
// the wasm crate. This file only scales its columns and lanes to pixels.
// Stepping moves a cursor: it changes a few attributes, never rebuilds the
// drawing. The lane labels are a second SVG, sticky at the left edge of
// the scroller; the lease bars pale as their time is spent; Play steps on
// its own, each step's link drawn from actor to resource, a refusal
// bouncing and a violation flashing (CSS, off under reduced motion).

import { h, s, clear, inline, plain } from './dom.js';
import { t, tf, legendItems } from './strings.js';

const COL = 40;
const LANE = 48;
const LEASE_LANE = 22;
const LABEL = 96;
const AXIS = 26;
// The first timeline of the page opens its legend; later ones keep it shut.
let legendShown = false;

/** A step's tooltip: the action in words first (the glyph alone does not
 * say it), then what it did, without the text's markers. */
const tooltip = (step) => `${step.glyph} ${step.word} — ${plain(step.narration)}`;

/** Lanes of the diagram plus the extra rows, with their heights and tops. */
function laneGeometry(data, extraRows) {
  const lanes = data.lanes.map((lane) => ({ ...lane }));
  const extra = extraRows.map((row) => {
    lanes.push({ label: row.label, kind: 'extra' });
    return lanes.length - 1;
  });
  let y = AXIS;
  for (const lane of lanes) {
    lane.y = y;
    lane.height = lane.kind === 'lease' ? LEASE_LANE : LANE;
    y += lane.height;
  }
  return { lanes, extra, bottom: y };
}

/**
 * Draws `data` (a timeline object) into a new element and returns
 * `{ element, select(index), setExtra(rows) }`.
 *
 * options.extra: rows under the lanes, `{ label, cells: Map(step → {text, cls}) }`
 * options.onActivate(index): a step was clicked or chosen with Space/Enter
 * options.help: the help line, saying what that does (default: moving only)
 * options.onSelect(index): the cursor moved
 */
export function renderTimeline(data, options = {}) {
  const steps = data.steps;
  // What Space or Enter on a step does, where a step is an answer's.
  const help = options.help ?? t('timelineHelp');
  let extraRows = options.extra ?? [];
  const geometry = laneGeometry(data, extraRows);
  const lanes = geometry.lanes;
  const width = LABEL + data.columns.length * COL + 8;
  const height = geometry.bottom + 4;
  const colX = (column) => LABEL + column * COL;
  const stepX = (index) => colX(steps[index]?.column ?? 0);
  const middle = (lane) => lanes[lane].y + lanes[lane].height / 2;

  const svg = s('svg', {
    class: 'timeline-svg', width, height, viewBox: `0 0 ${width} ${height}`,
    role: 'img', 'aria-label': `${t('timeline')}${t('labelSep')}${data.title}`,
  });
  const cursor = s('rect', { class: 'cursor', x: 0, y: AXIS - 4, width: COL, height: height - AXIS + 2, rx: 4 });
  svg.append(cursor);

  // Lanes, and their labels in the sticky SVG.
  const labels = s('svg', { class: 'lane-labels', width: LABEL, height, 'aria-hidden': 'true' });
  for (const lane of lanes) {
    const band = { class: `lane lane-${lane.kind}`, x: 0, y: lane.y, width, height: lane.height };
    svg.append(s('rect', band));
    labels.append(s('rect', { ...band, width: LABEL }));
    const labelY = lane.kind === 'lease' ? lane.y + lane.height / 2 + 4 : lane.y + LANE / 2 + 4;
    if (lane.label) labels.append(s('text', { class: lane.kind === 'lease' ? 'lane-sub' : 'lane-label', x: 6, y: labelY }, lane.label));
    if (lane.sub) labels.append(s('text', { class: 'lane-sub', x: 6, y: lane.y + LANE - 5 }, lane.sub));
  }

  // The tick axis: a label over each tick's steps (a bracket when they
  // are several), its words as the tooltip (what a ⋯ skips).
  for (const label of data.tick_labels) {
    const x = colX(label.column);
    const w = label.span * COL;
    svg.append(s('g', { class: 'tick' }, s('title', {}, label.words),
      s('text', { x: x + w / 2, y: AXIS - 10, 'text-anchor': 'middle' }, label.text),
      label.span > 1 ? s('line', { class: 'tick-line', x1: x + 4, x2: x + w - 4, y1: AXIS - 5, y2: AXIS - 5 }) : null));
    if (!label.gap) svg.append(s('line', { class: 'tick-line', x1: x, x2: x, y1: AXIS - 4, y2: height }));
  }

  // Paused and crashed stretches.
  for (const run of data.idle) {
    const from = colX(run.from_column);
    const to = colX(run.to_column);
    if (to <= from) continue;
    const y = middle(run.lane) - 6;
    svg.append(s('line', { class: run.crashed ? 'idle crashed' : 'idle', x1: from, x2: to, y1: y, y2: y },
      s('title', {}, `${lanes[run.lane].label}: ${run.words}`)));
  }

  // Leases: a bar from the claim to where it ended (a cap), or on past
  // the edge (a chevron: clipped, not ended); the part spent by the
  // current step pales.
  const leaseBars = data.leases.map((lease) => {
    const start = colX(lease.start_column) + COL / 2;
    const end = Math.max(colX(lease.end_column), start + 4);
    const y = middle(lease.lane) - 1;
    const spent = s('rect', { class: 'lease-spent', x: start, y, height: 6, width: 0 });
    svg.append(s('g', { class: `lease lease-${lease.end}` },
      s('title', {}, lease.words),
      s('rect', { x: start, y, width: Math.max(end - start, 3), height: 6, rx: 2 }), spent,
      s('path', { class: 'lease-cap', d: lease.end === 'beyond' ? `M${end - 7},${y - 4}l6,7l-6,7` : `M${end},${y - 3}v12` }),
      s('text', { class: 'lease-label', x: start + 4, y: y - 2 }, `g${lease.generation} ≤${lease.until}`)));
    return { start, end, spent };
  });

  // Steps: a letter on the actor's lane, the outcome on the resource's lane.
  const stepNodes = steps.map((step, index) => {
    const x = stepX(index) + COL / 2;
    const g = s('g', { class: `step outcome-${step.mark}`, 'data-step': index });
    const ay = step.actor === null ? null : middle(step.actor) - 6;
    const ry = step.resource === null ? null : middle(step.resource) - 4;
    if (ay !== null && ry !== null) g.append(s('line', { class: 'link', x1: x, x2: x, y1: ay + 9, y2: ry - 9 }));
    if (ay !== null) {
      g.append(s('rect', { class: 'glyph-box', x: x - 9, y: ay - 9, width: 18, height: 18, rx: 4 }));
      g.append(s('text', { class: 'glyph', x, y: ay + 4, 'text-anchor': 'middle' }, step.glyph));
    }
    if (ry !== null) g.append(s('text', { class: 'symbol', x, y: ry + 6, 'text-anchor': 'middle' }, step.symbol));
    g.append(s('title', {}, tooltip(step)));
    svg.append(g);
    return g;
  });

  // Requests in flight: an arrow from the sender's lane at the send to the
  // target's lane at the arrival (to the right edge while it is still
  // travelling), its words as the tooltip. It drops to the target's lane
  // within the send's column and runs along that lane above its symbols,
  // so it crosses no other step's marker (a straight slope went through
  // the lanes between).
  const flights = data.flights ?? [];
  const flightNodes = flights.map((flight) => {
    if (flight.from_lane === null || flight.to_lane === null) return null;
    const x1 = colX(flight.from_column) + COL / 2 + 9;
    const y1 = middle(flight.from_lane) - 6;
    const open = flight.deliver_step === null;
    const x2 = open ? colX(flight.to_column) : colX(flight.to_column) + COL / 2 - 9;
    const y2 = middle(flight.to_lane) - 4;
    const along = middle(flight.to_lane) - 17;
    const dropTo = Math.min(x1 + COL / 2 - 9, x2);
    const points = open
      ? [[x1, y1], [dropTo, along], [x2, along]]
      : [[x1, y1], [dropTo, along], [Math.max(dropTo, x2 - 8), along], [x2, y2]];
    // The arrowhead, along the last stretch's direction.
    const [[px, py], [qx, qy]] = points.slice(-2);
    const angle = Math.atan2(qy - py, qx - px);
    const head = [-0.45, 0.45].map((turn) => `${qx - 8 * Math.cos(angle + turn)},${qy - 8 * Math.sin(angle + turn)}`);
    const g = s('g', { class: open ? 'flight flight-open' : 'flight', 'data-request': flight.request },
      s('title', {}, flight.words),
      s('polyline', { points: points.map((p) => p.join(',')).join(' ') }),
      s('polygon', { points: `${qx},${qy} ${head.join(' ')}` }));
    svg.append(g);
    return g;
  });

  // Extra rows (marks, grades).
  const extraLayer = s('g', { class: 'extra' });
  svg.append(extraLayer);
  function drawExtra() {
    clear(extraLayer);
    extraRows.forEach((row, r) => {
      const lane = geometry.extra[r];
      if (lane === undefined) return;
      for (const [index, cell] of row.cells) {
        const x = stepX(index) + COL / 2;
        extraLayer.append(s('text', { class: `extra-cell ${cell.cls ?? ''}`, x, y: middle(lane) + 5, 'text-anchor': 'middle' }, cell.text));
      }
    });
  }
  drawExtra();

  // Hit areas over every step column, on top: they carry the step's
  // tooltip too, since the pointer is over them, not over the marker.
  steps.forEach((step, index) => {
    svg.append(s('rect', {
      class: 'hit', x: stepX(index), y: AXIS - 4, width: COL, height: height - AXIS + 2, 'data-step': index,
      onclick: () => { select(index); options.onActivate?.(index); },
    }, s('title', {}, tooltip(step))));
  });

  // Around the drawing: controls, the current step in words, the job table.
  const scroller = h('div', { class: 'timeline-scroll' }, labels, svg);
  const live = h('p', { class: 'current-step', 'aria-live': 'polite' });
  const note = h('p', { class: 'step-note' });
  const trip = h('p', { class: 'step-flight' });
  const table = h('div', { class: 'job-table' });
  const sqlBox = h('div', { class: 'step-sql' });
  const position = h('span', { class: 'position' });
  const button = (label, go) => h('button', { type: 'button', onclick: go }, label);
  let current = Math.min(options.initial ?? 0, Math.max(steps.length - 1, 0));
  // Play: a step every 1.2 s to the last (from the first when at the end:
  // it stands in for a First button; Home goes there too).
  let timer = 0;
  const play = button(t('play'), () => toggle(!timer));
  const toggle = (on) => {
    clearInterval(timer);
    timer = on && setInterval(() => (current < steps.length - 1 && element.isConnected ? select(current + 1) : toggle()), 1200);
    play.textContent = t(on ? 'pause' : 'play');
    if (on && current >= steps.length - 1) select(0);
  };
  const controls = h('div', { class: 'timeline-controls' }, play,
    button(t('prev'), () => select(current - 1)),
    position,
    button(t('next'), () => select(current + 1)),
    button(t('last'), () => select(steps.length - 1)));

  const narrationList = h('ol', { class: 'narration', start: 0 });
  steps.forEach((step, index) => {
    narrationList.append(h('li', {
      'data-step': index,
      onclick: () => select(index),
    }, h('span', { class: `sym outcome-${step.mark}`, 'aria-hidden': 'true' }, step.symbol), ' ', inline(step.narration)));
  });
  const violations = data.violations ?? [];
  const verdictLine = data.violations
    ? h('p', { class: violations.length ? 'verdict bad' : 'verdict good' },
      violations.length ? `‼ ${violations.length} ${t(violations.length === 1 ? 'violation' : 'violations')}: ${violations.map((v) => `${tf('stepNumber', { n: v.step })}: ${v.words ?? v.kind}`).join('; ')}` : `✓ ${t('noViolations')}`)
    : null;

  const frame = h('div', {
    class: 'timeline', tabindex: 0, role: 'group',
    'aria-label': `${t('timeline')}: ${data.title}. ${help}`,
    onkeydown: (event) => {
      const keys = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: steps.length - 1 };
      if (event.key in keys) { event.preventDefault(); select(keys[event.key]); }
      else if ((event.key === ' ' || event.key === 'Enter') && options.onActivate) { event.preventDefault(); options.onActivate(current); }
    },
  }, scroller);

  const legend = h('details', { class: 'legend', open: legendShown ? null : true }, h('summary', {}, t('legend')),
    // This timeline's actions (glyph and word), then the symbols.
    h('ul', {}, [...new Map([...steps.map((step) => [step.glyph, step.word]), ...legendItems()])]
      .map(([sym, words]) => h('li', {}, h('span', { class: 'sym' }, sym), ' ', words))));
  legendShown = true;

  const element = h('section', { class: 'timeline-block', 'aria-label': data.title },
    h('h4', { class: 'timeline-title' }, data.title),
    data.description ? h('p', { class: 'timeline-description' }, inline(data.description)) : null,
    frame, legend, h('p', { class: 'help' }, help), controls, live, trip, note, sqlBox, table, verdictLine,
    h('details', { class: 'narration-block', open: options.openNarration ? true : null },
      h('summary', {}, t('narration')), narrationList));

  function jobTable(index) {
    const rows = new Map(data.jobs.map((job) => [job, { owner: null, lease_until: null, fence: 0, state: 'ready' }]));
    for (let k = 0; k <= index && k < steps.length; k += 1) {
      const row = steps[k].row;
      if (row) rows.set(row.job, row);
    }
    const head = h('tr', {}, ['job', t('owner'), t('leaseUntil'), t('fence'), t('state')].map((c) => h('th', { scope: 'col' }, c)));
    const body = [...rows].map(([job, row]) => h('tr', {}, h('th', { scope: 'row' }, job),
      [row.owner ?? '—', row.lease_until ?? 'NULL', row.fence, row.state].map((c) => h('td', {}, c))));
    return h('table', {}, h('caption', {}, t('jobTable')), h('thead', {}, head), h('tbody', {}, body));
  }

  // The statement a job-table step stands for (sim-core's), its values and
  // the model's row count; nothing for other steps or a hidden result.
  function stepSql(sql) {
    if (!sql) return [];
    const outcome = !sql.sent ? `(${t('sqlNotSent')})`
      : sql.rows === undefined ? null : `→ ${sql.rows} ${t(sql.rows === 1 ? 'rowChanged' : 'rowsChanged')}`;
    return [h('span', { class: 'sql-caption' }, `${t('stepSql')} (${sql.dialect})`),
      h('pre', {}, h('code', {}, sql.text)),
      sql.bindings ? h('p', { class: 'sql-bindings' }, sql.bindings) : null,
      outcome ? h('p', { class: 'sql-rows' }, outcome) : null].filter(Boolean);
  }

  function select(index, still) {
    if (!steps.length) { position.textContent = '—'; return; }
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    const x = stepX(current);
    cursor.setAttribute('x', x);
    for (const node of stepNodes) node.classList.remove('current', 'anim');
    // A reflow between, so the step's animation starts again (style.css).
    void svg.getBBox();
    stepNodes[current].classList.add('current', still ? 'current' : 'anim');
    for (const bar of leaseBars) bar.spent.setAttribute('width', Math.max(0, Math.min(bar.end, x + COL / 2) - bar.start));
    for (const item of narrationList.children) item.removeAttribute('aria-current');
    narrationList.children[current]?.setAttribute('aria-current', 'step');
    position.textContent = `${t('step')} ${current} / ${steps.length - 1} · ${t('tick')} ${step.at}`;
    clear(live).append(`${step.symbol} `, ...inline(step.narration));
    note.textContent = step.note ? `“${step.note}”` : '';
    // A request's send and its arrival each tell the whole trip.
    const flightIndex = flights.findIndex((f) => f.send_step === current || f.deliver_step === current);
    clear(trip);
    if (flightIndex >= 0) trip.append('↦ ', ...inline(flights[flightIndex].words));
    flightNodes.forEach((node, i) => node?.classList.toggle('current', i === flightIndex));
    clear(table).append(jobTable(current));
    clear(sqlBox).append(...stepSql(step.sql));
    const left = stepX(current) - scroller.clientWidth / 2;
    if (scroller.scrollWidth > scroller.clientWidth) scroller.scrollLeft = Math.max(0, left);
    options.onSelect?.(current);
  }

  select(current, true);
  return {
    element,
    select,
    current: () => current,
    setExtra(rows) { extraRows = rows; drawExtra(); },
  };
}
