// Timings of the page in Debian's Chromium, as medians of several runs —
// run by hand, never a test (timings on a shared CI machine are noise):
//
//   cargo xtask web && cargo build -p fencelab
//   node web/e2e/measure.mjs            # RUNS=9 for more runs
//
// Prints: navigation → interactive course map (performance marks), one
// timeline step (the key handler plus the layout it causes), and the design
// lab's standard exhaustive check (2 workers, two targets, TTL 3, cancel,
// time ≤ 12) in the explorer's Web Worker, without and with delivery delays,
// the SQL engine's load (worker start → SQLite ready), and drawing practice
// rounds in the page's practice worker (every lesson with a practice world,
// each of its situations in turn, every level: the round trip from the
// page, the wasm already loaded).

import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.FENCELAB_BIN ?? join(ROOT, 'target/debug/fencelab');
const RUNS = Number(process.env.RUNS ?? 7);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => `${value.toFixed(1)} ms`;

const server = spawn(BIN, ['web', '--port', '0', '--dir', join(ROOT, 'web/dist')], { stdio: ['ignore', 'ignore', 'pipe'] });
const base = await new Promise((ok, fail) => {
  let said = '';
  server.stderr.on('data', (chunk) => {
    said += chunk;
    const found = said.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (found) ok(found[0]);
  });
  server.on('exit', (code) => fail(new Error(`fencelab web exited with ${code}: ${said}`)));
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

try {
  const marks = { wasm: [], course: [], interactive: [] };
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForSelector('.lesson-card');
    const got = await page.evaluate(() => Object.fromEntries(['wasm', 'course', 'interactive']
      .map((name) => [name, performance.getEntriesByName(`fencelab:${name}`)[0]?.startTime ?? NaN])));
    for (const key of Object.keys(marks)) marks[key].push(got[key]);
    await context.close();
  }
  console.log(`navigation → wasm ready        ${ms(median(marks.wasm))}`);
  console.log(`navigation → course parsed     ${ms(median(marks.course))}`);
  console.log(`navigation → interactive map   ${ms(median(marks.interactive))}  (target < 500 ms)`);

  // The SQL engine (sql-worker.js and fencelab_web_sql*, loaded when a SQL
  // exercise opens): from the worker's start to SQLite ready, each run in a
  // fresh context, so nothing comes from the cache.
  const sqlReady = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForSelector('.lesson-card');
    sqlReady.push(await page.evaluate(() => new Promise((ok, fail) => {
      const started = performance.now();
      const worker = new Worker(new URL('./sql-worker.js', location.href), { type: 'module' });
      worker.onmessage = (event) => {
        worker.terminate();
        if (event.data.kind === 'ready') ok(performance.now() - started);
        else fail(new Error(event.data.message));
      };
    })));
    await context.close();
  }
  console.log(`SQL engine: worker start → SQLite ready  ${ms(median(sqlReady))}  (first SQL exercise, cold cache)`);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(base + '#/lesson/01-liveness-vs-safety');
  await page.waitForSelector('.timeline');
  const steps = await page.evaluate((runs) => {
    const frame = document.querySelector('.timeline');
    const out = [];
    for (let i = 0; i < runs * 5; i += 1) {
      const key = i % 10 < 5 ? 'ArrowRight' : 'ArrowLeft';
      const start = performance.now();
      frame.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      frame.parentElement.getBoundingClientRect();
      void document.body.offsetHeight;
      out.push(performance.now() - start);
    }
    return out;
  }, RUNS);
  console.log(`timeline step render           ${ms(median(steps))}  (target < 16 ms)`);

  await page.goto(base + '#/explore');
  await page.waitForSelector('main h1');
  const worlds = [
    ...['full', 'fenced-registered', 'ttl-lock-only'].map((design) => ({ design, label: design, cancel: true })),
    // The same world with requests in flight (at most 2, each delayed at
    // most 3 ticks: the bounds of `Bounds::with_delays`), as in
    // sim-core/benches/design_lab.rs: the designs that stay safe, searched
    // whole (fenced-registered is safe only without cancel).
    { design: 'full', label: 'full +delays', cancel: true, max_in_flight: 2, max_delay: 3 },
    { design: 'fenced-registered', label: 'fenced-registered +delays', cancel: false, max_in_flight: 2, max_delay: 3 },
  ];
  for (const { label, ...world } of worlds) {
    const times = [];
    let states = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const report = await page.evaluate((opts) => new Promise((ok, fail) => {
        const worker = new Worker(new URL('./explore-worker.js', location.href), { type: 'module' });
        worker.onmessage = (event) => {
          if (event.data.kind === 'done') { worker.terminate(); ok(event.data.report); }
          else if (event.data.kind === 'error') { worker.terminate(); fail(new Error(event.data.message)); }
        };
        worker.postMessage({ options: opts, lang: 'en' });
      }), { ...world, exhaustive: true, workers: 2, ttl: 3, max_time: 12 });
      times.push(report.stats.elapsed_ms);
      states = report.stats.states;
    }
    console.log(`design lab exhaustive, ${label.padEnd(26)} ${ms(median(times))}  (target < 150 ms; ${states} states)`);
  }

  // Practice rounds, drawn by the page's practice worker as the practice
  // page asks for them: one worker kept, a key per round (the lessons'
  // practice worlds read from lessons.json: each situation in turn, each
  // level), timed from the page's postMessage to the round's arrival.
  await page.goto(base + '#/review');
  await page.waitForSelector('main h1');
  const drawn = await page.evaluate(async () => {
    const lessons = await (await fetch('lessons.json')).text();
    const keys = [];
    for (const [pool, text] of JSON.parse(lessons)) {
      const table = text.split(/^\[practice\]\s*$/m)[1];
      if (!table) continue;
      const situations = JSON.parse(table.match(/^situations\s*=\s*(\[[^\]]*\])/m)[1]);
      for (let level = 1; level <= 4; level += 1) {
        const round = level - 1;
        keys.push({ pool, seed: 1000 + level, round, level, focus: situations[round % situations.length] });
      }
    }
    const worker = new Worker(new URL('./practice-worker.js', location.href), { type: 'module' });
    let id = 0;
    const draw = (key) => new Promise((ok, fail) => {
      const started = performance.now();
      const sent = ++id;
      worker.onmessage = (event) => {
        if (event.data.id !== sent) return;
        if (event.data.kind === 'done') ok({ ms: performance.now() - started, inWorker: event.data.ms, steps: event.data.round.scenario.match(/\{ at = /g)?.length ?? 0 });
        else fail(new Error(`${JSON.stringify(key)}: ${event.data.message}`));
      };
      worker.postMessage({ id: sent, lessons, key, lang: 'en' });
    });
    // The first draw loads the explorer's wasm: timed apart.
    const first = await draw(keys[0]);
    const rounds = [];
    for (const key of keys) rounds.push({ key, ...(await draw(key)) });
    worker.terminate();
    return { first: first.ms, rounds };
  });
  const slowest = drawn.rounds.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(`practice round, first (wasm load)  ${ms(drawn.first)}`);
  console.log(`practice round in the worker   ${ms(median(drawn.rounds.map((r) => r.ms)))}  (target < 150 ms; median of ${drawn.rounds.length} rounds, 6 lessons × 4 levels; draw alone ${ms(median(drawn.rounds.map((r) => r.inWorker)))}; slowest ${ms(slowest.ms)}: ${slowest.key.pool} level ${slowest.key.level})`);
  await context.close();
} finally {
  await browser.close();
  server.kill();
}
