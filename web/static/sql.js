// A SQL exercise (the `sql` kind): a text box per statement the learner
// writes. The statements run on a real SQLite in sql-worker.js (the SQL
// engine's own wasm: fencelab-sqlbox, the terminal's box, compiled to
// WebAssembly), which acts on the exercise in its own course session as the
// terminal does (a hand-in grades the run) and sends back the exercise's
// screen, which app.js draws, and the progress record, which it takes in. This
// module, the worker and the engine load only when a SQL exercise opens
// (app.js imports it then). The box inside bounds every run in time and
// memory; should the worker still not answer in time, it is ended and a
// fresh one started (`createEngine`'s watchdog).

import { h, clear, inline } from './dom.js';
import { t, tf, lang } from './strings.js';

// ---- the engine, one worker for the page ------------------------------------

/** How long past the box's own budget (within which the worker's run of a
 * plan stops, whatever the statements) the page waits for an answer before
 * it ends the worker: room to build the worker's course session and judge
 * the run on a slow machine. */
export const WATCHDOG_MARGIN_MS = 5000;
/** The box's budget until a worker says its own (in its ready message). */
const DEFAULT_BUDGET_MS = 5000;

/** A request the worker did not answer in time: it was ended and a fresh
 * one started; nothing was graded or counted. */
export class EngineRestarted extends Error {
  constructor(waitedMs) {
    super(tf('sqlRestarted', { s: Math.round(waitedMs / 1000) }));
    this.name = 'EngineRestarted';
  }
}

/**
 * The SQL engine: one worker at a time, asked by request id. A request the
 * worker has not answered within the box's budget plus `marginMs` ends
 * that worker (whatever holds it up), fails every request waiting on it
 * with an `EngineRestarted` and starts a fresh worker. `makeWorker` builds
 * a worker (a fake one in the tests). `start()` resolves to the SQLite
 * version and the ms from the worker's start to the engine's ready;
 * `request(message)` to the worker's answer.
 */
export function createEngine(makeWorker, { marginMs = WATCHDOG_MARGIN_MS } = {}) {
  let worker = null;
  let engine = null;
  let budgetMs = DEFAULT_BUDGET_MS;
  let requests = 0;
  const waiting = new Map();

  const start = () => {
    if (engine) return engine;
    const started = performance.now();
    const current = makeWorker();
    worker = current;
    engine = new Promise((ok, fail) => {
      current.onmessage = (event) => {
        const message = event.data;
        if (message.kind === 'ready') {
          if (Number.isFinite(message.budgetMs)) budgetMs = message.budgetMs;
          ok({ version: message.version, ms: Math.round(performance.now() - started) });
        } else if (message.kind === 'failed') fail(new Error(message.message));
        const asked = waiting.get(message.id);
        if (!asked) return;
        waiting.delete(message.id);
        clearTimeout(asked.timer);
        if (message.kind === 'done') asked.ok(message.answer);
        else asked.fail(new Error(message.message));
      };
      current.onerror = (event) => fail(new Error(event.message || 'sql-worker.js'));
    });
    return engine;
  };

  const restart = () => {
    const waitedMs = budgetMs + marginMs;
    worker?.terminate();
    worker = null;
    engine = null;
    for (const asked of waiting.values()) {
      clearTimeout(asked.timer);
      asked.fail(new EngineRestarted(waitedMs));
    }
    waiting.clear();
    // The next learner's click finds it ready.
    start().catch(() => {});
  };

  const request = async (message) => {
    await start();
    const id = ++requests;
    return new Promise((ok, fail) => {
      const timer = setTimeout(restart, budgetMs + marginMs);
      waiting.set(id, { ok, fail, timer });
      worker.postMessage({ ...message, id });
    });
  };

  return { start, request };
}

const engine = createEngine(() => new Worker(new URL('./sql-worker.js', import.meta.url), { type: 'module' }));

/** Starts the SQL engine's worker once; resolves to its SQLite version and
 * the time from the worker's start to the engine's ready, in ms. */
export function startEngine() {
  return engine.start();
}

// Acts on a SQL exercise one after another, each from the record the last
// one left (see `ask`).
let queue = Promise.resolve();

/** Hands `act` on a SQL exercise to the worker's session (every act but a
 * hint: the page's own wasm cannot read a SQL answer), with the page's
 * lessons and progress; takes in the record it sends back, and resolves
 * to `{ refused }` (a statement SQLite refused: not a try) or
 * `{ screen }`. Acts wait for the one before, but for the first open. */
function ask(page, lesson, exercise, act) {
  const send = async () => {
    const sent = page.course.progressJson();
    const { progress, value } = JSON.parse(await engine.request({
      lessons: page.lessons, progress: sent, lang: lang(),
      lesson: lesson.id, exercise: exercise.id, act: JSON.stringify(act),
    }));
    page.course.takeWorkerProgress(sent, progress);
    return value;
  };
  if (act.act === 'open') return send();
  const asked = queue.then(send);
  queue = asked.catch(() => {});
  return asked;
}

// ---- the exercise -------------------------------------------------------------

/**
 * Builds a SQL exercise into `body`. `kind` is the exercise's hook object
 * in app.js (`elsewhere` takes its acts to the engine's worker, `keyView`
 * shows a solution's statements); `page` holds the page's `course` and its
 * `lessons` text; `ctx` the exercise's `submit`, `change` and `act`.
 */
export function sqlExercise(kind, page, lesson, exercise, body, { submit, change, act }) {
  const boxes = exercise.slots.map((slot) => {
    const id = `sql-${exercise.id}-${slot}`;
    const input = h('textarea', { class: 'code', id, rows: 5, spellcheck: 'false', 'data-slot': slot, autocapitalize: 'off' });
    const error = h('p', { class: 'sql-error verdict bad', hidden: true });
    return { slot, input, error, field: h('div', { class: 'sql-slot' }, h('label', { for: id }, h('code', {}, slot)), input, error) };
  });
  const statements = () => Object.fromEntries(boxes.map((box) => [box.slot, box.input.value]));
  // The statements in the making go to the session a moment after typing stops.
  let touched = false;
  let timer = 0;
  const keep = () => {
    touched = true;
    clearTimeout(timer);
    timer = setTimeout(() => change(statements()), 300);
  };
  const status = h('p', { class: 'muted sql-engine', role: 'status' }, t('sqlLoading'));
  const button = h('button', { type: 'button', class: 'primary' }, t('sqlRun'));
  body.append(
    h('p', { class: 'muted' }, t('sqlParams'), ' ', exercise.params.map((p) => [h('code', {}, p), ' '])),
    h('p', { class: 'muted sql-table' }, exercise.table),
    h('div', { class: 'sql-slots', oninput: keep }, boxes.map((box) => box.field)),
    h('div', { class: 'buttons' }, button), status);
  const ready = () => startEngine().then(({ version, ms }) => {
    status.textContent = tf('sqlReady', { version, ms });
    status.dataset.ms = String(ms);
  }, (error) => {
    status.textContent = t('sqlFailed') + String(error.message ?? error);
  });
  // The statements as the learner left them: the worker's session reads them.
  ready().then(() => act({ act: 'open' })).then((screen) => {
    if (touched || !screen.answer) return;
    for (const box of boxes) box.input.value = screen.answer[box.slot] ?? '';
  }, () => {});

  kind.elsewhere = (what) => (what.act === 'hint' ? null : ask(page, lesson, exercise, what).then((value) => {
    if (value.refused) {
      // Once the verdict is drawn (and focused), the caret goes to the statement.
      setTimeout(() => showRefusals(boxes, value.refused), 0);
      throw new Error(value.status);
    }
    return value.screen;
  }, (error) => {
    if (error instanceof EngineRestarted) {
      // Said in the verdict; the status line follows the fresh engine.
      status.textContent = t('sqlLoading');
      ready();
    }
    throw error;
  }));
  kind.keyView = (key) => h('pre', { class: 'code' }, Object.entries(key).map(([slot, text]) => `${slot}:\n${text}\n`).join('\n'));

  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    for (const box of boxes) {
      box.error.hidden = true;
      box.input.removeAttribute('aria-invalid');
    }
    const previous = status.textContent;
    status.textContent = t('sqlRunning');
    try {
      await submit(statements());
    } finally {
      if (status.textContent === t('sqlRunning')) status.textContent = previous;
      button.disabled = false;
    }
  });
}

/** Each refused statement's message under its box (SQLite's own message,
 * with line:col for a syntax error), the caret put at that position. */
function showRefusals(boxes, refused) {
  let first = null;
  for (const refusal of refused) {
    const box = boxes.find((b) => b.slot === refusal.slot);
    if (!box) continue;
    clear(box.error).append('✗ ', ...inline(refusal.message));
    box.error.hidden = false;
    box.input.setAttribute('aria-invalid', 'true');
    if (first) continue;
    first = box;
    if (refusal.line) {
      const lines = box.input.value.split('\n');
      const before = lines.slice(0, refusal.line - 1).reduce((sum, line) => sum + [...line].length + 1, 0);
      const at = [...box.input.value].slice(0, before + (refusal.col ?? 1) - 1).join('').length;
      box.input.setSelectionRange(at, at);
    }
  }
  first?.input.focus();
}
